// GloVe (lab.trainWordVectors): co-occurrence counting and training epochs on the Brown excerpt
// (build/corpus/brown.txt, from scripts/build-corpus.mjs) tokenized by a 1024-token BPE vocabulary trained on it,
// window 10, dim 50: the wasm SIMD128 and fallback modules, and natively build/native/embedlab_glove_bench (every
// Highway target of this CPU) on the same ids. CPU time of the process, not wall time (the machine is shared).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import createEmbedLab from '../../dist/index.js';

const EPOCHS = 4;
const DIM = 50;
const WINDOW = 10;

const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};
const path = (relative) => fileURLToPath(new URL(relative, import.meta.url));

async function brownIds() {
  const lab = await createEmbedLab();
  const text = readFileSync(path('../../build/corpus/brown.txt'), 'utf8');
  const tokenizer = await lab.trainTokenizer(text, { vocabSize: 1024 });
  const ids = Int32Array.from(tokenizer.encode(text));
  tokenizer.dispose();
  return ids;
}

async function wasmRow(simd, ids) {
  const lab = await createEmbedLab({ simd });
  const options = { ids, vocabSize: 1024, dim: DIM, window: WINDOW };
  await lab.trainWordVectors({ ...options, epochs: 0 }); // warm-up: compiles the code paths
  let start = cpuSeconds();
  const counted = await lab.trainWordVectors({ ...options, epochs: 0 });
  const countSeconds = cpuSeconds() - start;
  // Each epoch from the report of the one before (the first from the end of counting, not measurable here: skipped).
  const marks = [];
  const trained = await lab.trainWordVectors({
    ...options,
    epochs: EPOCHS,
    onProgress: () => marks.push(cpuSeconds()),
  });
  const epochs = marks.slice(1).map((mark, k) => mark - marks[k]);
  return {
    target: `wasm ${lab.simdTarget}`,
    tokens: ids.length,
    pairs: counted.cooccurrences.values.length,
    countSeconds,
    epochSeconds: epochs.reduce((a, b) => a + b) / epochs.length,
    lastLoss: trained.losses.at(-1),
  };
}

function nativeRows(ids) {
  const bench = path('../../build/native/embedlab_glove_bench');
  if (!existsSync(bench)) {
    return [];
  }
  mkdirSync(path('../../build/bench/'), { recursive: true });
  const file = path('../../build/bench/brown_ids_1024.bin');
  writeFileSync(file, new Uint8Array(ids.buffer, ids.byteOffset, ids.byteLength));
  const output = execFileSync(bench, [file, '1024', String(DIM), String(EPOCHS), String(WINDOW)], { encoding: 'utf8' });
  return output
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .map((row) => ({ ...row, target: `native ${row.target}` }));
}

export async function benchGlove() {
  const ids = await brownIds();
  const rows = [await wasmRow(true, ids), await wasmRow(false, ids), ...nativeRows(ids)];
  const millions = (count, seconds) => (count / seconds / 1e6).toFixed(1);
  const lines = [
    `lab.trainWordVectors on the Brown excerpt: ${ids.length} tokens of a 1024-token BPE vocabulary trained on it, ` +
      `window ${WINDOW} (${rows[0].pairs} nonzero co-occurrences), dim ${DIM}, ${EPOCHS} epochs; CPU seconds. ` +
      `An epoch includes its loss pass over every pair; wasm: the mean of epochs 2 to ${EPOCHS}, native: of all.`,
    '',
    '| build | count s | count Mtokens/s | epoch s | epoch Mpairs/s | epoch Mtokens/s | J after the last epoch |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.target} | ${row.countSeconds.toFixed(3)} | ${millions(row.tokens, row.countSeconds)} | ` +
        `${row.epochSeconds.toFixed(3)} | ${millions(row.pairs, row.epochSeconds)} | ` +
        `${millions(row.tokens, row.epochSeconds)} | ${row.lastLoss.toPrecision(6)} |`,
    ),
  ];
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await benchGlove());
}
