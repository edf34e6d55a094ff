// The tiny GPT through the package: same seed, same losses natively and in wasm; checkpoints resume bit for
// bit; safetensors files are read by parts; position embeddings per scheme.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import createEmbedLab from '../../dist/index.js';

const native = JSON.parse(
  execFileSync(fileURLToPath(new URL('../../build/native/embedlab_reference_dump', import.meta.url)), {
    encoding: 'utf8',
  }),
);
const SCHEMES = ['learned', 'sinusoidal', 'rope', 'alibi', 't5', 'none'];

// The batch tests/reference/reference_dump.cc trains on at `step`.
function batchAt(step, batch = 4, length = 8, vocab = 32) {
  const ids = [],
    targets = [];
  for (let b = 0; b < batch; b++) {
    ids.push(Array.from({ length }, (_, t) => (7 * b + 3 * t + step) % vocab));
    targets.push(Array.from({ length }, (_, t) => (7 * b + 3 * (t + 1) + step) % vocab));
  }
  return { ids, targets };
}

const config = (positions) => ({
  vocabSize: 32,
  contextLength: 8,
  channels: 16,
  layers: 2,
  heads: 2,
  positions,
  ...(positions === 't5' ? { t5NumBuckets: 4, t5MaxDistance: 5 } : {}), // as reference_dump.cc: log-spaced buckets
  seed: 11,
  optimizer: { learningRate: 3e-3 },
});

const handles = [];
after(() => handles.forEach((handle) => handle.dispose()));

for (const simd of [true, false]) {
  test(`wasm ${simd ? 'SIMD128' : 'fallback'}: the first 20 losses of every scheme match native ${native.target} within 1e-5`, async () => {
    const lab = await createEmbedLab({ simd });
    for (const positions of SCHEMES) {
      const model = lab.createModel(config(positions));
      handles.push(model);
      // Same seed, same initial weights, bit for bit (the init uses only the project PRNG).
      if (positions === 'learned') {
        assert.deepEqual(model.tokenEmbeddings(), Float32Array.from(native.modelInitialTokenEmbeddings));
      }
      const losses = Array.from({ length: 20 }, (_, step) => model.trainStep(batchAt(step)).loss);
      const worst = Math.max(...losses.map((loss, i) => Math.abs(loss - native.modelLosses[positions][i])));
      assert.ok(worst <= 1e-5, `${positions}: max |wasm - native| = ${worst}`);
      assert.ok(losses[19] < losses[0], `${positions}: the loss goes down`);
    }
  });
}

let lab;
before(async () => {
  lab = await createEmbedLab();
});

test('a saved model resumes bit for bit, optimizer state included', () => {
  for (const positions of SCHEMES) {
    const model = lab.createModel(config(positions));
    handles.push(model);
    for (let step = 0; step < 5; step++) {
      model.trainStep(batchAt(step));
    }
    const resumed = lab.loadModel(model.save());
    handles.push(resumed);
    assert.equal(resumed.step, 5);
    assert.deepEqual(resumed.config, model.config);
    for (let step = 5; step < 10; step++) {
      assert.equal(
        resumed.trainStep(batchAt(step)).loss,
        model.trainStep(batchAt(step)).loss,
        `${positions} step ${step}`,
      );
    }
  }
});

test('position embeddings: wpe rows for learned, sinusoids for sinusoidal, none for rope/alibi/none', () => {
  const learned = lab.createModel(config('learned'));
  const sinusoidal = lab.createModel({ ...config('sinusoidal'), channels: 8, heads: 2 });
  const rope = lab.createModel(config('rope'));
  handles.push(learned, sinusoidal, rope);
  assert.equal(learned.positionEmbeddings().length, 8 * 16);
  assert.throws(() => learned.positionEmbeddings(9), /9/); // the learned table ends at contextLength
  const table = sinusoidal.positionEmbeddings(20);
  for (let pos = 0; pos < 20; pos++) {
    for (let i = 0; i < 8; i++) {
      const angle = pos / Math.pow(10000, (2 * Math.floor(i / 2)) / 8);
      assert.ok(Math.abs(table[pos * 8 + i] - (i % 2 ? Math.cos(angle) : Math.sin(angle))) <= 5e-7);
    }
  }
  assert.equal(rope.positionEmbeddings(), null);
  assert.equal(rope.maxLength, 65536);
  assert.equal(rope.logits({ ids: [Array.from({ length: 32 }, (_, t) => t % 32)] }).length, 32 * 32); // past contextLength
});

test('readSafetensors reads the header and then only the tensor asked for', async () => {
  const model = lab.createModel(config('learned'));
  handles.push(model);
  const bytes = model.save();
  const ranges = [];
  const blob = new Blob([bytes]);
  const counting = { size: blob.size, slice: (start, end) => (ranges.push([start, end]), blob.slice(start, end)) };
  const file = await lab.readSafetensors(counting);
  handles.push(file);
  const headerRead = ranges.reduce((sum, [start, end]) => sum + end - start, 0);
  const wpe = file.tensors.find((tensor) => tensor.name === 'wpe.weight');
  assert.deepEqual(wpe.shape, [8, 16]);
  const values = await file.get('wpe.weight');
  assert.deepEqual(ranges.at(-1), [wpe.offset, wpe.offset + wpe.byteLength]);
  assert.equal(ranges.length, 3);
  assert.ok(headerRead < bytes.length / 4, `header reads ${headerRead} of ${bytes.length} bytes`);
  assert.deepEqual(values, model.positionEmbeddings());
  assert.equal(file.metadata.positions, 'learned');
});

test('bad model input: clear errors, and the model still trains', () => {
  const model = lab.createModel(config('learned'));
  handles.push(model);
  assert.throws(() => lab.createModel({ vocabSize: 32, channels: 15, heads: 2 }), {
    name: 'RangeError',
    message: /config\.channels \(15\) must be a multiple of config\.heads \(2\)/,
  });
  assert.throws(() => lab.createModel({ vocabSize: 32, positions: 'absolute' }), {
    name: 'TypeError',
    message: /config\.positions must be one of learned, sinusoidal, rope, alibi, t5, none/,
  });
  assert.throws(() => lab.createModel({ vocabSize: 0 }), {
    name: 'RangeError',
    message: /config\.vocabSize must be an integer in \[1, 2097152\], got 0/,
  });
  assert.throws(() => model.trainStep({ ids: [[1, 2]] }), { name: 'TypeError', message: /batch\.targets is required/ });
  assert.throws(() => model.trainStep({ ids: [[1, 40]], targets: [[1, 2]] }), {
    name: 'RangeError',
    message: /\[0, 31\], got 40/,
  });
  assert.throws(() => model.trainStep({ ids: [Array(9).fill(1)], targets: [Array(9).fill(1)] }), {
    name: 'RangeError',
    message: /8/,
  });
  assert.throws(() => lab.loadModel(new Uint8Array(16)), /safetensors/);
  const bytes = model.save();
  bytes[bytes.length - 1] ^= 0xff; // a tampered tensor byte still parses; a truncated file must not
  assert.throws(() => lab.loadModel(bytes.subarray(0, bytes.length - 3)), { name: 'RangeError' });
  assert.ok(Number.isFinite(model.trainStep(batchAt(0)).loss));
});
