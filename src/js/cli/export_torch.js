// `embedlab export-torch MODEL.safetensors -o DIR`: the model with the PyTorch module and DDP training script
// that continue it (dist/torch/, shipped in the package), so a model goes page -> PyTorch -> page.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { UsageError } from './usage_error.js';

export const TORCH_FILES = [
  'embedlab_gpt.py',
  'embedlab_rope_scaling.py',
  'embedlab_t5_bias.py',
  'train.py',
  'README.md',
];

export async function exportTorch(lab, values, files) {
  if (files.length !== 1) {
    throw new UsageError(`export-torch needs one MODEL.safetensors, got ${files.length} files`, 'export-torch');
  }
  if (!values.output) {
    throw new UsageError('export-torch needs -o DIR', 'export-torch');
  }
  // An earlier export's train.py may have written trained weights over model.safetensors: never replace it unasked.
  const existing = ['model.safetensors', ...TORCH_FILES].filter((name) => existsSync(join(values.output, name)));
  if (existing.length > 0 && !values.force) {
    throw new UsageError(
      `${values.output} already has ${existing.join(', ')}: pass --force to overwrite them, or -o another folder`,
      'export-torch',
    );
  }
  const bytes = readFileSync(files[0]);
  // Loading it first refuses, with the core's message, a file that is not an embedlab model.
  const model = lab.loadModel(new Uint8Array(bytes));
  const { vocabSize, positions } = model.config;
  const step = model.step;
  model.dispose();
  mkdirSync(values.output, { recursive: true });
  for (const name of TORCH_FILES) {
    copyFileSync(fileURLToPath(new URL(`../torch/${name}`, import.meta.url)), join(values.output, name));
  }
  writeFileSync(join(values.output, 'model.safetensors'), bytes);
  const written = ['model.safetensors', ...TORCH_FILES].map((name) => join(values.output, name));
  process.stderr.write(
    `exported a ${positions} model at step ${step}: ${written.join(', ')}\n` +
      `next: npx embedlab tokenize --format bin --encoding NAME corpus.txt > ids.bin  (ids below ${vocabSize})\n` +
      `      python3 ${join(values.output, 'train.py')} --data ids.bin --steps 100 --processes 2 --out trained.safetensors\n`,
  );
}
