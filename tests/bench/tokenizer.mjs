// Tokenizer benchmark: ours (the wasm package, SIMD128 and fallback, and the native build through
// embedlab_tokenize --time) against npm tiktoken (Rust→wasm), js-tiktoken and gpt-tokenizer (merge cache
// cleared before every run), all in this one node process on the same corpora
// (tests/reference/tokenizer_corpora.mjs). Every number is the median of ≥ 5 runs unless marked "1 run".
//   node tests/bench/tokenizer.mjs            (or: node tests/bench/run.mjs Tokenizer)
//   TOKENIZER_BENCH_MB=0.25 for a quicker run (corpus MB per language group; default 0.5)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

import { GptEncoding } from 'gpt-tokenizer/GptEncoding';
import { Tiktoken as JsTiktoken } from 'js-tiktoken/lite';
import { get_encoding } from 'tiktoken';

import createEmbedLab from '../../dist/index.js';
import { englishCorpus, gptTokenizerDataDir, multilingualCorpus, utf8Bytes } from '../reference/tokenizer_corpora.mjs';
import { formatRatio, median, medianSeconds } from './timing.mjs';

const require = createRequire(import.meta.url);
const path = (relative) => fileURLToPath(new URL(relative, import.meta.url));
const ENCODINGS = ['r50k_base', 'p50k_base', 'cl100k_base', 'o200k_base'];
const JS_TIKTOKEN_RANKS = { r50k_base: 'r50k_base', p50k_base: 'p50k_base', cl100k_base: 'cl100k_base', o200k_base: 'o200k_base' };
const PEER_CAP_SECONDS = 4;  // a peer's predicted single run above this is skipped on long inputs
const MIN_RUNS = 5;

const mb = Number(process.env.TOKENIZER_BENCH_MB ?? 0.5);
const mbps = (bytes, seconds) => (bytes / seconds / 1e6).toFixed(1);
const ms = (seconds) => (seconds * 1e3 < 10 ? (seconds * 1e3).toFixed(2) : (seconds * 1e3).toFixed(0));
const secondsText = (seconds) => (seconds < 1 ? `${ms(seconds)} ms` : `${seconds.toFixed(2)} s`);

/** Median seconds of ≥ 5 runs (medianSeconds: calibrated, median of 7), or of exactly `runs` runs of `once`. */
function timeRuns(once, runs) {
  if (!runs) return medianSeconds({ once });
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    once();
    times.push((performance.now() - start) / 1000);
  }
  return median(times);
}

function nativeTool() {
  for (const candidate of ['../../build/native/embedlab_tokenize', '../../build/native-tok/embedlab_tokenize']) {
    if (existsSync(path(candidate))) return path(candidate);
  }
  return null;
}

// embedlab_tokenize --time prints "load X ms; encoded N bytes into T tokens in S s (median of R): M MB/s".
function runNative(tool, args, input) {
  const result = spawnSync(tool, [...args, '--time'], { input, maxBuffer: 1 << 30 });
  if (result.status !== 0) throw new Error(`${tool} failed: ${result.stderr}`);
  const stderr = result.stderr.toString();
  const load = Number(/load ([\d.]+) ms/.exec(stderr)?.[1]) / 1e3;
  const seconds = Number(/ in ([\d.]+) s \(median/.exec(stderr)?.[1]);
  const bytes = Number(/encoded (\d+) bytes/.exec(stderr)?.[1]);
  return { load, seconds, bytes };
}

async function loadPeers(name) {
  const bpe = (await import(`gpt-tokenizer/bpeRanks/${name}`)).default;
  const jsRanks = (await import(`js-tiktoken/ranks/${JS_TIKTOKEN_RANKS[name]}`)).default;
  return {
    tiktoken: () => get_encoding(name),
    jsTiktoken: () => new JsTiktoken(jsRanks),
    gptTokenizer: () => GptEncoding.getEncodingApi(name, () => bpe),
  };
}

export async function benchTokenizer() {
  const started = performance.now();
  const labs = { simd: await createEmbedLab({ simd: true }), fallback: await createEmbedLab({ simd: false }) };
  const tool = nativeTool();
  const corpora = {
    English: englishCorpus({ bytes: Math.max(0, mb - 0.26) * 1e6 }),  // licences (0.26 MB) + man pages
    multilingual: multilingualCorpus({ bytes: mb * 1e6 }),
  };
  const corpusBytes = Object.fromEntries(Object.entries(corpora).map(([label, texts]) => [label, utf8Bytes(texts)]));
  mkdirSync(path('../../build/bench'), { recursive: true });

  // Warm-up: every encoder and decoder runs on the English corpus for ~1 s first, so that V8's wasm and JS
  // tiering (slow on a loaded machine) is over before anything is timed; the code paths are the same for
  // every vocabulary.
  {
    const factories = await loadPeers('cl100k_base');
    const warm = [await labs.simd.getTokenizer('cl100k_base'), await labs.fallback.getTokenizer('cl100k_base')];
    const tiktoken = factories.tiktoken();
    const encoders = [...warm, tiktoken, factories.jsTiktoken(), factories.gptTokenizer()];
    for (const encoder of encoders) {
      const start = performance.now();
      while (performance.now() - start < 1000) {
        for (const text of corpora.English) encoder.decode(encoder.encode(text));
        encoder.clearMergeCache?.();
      }
    }
    tiktoken.free();
    for (const tokenizer of warm) tokenizer.dispose();
  }

  const encodeRows = [];
  const initRows = [];
  const decodeRows = [];
  for (const name of ENCODINGS) {
    const factories = await loadPeers(name);
    const ours = { simd: await labs.simd.getTokenizer(name), fallback: await labs.fallback.getTokenizer(name) };
    const peers = { tiktoken: factories.tiktoken(), jsTiktoken: factories.jsTiktoken(), gptTokenizer: factories.gptTokenizer() };
    const vocabFile = `${gptTokenizerDataDir}/${name}.tiktoken`;
    const binaryFile = path(`../../build/bench/${name}.embedlab-bpe`);

    // ---- Init: ours from the .tiktoken bytes (file read once per process, as getTokenizer caches it) and
    // from our binary form; the peers' construction from their already-imported rank data.
    const binary = ours.simd.save({ binary: true });
    const init = {
      oursBinary: timeRuns(() => labs.simd.loadTokenizer(binary).dispose(), MIN_RUNS),
      tiktoken: timeRuns(() => factories.tiktoken().free(), MIN_RUNS),
      jsTiktoken: timeRuns(() => factories.jsTiktoken(), MIN_RUNS),
      gptTokenizer: timeRuns(() => factories.gptTokenizer(), MIN_RUNS),
    };
    const asyncTimes = [];
    for (let i = 0; i < MIN_RUNS; i++) {
      const start = performance.now();
      (await labs.simd.getTokenizer(name)).dispose();
      asyncTimes.push((performance.now() - start) / 1000);
    }
    init.oursTiktoken = median(asyncTimes);
    let nativeInit = null;
    if (tool) {
      execFileSync(tool, ['--vocab', vocabFile, '--encoding', name, '--save-binary', binaryFile], { stdio: 'pipe' });
      nativeInit = {
        tiktoken: median(Array.from({ length: MIN_RUNS }, () => runNative(tool, ['--vocab', vocabFile, '--encoding', name, '--whole'], 'x').load)),
        binary: median(Array.from({ length: MIN_RUNS }, () => runNative(tool, ['--tokenizer', binaryFile, '--whole'], 'x').load)),
      };
    }
    initRows.push({ name, init, nativeInit, binaryBytes: binary.length });

    // ---- Encode, per text (documents as they come), default special-token rules for everyone.
    for (const [label, texts] of Object.entries(corpora)) {
      const bytes = corpusBytes[label];
      const encodeAll = (encode) => () => {
        for (const text of texts) encode(text);
      };
      const row = { name, label, bytes };
      row.simd = timeRuns(encodeAll((t) => ours.simd.encode(t)));
      row.fallback = timeRuns(encodeAll((t) => ours.fallback.encode(t)));
      row.tiktoken = timeRuns(encodeAll((t) => peers.tiktoken.encode(t)));
      row.jsTiktoken = timeRuns(encodeAll((t) => peers.jsTiktoken.encode(t)));
      const gpt = peers.gptTokenizer;
      row.gptTokenizer = timeRuns(() => {
        gpt.clearMergeCache();
        for (const text of texts) gpt.encode(text);
      });
      if (tool) {
        const input = texts.map((t) => Buffer.from(t, 'utf8').toString('base64')).join('\n') + '\n';
        const native = runNative(tool, ['--vocab', vocabFile, '--encoding', name, '--base64-lines', '--repeat', '7'], input);
        if (native.bytes !== bytes) throw new Error(`native encoded ${native.bytes} bytes, not ${bytes}`);
        row.native = native.seconds;
      }
      encodeRows.push(row);
    }

    // ---- Decode ids back to a string (tiktoken returns bytes: TextDecoder included), English corpus.
    {
      const texts = corpora.English;
      const ids = texts.map((t) => ours.simd.encode(t));
      const idArrays = ids.map((a) => Array.from(a));
      const utf8 = new TextDecoder();
      const decodeAll = (decode, list = ids) => () => {
        for (const item of list) decode(item);
      };
      decodeRows.push({
        name,
        bytes: corpusBytes.English,
        simd: timeRuns(decodeAll((x) => ours.simd.decode(x))),
        fallback: timeRuns(decodeAll((x) => ours.fallback.decode(x))),
        tiktoken: timeRuns(decodeAll((x) => utf8.decode(peers.tiktoken.decode(x)))),
        jsTiktoken: timeRuns(decodeAll((x) => peers.jsTiktoken.decode(x), idArrays)),
        gptTokenizer: timeRuns(decodeAll((x) => peers.gptTokenizer.decode(x), idArrays)),
      });
    }
    peers.tiktoken.free();
    ours.simd.dispose();
    ours.fallback.dispose();
  }

  // ---- Long unbroken inputs: one pre-tokenizer piece each ("x" and spaces under cl100k; digits under
  // r50k, whose pattern keeps a digit run whole: cl100k splits digits in threes).
  const longRows = [];
  const LENGTHS = [10_000, 40_000, 100_000];
  for (const [kind, char, name] of [['"x"', 'x', 'cl100k_base'], ['spaces', ' ', 'cl100k_base'], ['digits', '7', 'r50k_base']]) {
    const factories = await loadPeers(name);
    const encoders = {
      simd: await labs.simd.getTokenizer(name),
      fallback: await labs.fallback.getTokenizer(name),
    };
    const tiktoken = factories.tiktoken();
    const jsTiktoken = factories.jsTiktoken();
    const gpt = factories.gptTokenizer();
    const runners = {
      simd: (text) => encoders.simd.encode(text),
      fallback: (text) => encoders.fallback.encode(text),
      tiktoken: (text) => tiktoken.encode(text),
      jsTiktoken: (text) => jsTiktoken.encode(text),
      gptTokenizer: (text) => {
        gpt.clearMergeCache();
        gpt.encode(text);
      },
    };
    const cells = {};
    for (const [who, run] of Object.entries(runners)) {
      cells[who] = [];
      let previous = null;  // {length, seconds}
      for (const length of LENGTHS) {
        const text = char.repeat(length);
        // A peer is given one run when a quadratic extrapolation from the last length says it is slow, and
        // none when that says it would take more than PEER_CAP_SECONDS.
        const predicted = previous ? previous.seconds * (length / previous.length) ** 2 : 0;
        if (predicted > PEER_CAP_SECONDS) {
          cells[who].push({ skipped: predicted });
          continue;
        }
        const start = performance.now();
        run(text);
        const first = (performance.now() - start) / 1000;
        const seconds = first > 0.5 ? first : timeRuns(() => run(text));
        cells[who].push({ seconds, once: first > 0.5 });
        previous = { length, seconds };
      }
    }
    longRows.push({ kind, name, cells });
    tiktoken.free();
    encoders.simd.dispose();
    encoders.fallback.dispose();
  }

  // ---- BPE training (wasm SIMD128, vocab 8000, o200k pattern) against corpus size.
  const TRAIN_SIZES = [0.5e6, 1e6, 2e6, 4e6];
  const WANTED_MERGES = 8000 - 256;
  const trainingBytes = Buffer.from(englishCorpus({ bytes: 4.2e6 }).join('\n'), 'utf8');
  const trainRows = [];
  for (const size of TRAIN_SIZES) {
    const corpus = new Uint8Array(trainingBytes.subarray(0, size));
    const runs = size <= 1e6 ? MIN_RUNS : 3;
    const times = [];
    let merges = 0;
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      const tokenizer = await labs.simd.trainTokenizer(corpus, { vocabSize: 8000, pattern: 'o200k', progressInterval: 1 << 20 });
      times.push((performance.now() - start) / 1000);
      merges = tokenizer.merges.length;
      tokenizer.dispose();
    }
    let native = null;
    if (tool) {
      const result = spawnSync(tool, ['--train', '8000', '--pattern', 'o200k'], { input: corpus });
      native = Number(/ in ([\d.]+) s/.exec(result.stderr.toString())?.[1]);
    }
    trainRows.push({ size, seconds: median(times), runs, native, merges });
  }

  // ---- Tables.
  const peerNames = { tiktoken: 'tiktoken', jsTiktoken: 'js-tiktoken', gptTokenizer: 'gpt-tokenizer' };
  const fastestPeer = (row) => Object.keys(peerNames).reduce((best, p) => (row[p] < row[best] ? p : best), 'tiktoken');
  const misses = [];
  const encodeTable = encodeRows.map((r) => {
    const best = fastestPeer(r);
    const ratio = r[best] / r.simd;
    if (ratio < 3) misses.push(`encode ${r.name} ${r.label}: ${formatRatio(ratio)} ${peerNames[best]}`);
    return `| ${r.name} | ${r.label} | ${mbps(r.bytes, r.simd)} | ${mbps(r.bytes, r.fallback)} | ${r.native ? mbps(r.bytes, r.native) : '–'} | ` +
      `${mbps(r.bytes, r.tiktoken)} | ${mbps(r.bytes, r.jsTiktoken)} | ${mbps(r.bytes, r.gptTokenizer)} | **${formatRatio(ratio)}** (${peerNames[best]}) |`;
  });
  const initTable = initRows.map((r) => {
    const peers = Object.keys(peerNames).map((p) => r.init[p]);
    const bestPeer = Math.min(...peers);
    return `| ${r.name} | ${ms(r.init.oursTiktoken)} | ${ms(r.init.oursBinary)} | ` +
      `${r.nativeInit ? `${ms(r.nativeInit.tiktoken)} / ${ms(r.nativeInit.binary)}` : '–'} | ` +
      `${peers.map(ms).join(' | ')} | ${formatRatio(bestPeer / r.init.oursBinary)} |`;
  });
  const decodeTable = decodeRows.map((r) => {
    const best = fastestPeer(r);
    const ratio = r[best] / r.simd;
    if (ratio < 3) misses.push(`decode ${r.name}: ${formatRatio(ratio)} ${peerNames[best]}`);
    return `| ${r.name} | ${mbps(r.bytes, r.simd)} | ${mbps(r.bytes, r.fallback)} | ${mbps(r.bytes, r.tiktoken)} | ` +
      `${mbps(r.bytes, r.jsTiktoken)} | ${mbps(r.bytes, r.gptTokenizer)} | ${formatRatio(r[best] / r.simd)} (${peerNames[best]}) |`;
  });
  const cell = (c) => (c.skipped ? `> ${PEER_CAP_SECONDS} s (skipped; ~${c.skipped.toFixed(0)} s extrapolated)` : `${secondsText(c.seconds)}${c.once ? ' (1 run)' : ''}`);
  const longTable = [];
  for (const r of longRows) {
    LENGTHS.forEach((length, i) => {
      longTable.push(`| ${r.kind} × ${length / 1000}k | ${r.name} | ${Object.keys(r.cells).map((who) => cell(r.cells[who][i])).join(' | ')} |`);
    });
    const growth = (who) => {
      const [a, , c] = r.cells[who];
      return a.seconds && c.seconds ? (c.seconds / a.seconds).toFixed(1) : '–';
    };
    longTable.push(`| ${r.kind}: time(100k) / time(10k) (linear = 10) | | ${Object.keys(r.cells).map(growth).join(' | ')} |`);
    if (!(r.cells.simd[2].seconds / r.cells.simd[0].seconds < 20)) misses.push(`long ${r.kind}: ours grows ${growth('simd')}× from 10k to 100k`);
  }
  const trainTable = trainRows.map((r) =>
    `| ${(r.size / 1e6).toFixed(2)} | ${r.merges}${r.merges < WANTED_MERGES ? ' (pairs ran out)' : ''} | ${r.seconds.toFixed(3)} | ` +
    `${(r.seconds / (r.size / 1e6)).toFixed(3)} | ${r.runs} | ${r.native ? r.native.toFixed(3) : '–'} |`);
  const perMb = trainRows.map((r) => r.seconds / (r.size / 1e6));
  if (Math.max(...perMb) > 2 * Math.min(...perMb)) misses.push('training: s/MB varies more than 2× across sizes');

  const lines = [
    `Tokenizer, one node process (${process.version}); corpora from tests/reference/tokenizer_corpora.mjs: ` +
      `English ${(corpusBytes.English / 1e6).toFixed(2)} MB (${corpora.English.length} texts: licences + man pages), ` +
      `multilingual ${(corpusBytes.multilingual / 1e6).toFixed(2)} MB (${corpora.multilingual.length} translated man pages), ` +
      `encoded text by text with each library's default encode(). Medians of 7 runs (tests/bench/timing.mjs), ` +
      `native: embedlab_tokenize --time --repeat 7 (${tool ? tool.replace(/.*\/build\//, 'build/') : 'not built'}). ` +
      `gpt-tokenizer's merge cache is cleared before every run. Ratio = ours wasm SIMD128 / fastest npm peer (target ≥ 3×).`,
    '',
    '| vocabulary | corpus | ours wasm SIMD128 MB/s | ours wasm fallback | ours native | tiktoken | js-tiktoken | gpt-tokenizer | ours SIMD / fastest peer |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
    ...encodeTable,
    '',
    `Init, ms (median of ${MIN_RUNS}): ours = getTokenizer() parsing the .tiktoken file (already read) or loadTokenizer() of the ` +
      `binary form (tok.save({binary: true})); native = embedlab_tokenize's load time (.tiktoken / binary); peers = construction ` +
      `from their already-imported rank data (tiktoken: get_encoding; js-tiktoken: new Tiktoken(ranks); gpt-tokenizer: ` +
      `GptEncoding.getEncodingApi).`,
    '',
    '| vocabulary | ours .tiktoken | ours binary | ours native .tiktoken / binary | tiktoken | js-tiktoken | gpt-tokenizer | fastest peer / ours binary |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...initTable,
    '',
    'Decode to a string, MB/s of text, English corpus (ids from encode; tiktoken\'s bytes through TextDecoder).',
    '',
    '| vocabulary | ours wasm SIMD128 | ours wasm fallback | tiktoken | js-tiktoken | gpt-tokenizer | ours SIMD / fastest peer |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...decodeTable,
    '',
    `Long unbroken inputs (one pre-tokenizer piece), seconds per encode: median of 7 runs, or one run when a run takes > 0.5 s; ` +
      `a peer is skipped when a quadratic extrapolation from its previous length exceeds ${PEER_CAP_SECONDS} s.`,
    '',
    '| input | vocabulary | ours wasm SIMD128 | ours wasm fallback | tiktoken | js-tiktoken | gpt-tokenizer |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...longTable,
    '',
    'BPE training, lab.trainTokenizer (wasm SIMD128), vocabSize 8000, o200k pattern, on the first N MB of the English corpus; ' +
      'native: embedlab_tokenize --train (1 run). Linear time = constant s/MB.',
    '',
    '| corpus MB | merges | wasm seconds | s per MB | runs (median) | native seconds |',
    '|---:|---:|---:|---:|---:|---:|',
    ...trainTable,
    '',
    misses.length ? `Below the 3× target / not linear: ${misses.join('; ')}.` : 'Every row meets the 3× target; long inputs are linear.',
    '',
    `(${((performance.now() - started) / 1000).toFixed(0)} s)`,
  ];
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await benchTokenizer());
