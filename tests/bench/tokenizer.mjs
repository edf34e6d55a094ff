// Tokenizer benchmark: ours (the wasm package, SIMD128 and fallback, and the native build through
// embedlab_tokenize) against the npm peers of tokenizer_peers.mjs (tiktoken, js-tiktoken, gpt-tokenizer,
// ai-tokenizer, @huggingface/tokenizers), all in this one node process on the same corpora
// (tests/reference/tokenizer_corpora.mjs): encode, count, decode (tokenizer_decode.mjs), init and cold start, then long inputs and
// training (tokenizer_long.mjs). Before a peer is timed on a corpus, its ids, counts and decoded texts are
// checked against ours (ours are checked against tiktoken by the parity tests); a peer that disagrees is
// timed all the same but its cells say on how many texts it differs.
// Goals (issue 13): encode >= 3× the fastest peer, count >= 3×, decode >= 2×, cold start below every peer.
//   node tests/bench/tokenizer.mjs            (or: node tests/bench/run.mjs Tokenizer)
//   TOKENIZER_BENCH_MB=0.25 for a quicker run (corpus MB per language group; default 0.5);
//   TOKENIZER_BENCH_ENCODINGS=cl100k_base,o200k_base for some vocabularies only;
//   TOKENIZER_BENCH_SPEED_ONLY=1 for the encode, count and decode tables only (no init, cold start, long inputs, training)
//   TOKENIZER_BENCH_DECODE_MB: the size of the decode table's at-once input (tokenizer_decode.mjs, default 2.5)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import createEmbedLab from '../../dist/index.js';
import { englishCorpus, gptTokenizerDataDir, multilingualCorpus, utf8Bytes } from '../reference/tokenizer_corpora.mjs';
import { median } from './timing.mjs';
import { benchDecode } from './tokenizer_decode.mjs';
import { benchLongInputs, benchTraining } from './tokenizer_long.mjs';
import { loadPeers, mismatches, PEER_NAMES } from './tokenizer_peers.mjs';
import { tokenizerTables } from './tokenizer_tables.mjs';
import { interleaved, MIN_RUNS } from './tokenizer_timing.mjs';

const path = (relative) => fileURLToPath(new URL(relative, import.meta.url));
const ENCODINGS = process.env.TOKENIZER_BENCH_ENCODINGS?.split(',') ?? [
  'r50k_base',
  'p50k_base',
  'cl100k_base',
  'o200k_base',
];
const PEERS = Object.keys(PEER_NAMES);
const hfDir = path('../../build/bench/hf');
const mb = Number(process.env.TOKENIZER_BENCH_MB ?? 0.5);
const speedOnly = process.env.TOKENIZER_BENCH_SPEED_ONLY === '1';

export function nativeTool() {
  for (const candidate of ['../../build/native/embedlab_tokenize', '../../build/native-tok/embedlab_tokenize']) {
    if (existsSync(path(candidate))) {
      return path(candidate);
    }
  }
  return null;
}

// embedlab_tokenize --time prints "load X ms; encoded N bytes into T tokens in S s (median of R): M MB/s".
function runNative(tool, args, input) {
  const result = spawnSync(tool, [...args, '--time'], { input, maxBuffer: 1 << 30 });
  if (result.status !== 0) {
    throw new Error(`${tool} failed: ${result.stderr}`);
  }
  const stderr = result.stderr.toString();
  const load = Number(/load ([\d.]+) ms/.exec(stderr)?.[1]) / 1e3;
  const bytes = Number(/encoded (\d+) bytes/.exec(stderr)?.[1]);
  return { load, bytes };
}

// CPU seconds of one encode pass of the native tool over `input`: the children's CPU time (bash's `times`)
// of --repeat 21 minus that of --repeat 1, over 20; median of 3 such pairs.
function nativeCpuPass(tool, args, input) {
  const cpu = (repeat) => {
    const result = spawnSync(
      'bash',
      ['-c', '"$0" "$@" > /dev/null; times', tool, ...args, '--repeat', String(repeat)],
      { input, maxBuffer: 1 << 30 },
    );
    if (result.status !== 0) {
      throw new Error(`${tool} failed: ${result.stderr}`);
    }
    const children = result.stdout.toString().trim().split('\n').at(-1);
    return [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce((sum, m) => sum + Number(m[1]) * 60 + Number(m[2]), 0);
  };
  return median(Array.from({ length: 3 }, () => (cpu(21) - cpu(1)) / 20));
}

/** {peer: texts on which it differs from ours} for encode and count (decode: tokenizer_decode.mjs); also warms the peers up. */
function checkPeers(peers, instances, texts, ids) {
  const result = { encode: {}, count: {} };
  for (const who of Object.keys(instances)) {
    const peer = peers[who];
    const p = instances[who];
    peer.clear(p);
    result.encode[who] = mismatches(
      texts,
      ids,
      texts.map((t) => peer.encode(p, t)),
    );
    result.count[who] = texts.filter((t, i) => peer.count(p, t) !== ids[i].length).length;
  }
  return result;
}

/**
 * Init times for `name`: ours from the binary vocabulary the package ships (getTokenizer given its bytes,
 * so that it builds a tokenizer instead of sharing a live one; the file's read is left out) and from the
 * .tiktoken bytes; the peers' construction from loaded data; the native tool's load times.
 */
export async function benchInit(name, labs, tool, peers) {
  const vocabFile = `${gptTokenizerDataDir}/${name}.tiktoken`;
  const shipped = readFileSync(path(`../../dist/vocab/${name}.emblvoc`));
  const tiktokenBytes = readFileSync(vocabFile);
  const init = await interleaved(
    {
      oursShipped: async () => (await labs.simd.getTokenizer(name, { vocabulary: shipped })).dispose(),
      oursTiktoken: () => labs.simd.tokenizerFromVocabulary({ tiktoken: tiktokenBytes, encoding: name }).dispose(),
      ...Object.fromEntries(PEERS.filter((who) => peers[who]).map((who) => [who, peers[who].init])),
    },
    MIN_RUNS,
  );
  let nativeInit = null;
  if (tool) {
    const binaryFile = path(`../../build/bench/${name}.embedlab-bpe`);
    execFileSync(tool, ['--vocab', vocabFile, '--encoding', name, '--save-binary', binaryFile], { stdio: 'pipe' });
    const load = (args) =>
      median(Array.from({ length: MIN_RUNS }, () => runNative(tool, [...args, '--whole'], 'x').load));
    nativeInit = {
      tiktoken: load(['--vocab', vocabFile, '--encoding', name]),
      binary: load(['--tokenizer', binaryFile]),
    };
  }
  return { name, init, nativeInit };
}

/** One row per corpus of encode and count times for `name`, the decode rows (tokenizer_decode.mjs), the init times. */
async function benchEncoding(name, labs, tool, corpora) {
  const peers = await loadPeers(name, hfDir);
  const ours = { simd: await labs.simd.getTokenizer(name), fallback: await labs.fallback.getTokenizer(name) };
  const instances = Object.fromEntries(PEERS.filter((who) => peers[who]).map((who) => [who, peers[who].create()]));
  const vocabFile = `${gptTokenizerDataDir}/${name}.tiktoken`;
  const init = speedOnly ? null : await benchInit(name, labs, tool, peers);

  const rows = [];
  for (const [label, texts] of Object.entries(corpora)) {
    const bytes = utf8Bytes(texts);
    const ids = texts.map((t) => ours.simd.encode(t));
    const differs = checkPeers(peers, instances, texts, ids);
    // Cold: every cache cleared before each run (ours included), so each pass over the corpus starts from
    // nothing; warm: every cache kept across runs (and already filled by checkPeers), as in a long-running process.
    const runs = (clear, ourFns, body) => ({
      ...Object.fromEntries(
        Object.entries(ourFns).map(([who, fn]) => [
          who,
          () => {
            if (clear) {
              ours[who].clearCache();
            }
            texts.forEach((t) => fn(ours[who], t));
          },
        ]),
      ),
      ...Object.fromEntries(
        Object.entries(instances).map(([who, p]) => [
          who,
          () => {
            if (clear) {
              peers[who].clear(p);
            }
            texts.forEach((t) => body(peers[who], p, t));
          },
        ]),
      ),
    });
    const encodeOurs = { simd: (tok, t) => tok.encode(t), fallback: (tok, t) => tok.encode(t) };
    const encodePeer = (peer, p, t) => peer.encode(p, t);
    const countOurs = { simd: (tok, t) => tok.count(t) };
    const countPeer = (peer, p, t) => peer.count(p, t);
    const encode = await interleaved(runs(true, encodeOurs, encodePeer));
    const count = await interleaved(runs(true, countOurs, countPeer));
    const encodeWarm = await interleaved(runs(false, encodeOurs, encodePeer));
    const countWarm = await interleaved(runs(false, countOurs, countPeer));
    let native = null;
    let nativeWarm = null;
    if (tool) {
      const input = texts.map((t) => Buffer.from(t, 'utf8').toString('base64')).join('\n') + '\n';
      const args = ['--vocab', vocabFile, '--encoding', name, '--base64-lines'];
      if (runNative(tool, args, input).bytes !== bytes) {
        throw new Error(`native encoded another byte count than ${bytes}`);
      }
      native = nativeCpuPass(tool, [...args, '--clear-cache'], input);
      nativeWarm = nativeCpuPass(tool, args, input);
    }
    rows.push({
      name,
      label,
      bytes,
      texts: texts.length,
      encode,
      count,
      encodeWarm,
      countWarm,
      native,
      nativeWarm,
      differs,
    });
  }
  const decodeRows = await benchDecode(name, ours, peers, instances, corpora);
  for (const [who, p] of Object.entries(instances)) {
    peers[who].free(p);
  }
  ours.simd.dispose();
  ours.fallback.dispose();
  return { rows, decodeRows, init };
}

/** Wall ms in a fresh node process from the first import to a first encode, round-robin, per encoding. */
export async function benchColdStart() {
  const rows = [];
  const distUrl = new URL('../../dist/index.js', import.meta.url).href;
  const entryUrl = new URL('../../dist/tokenizer.js', import.meta.url).href;
  const report = 'process.stdout.write(String(performance.now() - t0));';
  for (const name of ENCODINGS) {
    const peers = await loadPeers(name, hfDir);
    const scripts = {
      ours:
        `const t0 = performance.now(); const { getTokenizer } = await import(${JSON.stringify(entryUrl)}); ` +
        `(await getTokenizer('${name}')).encode('hello world'); ${report}`,
      oursFull:
        `const t0 = performance.now(); const lab = await (await import(${JSON.stringify(distUrl)})).default({ simd: true }); ` +
        `(await lab.getTokenizer('${name}')).encode('hello world'); ${report}`,
      ...Object.fromEntries(PEERS.filter((who) => peers[who]).map((who) => [who, peers[who].cold])),
    };
    const times = Object.fromEntries(Object.keys(scripts).map((k) => [k, []]));
    for (let round = 0; round < MIN_RUNS; round++) {
      for (const [who, script] of Object.entries(scripts)) {
        const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
          cwd: path('../..'),
          encoding: 'utf8',
        });
        times[who].push(Number(out) / 1e3);
      }
    }
    rows.push({ name, ...Object.fromEntries(Object.entries(times).map(([who, list]) => [who, median(list)])) });
  }
  return rows;
}

export async function benchTokenizer() {
  const started = performance.now();
  const labs = { simd: await createEmbedLab({ simd: true }), fallback: await createEmbedLab({ simd: false }) };
  const tool = nativeTool();
  const corpora = {
    English: englishCorpus({ bytes: Math.max(0, mb - 0.26) * 1e6 }), // licences (0.26 MB) + man pages
    multilingual: multilingualCorpus({ bytes: mb * 1e6 }),
  };
  mkdirSync(path('../../build/bench'), { recursive: true });

  // Warm-up: every contender encodes, counts and decodes the English corpus for ~1 s first, so that V8's
  // wasm and JS tiering (slow on a loaded machine) is over before anything is timed; the code paths are
  // the same for every vocabulary.
  {
    const peers = await loadPeers('cl100k_base', hfDir);
    const warmers = [];
    for (const lab of [labs.simd, labs.fallback]) {
      const t = await lab.getTokenizer('cl100k_base');
      warmers.push({ run: (text) => t.decode(t.encode(text)) + t.count(text), done: () => t.dispose() });
    }
    for (const who of PEERS) {
      const peer = peers[who];
      const p = peer.create();
      warmers.push({
        run: (text) => {
          const ids = peer.encode(p, text);
          return peer.decode(p, peer.arrays ? Array.from(ids) : ids) + peer.count(p, text);
        },
        done: () => peer.free(p),
      });
    }
    for (const warmer of warmers) {
      const start = performance.now();
      while (performance.now() - start < 1000) {
        corpora.English.forEach((text) => warmer.run(text));
      }
      warmer.done();
    }
  }

  const rows = [];
  const decodeRows = [];
  const initRows = [];
  for (const name of ENCODINGS) {
    const result = await benchEncoding(name, labs, tool, corpora);
    rows.push(...result.rows);
    decodeRows.push(...result.decodeRows);
    if (result.init) {
      initRows.push(result.init);
    }
  }
  const skipped = { lines: [], misses: [] };
  const coldRows = speedOnly ? [] : await benchColdStart();
  const long = speedOnly ? skipped : await benchLongInputs(labs, hfDir);
  const training = speedOnly ? skipped : await benchTraining(labs.simd, tool);
  return tokenizerTables({
    rows,
    decodeRows,
    initRows,
    coldRows,
    long,
    training,
    corpora,
    tool,
    seconds: (performance.now() - started) / 1000,
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await benchTokenizer());
}
