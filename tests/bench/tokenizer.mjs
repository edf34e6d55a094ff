// Tokenizer benchmark: ours (the wasm package, SIMD128 and fallback, and the native build through
// embedlab_tokenize --time) against npm tiktoken (Rust→wasm), js-tiktoken and gpt-tokenizer (merge cache
// cleared before every run), all in this one node process on the same corpora
// (tests/reference/tokenizer_corpora.mjs).
// Timing: process CPU time (process.cpuUsage), since on the shared machine wall time counts waiting for a
// core; the contenders of a row run round-robin, one run each per round, 7 rounds, and each reports its
// median, so that load changes fall on all of them alike. A run repeats the work until it takes ≥ 20 ms.
//   node tests/bench/tokenizer.mjs            (or: node tests/bench/run.mjs Tokenizer)
//   TOKENIZER_BENCH_MB=0.25 for a quicker run (corpus MB per language group; default 0.5)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { GptEncoding } from 'gpt-tokenizer/GptEncoding';
import { Tiktoken as JsTiktoken } from 'js-tiktoken/lite';
import { get_encoding } from 'tiktoken';

import createEmbedLab from '../../dist/index.js';
import { englishCorpus, gptTokenizerDataDir, multilingualCorpus, utf8Bytes } from '../reference/tokenizer_corpora.mjs';
import { formatRatio, median } from './timing.mjs';

const path = (relative) => fileURLToPath(new URL(relative, import.meta.url));
const ENCODINGS = ['r50k_base', 'p50k_base', 'cl100k_base', 'o200k_base'];
const PEER_CAP_SECONDS = 4; // long inputs: a peer's run predicted above this is not made
const ROUNDS = 7;
const MIN_RUNS = 5;

const mb = Number(process.env.TOKENIZER_BENCH_MB ?? 0.5);
const mbps = (bytes, seconds) => (bytes / seconds / 1e6).toFixed(1);
const ms = (seconds) => (seconds * 1e3 < 10 ? (seconds * 1e3).toFixed(2) : (seconds * 1e3).toFixed(0));
const secondsText = (seconds) => (seconds < 1 ? `${ms(seconds)} ms` : `${seconds.toFixed(2)} s`);
const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/** CPU seconds of `count` calls of `fn` (which may return a promise). */
async function cpuTime(fn, count = 1) {
  const start = cpuSeconds();
  for (let i = 0; i < count; i++) {
    await fn();
  }
  return cpuSeconds() - start;
}

/**
 * Median CPU seconds per call of each function of `fns` ({label: fn}), measured round-robin: `rounds`
 * rounds, one run of each per round; a run repeats fn until it takes ≥ 20 ms.
 */
async function interleaved(fns, rounds = ROUNDS) {
  const entries = Object.entries(fns);
  const counts = {};
  for (const [label, fn] of entries) {
    let count = 1;
    while ((await cpuTime(fn, count)) < 0.02 && count < 1 << 20) {
      count *= 2;
    }
    counts[label] = count;
  }
  const times = Object.fromEntries(entries.map(([label]) => [label, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [label, fn] of entries) {
      times[label].push((await cpuTime(fn, counts[label])) / counts[label]);
    }
  }
  return Object.fromEntries(entries.map(([label]) => [label, median(times[label])]));
}

function nativeTool() {
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
  const seconds = Number(/ in ([\d.]+) s \(median/.exec(stderr)?.[1]);
  const bytes = Number(/encoded (\d+) bytes/.exec(stderr)?.[1]);
  return { load, seconds, bytes };
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

async function loadPeers(name) {
  const bpe = (await import(`gpt-tokenizer/bpeRanks/${name}`)).default;
  const jsRanks = (await import(`js-tiktoken/ranks/${name}`)).default;
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
    English: englishCorpus({ bytes: Math.max(0, mb - 0.26) * 1e6 }), // licences (0.26 MB) + man pages
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
        for (const text of corpora.English) {
          encoder.decode(encoder.encode(text));
        }
        encoder.clearMergeCache?.();
      }
    }
    tiktoken.free();
    for (const tokenizer of warm) {
      tokenizer.dispose();
    }
  }

  const encodeRows = [];
  const initRows = [];
  const decodeRows = [];
  for (const name of ENCODINGS) {
    const factories = await loadPeers(name);
    const ours = { simd: await labs.simd.getTokenizer(name), fallback: await labs.fallback.getTokenizer(name) };
    const peers = {
      tiktoken: factories.tiktoken(),
      jsTiktoken: factories.jsTiktoken(),
      gptTokenizer: factories.gptTokenizer(),
    };
    const vocabFile = `${gptTokenizerDataDir}/${name}.tiktoken`;
    const binaryFile = path(`../../build/bench/${name}.embedlab-bpe`);

    // ---- Init: ours from the binary vocabulary the package ships (getTokenizer; the file is read once
    // per process and cached) and from the .tiktoken bytes; the peers' construction from their
    // already-imported rank data.
    const tiktokenBytes = readFileSync(vocabFile);
    const init = await interleaved(
      {
        oursShipped: async () => (await labs.simd.getTokenizer(name)).dispose(),
        oursTiktoken: () => labs.simd.tokenizerFromVocabulary({ tiktoken: tiktokenBytes, encoding: name }).dispose(),
        tiktoken: () => factories.tiktoken().free(),
        jsTiktoken: () => factories.jsTiktoken(),
        gptTokenizer: () => factories.gptTokenizer(),
      },
      MIN_RUNS,
    );
    let nativeInit = null;
    if (tool) {
      execFileSync(tool, ['--vocab', vocabFile, '--encoding', name, '--save-binary', binaryFile], { stdio: 'pipe' });
      nativeInit = {
        tiktoken: median(
          Array.from(
            { length: MIN_RUNS },
            () => runNative(tool, ['--vocab', vocabFile, '--encoding', name, '--whole'], 'x').load,
          ),
        ),
        binary: median(
          Array.from({ length: MIN_RUNS }, () => runNative(tool, ['--tokenizer', binaryFile, '--whole'], 'x').load),
        ),
      };
    }
    initRows.push({ name, init, nativeInit });

    // ---- Encode, text by text (documents as they come), default special-token rules for everyone.
    for (const [label, texts] of Object.entries(corpora)) {
      const bytes = corpusBytes[label];
      const encodeAll = (encode) => () => {
        for (const text of texts) {
          encode(text);
        }
      };
      const gpt = peers.gptTokenizer;
      const row = {
        name,
        label,
        bytes,
        ...(await interleaved({
          simd: encodeAll((t) => ours.simd.encode(t)),
          fallback: encodeAll((t) => ours.fallback.encode(t)),
          tiktoken: encodeAll((t) => peers.tiktoken.encode(t)),
          jsTiktoken: encodeAll((t) => peers.jsTiktoken.encode(t)),
          gptTokenizer: () => {
            gpt.clearMergeCache();
            for (const text of texts) {
              gpt.encode(text);
            }
          },
        })),
      };
      if (tool) {
        const input = texts.map((t) => Buffer.from(t, 'utf8').toString('base64')).join('\n') + '\n';
        const args = ['--vocab', vocabFile, '--encoding', name, '--base64-lines'];
        const native = runNative(tool, args, input);
        if (native.bytes !== bytes) {
          throw new Error(`native encoded ${native.bytes} bytes, not ${bytes}`);
        }
        row.native = nativeCpuPass(tool, args, input);
      }
      encodeRows.push(row);
    }

    // ---- Decode ids back to a string (tiktoken returns bytes: TextDecoder included), English corpus.
    {
      const texts = corpora.English;
      const ids = texts.map((t) => ours.simd.encode(t));
      const idArrays = ids.map((a) => Array.from(a));
      const utf8 = new TextDecoder();
      // Each result is read once (charCodeAt), which makes V8 flatten a rope: gpt-tokenizer builds its
      // string with += per token, and a rope defers about half of its decoding cost to the first read.
      // For the flat strings the others return, the read is O(1).
      // eslint-disable-next-line no-unused-vars -- a sink, so that V8 cannot drop the reads
      let checksum = 0;
      const decodeAll =
        (decode, list = ids) =>
        () => {
          for (const item of list) {
            const text = decode(item);
            checksum += text.charCodeAt(text.length >> 1);
          }
        };
      decodeRows.push({
        name,
        bytes: corpusBytes.English,
        ...(await interleaved({
          simd: decodeAll((x) => ours.simd.decode(x)),
          fallback: decodeAll((x) => ours.fallback.decode(x)),
          tiktoken: decodeAll((x) => utf8.decode(peers.tiktoken.decode(x))),
          jsTiktoken: decodeAll((x) => peers.jsTiktoken.decode(x), idArrays),
          gptTokenizer: decodeAll((x) => peers.gptTokenizer.decode(x), idArrays),
        })),
      });
    }
    peers.tiktoken.free();
    ours.simd.dispose();
    ours.fallback.dispose();
  }

  // ---- Cold start in a fresh node process: wall ms from the first import to a first encode, round-robin.
  const coldRows = [];
  const root = path('../..');
  const distUrl = new URL('../../dist/index.js', import.meta.url).href;
  for (const name of ['cl100k_base', 'o200k_base']) {
    const prelude = 'const t0 = performance.now();';
    const report = 'process.stdout.write(String(performance.now() - t0));';
    const scripts = {
      ours:
        `${prelude} const lab = await (await import(${JSON.stringify(distUrl)})).default({ simd: true }); ` +
        `(await lab.getTokenizer('${name}')).encode('hello world'); ${report}`,
      tiktoken: `${prelude} (await import('tiktoken')).get_encoding('${name}').encode('hello world'); ${report}`,
      jsTiktoken:
        `${prelude} const { Tiktoken } = await import('js-tiktoken/lite'); ` +
        `new Tiktoken((await import('js-tiktoken/ranks/${name}')).default).encode('hello world'); ${report}`,
      gptTokenizer: `${prelude} (await import('gpt-tokenizer/encoding/${name}')).encode('hello world'); ${report}`,
    };
    const times = Object.fromEntries(Object.keys(scripts).map((k) => [k, []]));
    for (let round = 0; round < MIN_RUNS; round++) {
      for (const [who, script] of Object.entries(scripts)) {
        const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
          cwd: root,
          encoding: 'utf8',
        });
        times[who].push(Number(out) / 1e3);
      }
    }
    coldRows.push({ name, ...Object.fromEntries(Object.entries(times).map(([who, list]) => [who, median(list)])) });
  }

  // ---- Long unbroken inputs: one pre-tokenizer piece each ("x" and spaces under cl100k; digits under
  // r50k, whose pattern keeps a digit run whole: cl100k splits digits in threes).
  const longRows = [];
  const LENGTHS = [10_000, 40_000, 100_000];
  const PROBE = 2_500;
  for (const [kind, char, name] of [
    ['"x"', 'x', 'cl100k_base'],
    ['spaces', ' ', 'cl100k_base'],
    ['digits', '7', 'r50k_base'],
  ]) {
    const factories = await loadPeers(name);
    const encoders = {
      simd: await labs.simd.getTokenizer(name),
      fallback: await labs.fallback.getTokenizer(name),
    };
    const tiktoken = factories.tiktoken();
    const jsTiktoken = factories.jsTiktoken();
    const gpt = factories.gptTokenizer();
    const peerRunners = {
      tiktoken: (text) => tiktoken.encode(text),
      jsTiktoken: (text) => jsTiktoken.encode(text),
      gptTokenizer: (text) => {
        gpt.clearMergeCache();
        gpt.encode(text);
      },
    };
    const cells = { simd: [], fallback: [] };
    for (const length of LENGTHS) {
      const text = char.repeat(length);
      const times = await interleaved({
        simd: () => encoders.simd.encode(text),
        fallback: () => encoders.fallback.encode(text),
      });
      cells.simd.push({ seconds: times.simd });
      cells.fallback.push({ seconds: times.fallback });
    }
    for (const [who, run] of Object.entries(peerRunners)) {
      cells[who] = [];
      // One probe run at 2.5k characters, then: a length whose quadratic extrapolation from the last time
      // exceeds PEER_CAP_SECONDS is not run; one that takes > 0.5 s is run once.
      let previous = { length: PROBE, seconds: await cpuTime(() => run(char.repeat(PROBE))) };
      for (const length of LENGTHS) {
        const text = char.repeat(length);
        const predicted = previous.seconds * (length / previous.length) ** 2;
        if (predicted > PEER_CAP_SECONDS) {
          cells[who].push({ skipped: predicted, from: previous });
          continue;
        }
        const first = await cpuTime(() => run(text));
        const seconds = first > 0.5 ? first : (await interleaved({ run: () => run(text) })).run;
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
    let merges = 0;
    const train = async () => {
      const tokenizer = await labs.simd.trainTokenizer(corpus, {
        vocabSize: 8000,
        pattern: 'o200k',
        progressInterval: 1 << 20,
      });
      merges = tokenizer.merges.length;
      tokenizer.dispose();
    };
    const { seconds } = await interleaved({ seconds: train }, MIN_RUNS);
    let native = null;
    if (tool) {
      const result = spawnSync(tool, ['--train', '8000', '--pattern', 'o200k'], { input: corpus });
      native = Number(/ in ([\d.]+) s/.exec(result.stderr.toString())?.[1]);
    }
    trainRows.push({ size, seconds, runs: MIN_RUNS, native, merges });
  }

  // ---- Tables.
  const peerNames = { tiktoken: 'tiktoken', jsTiktoken: 'js-tiktoken', gptTokenizer: 'gpt-tokenizer' };
  const fastestPeer = (row) => Object.keys(peerNames).reduce((best, p) => (row[p] < row[best] ? p : best), 'tiktoken');
  const misses = [];
  const encodeTable = encodeRows.map((r) => {
    const best = fastestPeer(r);
    const ratio = r[best] / r.simd;
    if (ratio < 3) {
      misses.push(`encode ${r.name} ${r.label}: ${formatRatio(ratio)} ${peerNames[best]}`);
    }
    return (
      `| ${r.name} | ${r.label} | ${mbps(r.bytes, r.simd)} | ${mbps(r.bytes, r.fallback)} | ${r.native ? mbps(r.bytes, r.native) : '–'} | ` +
      `${mbps(r.bytes, r.tiktoken)} | ${mbps(r.bytes, r.jsTiktoken)} | ${mbps(r.bytes, r.gptTokenizer)} | **${formatRatio(ratio)}** (${peerNames[best]}) |`
    );
  });
  const initTable = initRows.map((r) => {
    const peers = Object.keys(peerNames).map((p) => r.init[p]);
    const bestPeer = Math.min(...peers);
    if (bestPeer / r.init.oursShipped < 3) {
      misses.push(`init ${r.name}: ${formatRatio(bestPeer / r.init.oursShipped)}`);
    }
    return (
      `| ${r.name} | ${ms(r.init.oursShipped)} | ${ms(r.init.oursTiktoken)} | ` +
      `${r.nativeInit ? `${ms(r.nativeInit.binary)} / ${ms(r.nativeInit.tiktoken)}` : '–'} | ` +
      `${peers.map(ms).join(' | ')} | **${formatRatio(bestPeer / r.init.oursShipped)}** / ${formatRatio(bestPeer / r.init.oursTiktoken)} |`
    );
  });
  const coldTable = coldRows.map((r) => {
    const bestPeer = Math.min(...Object.keys(peerNames).map((p) => r[p]));
    if (bestPeer / r.ours < 3) {
      misses.push(`cold start ${r.name}: ${formatRatio(bestPeer / r.ours)}`);
    }
    return `| ${r.name} | ${ms(r.ours)} | ${ms(r.tiktoken)} | ${ms(r.jsTiktoken)} | ${ms(r.gptTokenizer)} | **${formatRatio(bestPeer / r.ours)}** |`;
  });
  const decodeTable = decodeRows.map((r) => {
    const best = fastestPeer(r);
    const ratio = r[best] / r.simd;
    if (ratio < 3) {
      misses.push(`decode ${r.name}: ${formatRatio(ratio)} ${peerNames[best]}`);
    }
    return (
      `| ${r.name} | ${mbps(r.bytes, r.simd)} | ${mbps(r.bytes, r.fallback)} | ${mbps(r.bytes, r.tiktoken)} | ` +
      `${mbps(r.bytes, r.jsTiktoken)} | ${mbps(r.bytes, r.gptTokenizer)} | ${formatRatio(r[best] / r.simd)} (${peerNames[best]}) |`
    );
  });
  const cell = (c) =>
    c.skipped
      ? `not run: ~${c.skipped.toFixed(0)} s (quadratic from ${secondsText(c.from.seconds)} at ${c.from.length / 1000}k)`
      : `${secondsText(c.seconds)}${c.once ? ' (1 run)' : ''}`;
  const longTable = [];
  for (const r of longRows) {
    LENGTHS.forEach((length, i) => {
      const measured = Object.keys(peerNames)
        .map((p) => r.cells[p][i].seconds)
        .filter(Boolean);
      const ratio = measured.length ? formatRatio(Math.min(...measured) / r.cells.simd[i].seconds) : 'no peer ran';
      longTable.push(
        `| ${r.kind} × ${length / 1000}k | ${r.name} | ${Object.keys(r.cells)
          .map((who) => cell(r.cells[who][i]))
          .join(' | ')} | ${ratio} |`,
      );
    });
    const growth = (who) => {
      const [a, , c] = r.cells[who];
      return a.seconds && c.seconds ? (c.seconds / a.seconds).toFixed(1) : '–';
    };
    longTable.push(
      `| ${r.kind}: time(100k) / time(10k) (linear = 10) | | ${Object.keys(r.cells).map(growth).join(' | ')} | |`,
    );
    if (!(r.cells.simd[2].seconds / r.cells.simd[0].seconds < 15)) {
      misses.push(`long ${r.kind}: ours grows ${growth('simd')}× from 10k to 100k`);
    }
  }
  const trainTable = trainRows.map(
    (r) =>
      `| ${(r.size / 1e6).toFixed(2)} | ${r.merges}${r.merges < WANTED_MERGES ? ' (pairs ran out)' : ''} | ${r.seconds.toFixed(3)} | ` +
      `${(r.seconds / (r.size / 1e6)).toFixed(3)} | ${r.runs} | ${r.native ? r.native.toFixed(3) : '–'} |`,
  );
  // Each size doubles the last: linear time costs 2× per doubling plus less (fixed costs), quadratic 4×.
  trainRows.slice(1).forEach((r, i) => {
    const growth = r.seconds / trainRows[i].seconds;
    if (growth > 2.5) {
      misses.push(
        `training: ${(trainRows[i].size / 1e6).toFixed(1)} → ${(r.size / 1e6).toFixed(1)} MB costs ${growth.toFixed(2)}×`,
      );
    }
  });

  const lines = [
    `Tokenizer, one node process (${process.version}); corpora from tests/reference/tokenizer_corpora.mjs: ` +
      `English ${(corpusBytes.English / 1e6).toFixed(2)} MB (${corpora.English.length} texts: licences + man pages), ` +
      `multilingual ${(corpusBytes.multilingual / 1e6).toFixed(2)} MB (${corpora.multilingual.length} translated man pages), ` +
      `encoded text by text with each library's default encode(). Process CPU time, contenders run round-robin, median of ` +
      `${ROUNDS} rounds; native: embedlab_tokenize in its own process, CPU time ` +
      `of one pass from --repeat 21 minus --repeat 1 (bash times), median of 3 ` +
      `(${tool ? tool.replace(/.*\/build\//, 'build/') : 'not built'}). gpt-tokenizer's merge cache is cleared before every ` +
      `run. Ratio = ours wasm SIMD128 speed / fastest npm peer's (target ≥ 3×).`,
    '',
    '| vocabulary | corpus | ours wasm SIMD128 MB/s | ours wasm fallback | ours native | tiktoken | js-tiktoken | gpt-tokenizer | ours SIMD / fastest peer |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
    ...encodeTable,
    '',
    `Init, CPU ms (round-robin, median of ${MIN_RUNS}): ours = getTokenizer(), which loads the binary vocabulary shipped in the package ` +
      `(the file already read), or tokenizerFromVocabulary() parsing the .tiktoken file; native = embedlab_tokenize's load time ` +
      `(binary / .tiktoken, wall, median of ${MIN_RUNS}); peers = construction ` +
      `from their already-imported rank data (tiktoken: get_encoding; js-tiktoken: new Tiktoken(ranks); gpt-tokenizer: ` +
      `GptEncoding.getEncodingApi).`,
    '',
    '| vocabulary | ours getTokenizer | ours from .tiktoken | ours native binary / .tiktoken | tiktoken | js-tiktoken | gpt-tokenizer | fastest peer / ours (getTokenizer / .tiktoken) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...initTable,
    '',
    `Cold start, wall ms in a fresh node process (median of ${MIN_RUNS}, round-robin): from the first import to the first ` +
      `encode; ours = the wasm package (SIMD128 module instantiated) and getTokenizer() (the binary vocabulary shipped in the ` +
      `package, read from disk); peers = their module import (rank data included) and construction.`,
    '',
    '| vocabulary | ours | tiktoken | js-tiktoken | gpt-tokenizer | fastest peer / ours |',
    '|---|---:|---:|---:|---:|---:|',
    ...coldTable,
    '',
    "Decode to a string, MB/s of text, English corpus, CPU time, round-robin (ids from encode; tiktoken's bytes through TextDecoder). " +
      'Every result is read once (one charCodeAt), so that a string built lazily as a rope (gpt-tokenizer concatenates token strings) ' +
      'is flattened inside the timing, as any real use of it would; for the flat strings of the others that read costs nothing.',
    '',
    '| vocabulary | ours wasm SIMD128 | ours wasm fallback | tiktoken | js-tiktoken | gpt-tokenizer | ours SIMD / fastest peer |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...decodeTable,
    '',
    `Long unbroken inputs (one pre-tokenizer piece), CPU time per encode: median of ${ROUNDS} rounds, or one run ("1 run") ` +
      `when a run takes > 0.5 s; a peer's length is not run when a quadratic extrapolation from its previous time (a probe at ` +
      `${PROBE / 1000}k first) exceeds ${PEER_CAP_SECONDS} s.`,
    '',
    '| input | vocabulary | ours wasm SIMD128 | ours wasm fallback | tiktoken | js-tiktoken | gpt-tokenizer | fastest measured peer / ours SIMD |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...longTable,
    '',
    `BPE training, lab.trainTokenizer (wasm SIMD128, CPU time, median of ${MIN_RUNS}), vocabSize 8000, o200k pattern, on the ` +
      'first N MB of an English corpus (licences + man pages); native: embedlab_tokenize --train (1 run, wall). Each size doubles the one ' +
      'before: linear time costs at most ~2× per doubling (less while fixed costs weigh), quadratic 4×; the check allows 2.5×.',
    '',
    '| corpus MB | merges | wasm seconds | s per MB | runs (median) | native seconds |',
    '|---:|---:|---:|---:|---:|---:|',
    ...trainTable,
    '',
    misses.length
      ? `Below the 3× target / not linear: ${misses.join('; ')}.`
      : 'Every row meets the 3× target; long inputs are linear.',
    '',
    `(${((performance.now() - started) / 1000).toFixed(0)} s)`,
  ];
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await benchTokenizer());
}
