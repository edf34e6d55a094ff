// Tokenizer benchmark, second part: long unbroken inputs (one pre-tokenizer piece: is encode linear?) and
// BPE training against corpus size. Same timing rules as tokenizer.mjs (CPU time, round-robin, median).
import { spawnSync } from 'node:child_process';

import { englishCorpus } from '../reference/tokenizer_corpora.mjs';
import { cpuTime, interleaved, MIN_RUNS, ROUNDS, secondsText } from './tokenizer_timing.mjs';
import { loadPeers, PEER_NAMES } from './tokenizer_peers.mjs';
import { formatRatio } from './timing.mjs';

const PEER_CAP_SECONDS = 4; // a peer's run predicted above this is not made
const LENGTHS = [10_000, 40_000, 100_000];
const PROBE = 2_500;

/** Rows of the long-input table and the misses (ours not linear). */
export async function benchLongInputs(labs, hfDir) {
  const rows = [];
  const misses = [];
  // "x" and spaces under cl100k; digits under r50k, whose pattern keeps a digit run whole (cl100k splits
  // digits in threes).
  for (const [kind, char, name] of [
    ['"x"', 'x', 'cl100k_base'],
    ['spaces', ' ', 'cl100k_base'],
    ['digits', '7', 'r50k_base'],
  ]) {
    const peers = await loadPeers(name, hfDir);
    const ours = { simd: await labs.simd.getTokenizer(name), fallback: await labs.fallback.getTokenizer(name) };
    const cells = { simd: [], fallback: [] };
    for (const length of LENGTHS) {
      const text = char.repeat(length);
      const times = await interleaved({
        simd: () => ours.simd.encode(text),
        fallback: () => ours.fallback.encode(text),
      });
      cells.simd.push({ seconds: times.simd });
      cells.fallback.push({ seconds: times.fallback });
    }
    for (const who of Object.keys(PEER_NAMES)) {
      const peer = peers[who];
      if (!peer) {
        cells[who] = LENGTHS.map(() => ({ unsupported: true }));
        continue;
      }
      const instance = peer.create();
      const run = (text) => {
        peer.clear(instance);
        peer.encode(instance, text);
      };
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
      peer.free(instance);
    }
    rows.push({ kind, name, cells });
    ours.simd.dispose();
    ours.fallback.dispose();
  }

  const cell = (c) => {
    if (c.unsupported) {
      return 'no such encoding';
    }
    if (c.skipped) {
      return `not run: ~${c.skipped.toFixed(0)} s (quadratic from ${secondsText(c.from.seconds)} at ${c.from.length / 1000}k)`;
    }
    return `${secondsText(c.seconds)}${c.once ? ' (1 run)' : ''}`;
  };
  const table = [];
  for (const r of rows) {
    LENGTHS.forEach((length, i) => {
      const measured = Object.keys(PEER_NAMES)
        .map((p) => r.cells[p][i].seconds)
        .filter(Boolean);
      const ratio = measured.length ? formatRatio(Math.min(...measured) / r.cells.simd[i].seconds) : 'no peer ran';
      const cells = Object.keys(r.cells).map((who) => cell(r.cells[who][i]));
      table.push(`| ${r.kind} × ${length / 1000}k | ${r.name} | ${cells.join(' | ')} | ${ratio} |`);
    });
    const growth = (who) => {
      const [a, , c] = r.cells[who];
      return a.seconds && c.seconds ? (c.seconds / a.seconds).toFixed(1) : '–';
    };
    table.push(
      `| ${r.kind}: time(100k) / time(10k) (linear = 10) | | ${Object.keys(r.cells).map(growth).join(' | ')} | |`,
    );
    if (!(r.cells.simd[2].seconds / r.cells.simd[0].seconds < 15)) {
      misses.push(`long ${r.kind}: ours grows ${growth('simd')}× from 10k to 100k`);
    }
  }
  const lines = [
    `Long unbroken inputs (one pre-tokenizer piece), CPU time per encode: median of ${ROUNDS} rounds, or one run ("1 run") ` +
      `when a run takes > 0.5 s; a peer's length is not run when a quadratic extrapolation from its previous time (a probe at ` +
      `${PROBE / 1000}k first) exceeds ${PEER_CAP_SECONDS} s.`,
    '',
    `| input | vocabulary | ours wasm SIMD128 | ours wasm fallback | ${Object.values(PEER_NAMES).join(' | ')} | fastest measured peer / ours SIMD |`,
    `|---|---|---:|---:|${Object.keys(PEER_NAMES)
      .map(() => '---:|')
      .join('')}---:|`,
    ...table,
  ];
  return { lines, misses };
}

/** BPE training (wasm SIMD128, vocab 8000, o200k pattern) against corpus size: table lines and misses. */
export async function benchTraining(lab, tool) {
  const TRAIN_SIZES = [0.5e6, 1e6, 2e6, 4e6];
  const WANTED_MERGES = 8000 - 256;
  const trainingBytes = Buffer.from(englishCorpus({ bytes: 4.2e6 }).join('\n'), 'utf8');
  const rows = [];
  const misses = [];
  for (const size of TRAIN_SIZES) {
    const corpus = new Uint8Array(trainingBytes.subarray(0, size));
    let merges = 0;
    const train = async () => {
      const tokenizer = await lab.trainTokenizer(corpus, {
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
    rows.push({ size, seconds, runs: MIN_RUNS, native, merges });
  }
  // Each size doubles the last: linear time costs 2× per doubling plus less (fixed costs), quadratic 4×.
  rows.slice(1).forEach((r, i) => {
    const growth = r.seconds / rows[i].seconds;
    if (growth > 2.5) {
      misses.push(
        `training: ${(rows[i].size / 1e6).toFixed(1)} → ${(r.size / 1e6).toFixed(1)} MB costs ${growth.toFixed(2)}×`,
      );
    }
  });
  const lines = [
    `BPE training, lab.trainTokenizer (wasm SIMD128, CPU time, median of ${MIN_RUNS}), vocabSize 8000, o200k pattern, on the ` +
      'first N MB of an English corpus (licences + man pages); native: embedlab_tokenize --train (1 run, wall). Each size doubles the one ' +
      'before: linear time costs at most ~2× per doubling (less while fixed costs weigh), quadratic 4×; the check allows 2.5×.',
    '',
    '| corpus MB | merges | wasm seconds | s per MB | runs (median) | native seconds |',
    '|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${(r.size / 1e6).toFixed(2)} | ${r.merges}${r.merges < WANTED_MERGES ? ' (pairs ran out)' : ''} | ${r.seconds.toFixed(3)} | ` +
        `${(r.seconds / (r.size / 1e6)).toFixed(3)} | ${r.runs} | ${r.native ? r.native.toFixed(3) : '–'} |`,
    ),
  ];
  return { lines, misses };
}
