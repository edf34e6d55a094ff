// createModel({positions: 'rope', ropeScaling}) and model.setRopeScaling through the package: the config
// echoes the scaling, the checkpoint records it under rope_scaling with transformers' key names and loads back,
// non-RoPE models refuse it, and the logits change exactly where the scaling says they should (PyTorch parity of
// the scaled model itself is in tests/cpp/model_parity_test.cc).
import assert from 'node:assert/strict';
import { before, test } from 'node:test';

import createEmbedLab from '../../dist/index.js';

let lab;
before(async () => {
  lab = await createEmbedLab();
});

const base = { vocabSize: 16, contextLength: 8, channels: 16, layers: 1, heads: 2, positions: 'rope', seed: 3 };
const sequence = (length) => [Array.from({ length }, (_, t) => (5 * t + 1) % 16)];
const logitsAt = (model, length) => model.logits({ ids: sequence(length) });
const batch = { ids: [[1, 2, 3, 4, 5, 6, 7, 8]], targets: [[2, 3, 4, 5, 6, 7, 8, 9]] };

// The safetensors header's __metadata__ (8-byte little-endian length, then JSON).
function metadataOf(bytes) {
  const length = Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(0, true));
  return JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + length))).__metadata__;
}

const SCALINGS = [
  [
    { type: 'linear', factor: 4 },
    { rope_type: 'linear', factor: 4 },
  ],
  [
    { type: 'ntk', factor: 2 },
    { rope_type: 'ntk', factor: 2 },
  ],
  [
    { type: 'dynamic', factor: 2, originalContextLength: 8 },
    { rope_type: 'dynamic', factor: 2, original_max_position_embeddings: 8 },
  ],
  [
    { type: 'yarn', factor: 4, originalContextLength: 8, betaFast: 32, betaSlow: 1, truncate: true },
    { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 8, beta_fast: 32, beta_slow: 1, truncate: true },
  ],
  [
    {
      type: 'yarn',
      factor: 4,
      originalContextLength: 8,
      betaFast: 16,
      betaSlow: 2,
      attentionFactor: 1.5,
      truncate: false,
    },
    {
      rope_type: 'yarn',
      factor: 4,
      original_max_position_embeddings: 8,
      beta_fast: 16,
      beta_slow: 2,
      attention_factor: 1.5,
      truncate: false,
    },
  ],
  [
    { type: 'llama3', factor: 8, originalContextLength: 8, lowFrequencyFactor: 1, highFrequencyFactor: 4 },
    { rope_type: 'llama3', factor: 8, original_max_position_embeddings: 8, low_freq_factor: 1, high_freq_factor: 4 },
  ],
];

test('the config echoes ropeScaling, the checkpoint records it with HF keys, and it loads back', () => {
  const plain = lab.createModel(base);
  assert.deepEqual(plain.config.ropeScaling, { type: 'none' });
  assert.equal('rope_scaling' in metadataOf(plain.save()), false);
  for (const [scaling, hf] of SCALINGS) {
    const model = lab.createModel({ ...base, ropeScaling: scaling });
    assert.deepEqual(model.config.ropeScaling, scaling);
    const bytes = model.save();
    assert.deepEqual(JSON.parse(metadataOf(bytes).rope_scaling), hf);
    const loaded = lab.loadModel(bytes);
    assert.deepEqual(loaded.config.ropeScaling, scaling);
    assert.deepEqual(logitsAt(loaded, 24), logitsAt(model, 24));
    // A scaled model reads a long sequence differently from the unscaled one with the same weights.
    assert.notDeepEqual(logitsAt(model, 24), logitsAt(plain, 24), JSON.stringify(scaling));
    for (const m of [model, loaded]) {
      m.dispose();
    }
  }
  plain.dispose();
});

test('dynamic NTK leaves sequences up to originalContextLength as they were and rescales longer ones', () => {
  const plain = lab.createModel(base);
  const dynamic = lab.createModel({ ...base, ropeScaling: { type: 'dynamic', factor: 4, originalContextLength: 8 } });
  assert.deepEqual(logitsAt(dynamic, 8), logitsAt(plain, 8));
  // Recomputed for every forward: a long one in between does not change a short one after it.
  assert.notDeepEqual(logitsAt(dynamic, 20), logitsAt(plain, 20));
  assert.deepEqual(logitsAt(dynamic, 5), logitsAt(plain, 5));
  plain.dispose();
  dynamic.dispose();
});

test('setRopeScaling extends a trained model zero-shot, training goes on, and none restores it', () => {
  const model = lab.createModel(base);
  for (let step = 0; step < 5; step++) {
    model.trainStep(batch);
  }
  const before = logitsAt(model, 32);
  model.setRopeScaling({ type: 'yarn', factor: 4, originalContextLength: 8 });
  assert.deepEqual(model.config.ropeScaling, {
    type: 'yarn',
    factor: 4,
    originalContextLength: 8,
    betaFast: 32,
    betaSlow: 1,
    truncate: true,
  });
  assert.notDeepEqual(logitsAt(model, 32), before);
  const saved = model.save();
  model.setRopeScaling({ type: 'none' });
  assert.deepEqual(logitsAt(model, 32), before); // weights untouched
  // The step count and optimizer state survive; training continues under the new scaling.
  const loaded = lab.loadModel(saved);
  assert.equal(loaded.step, 5);
  assert.ok(Number.isFinite(loaded.trainStep(batch).loss));
  assert.equal(loaded.config.ropeScaling.type, 'yarn');
  // Linear with factor 1 is the identity.
  model.setRopeScaling({ type: 'linear', factor: 1 });
  assert.deepEqual(logitsAt(model, 32), before);
  model.dispose();
  loaded.dispose();
});

test('non-RoPE models refuse a scaling; bad scalings name the field and its range', () => {
  assert.throws(
    () => lab.createModel({ ...base, positions: 'learned', ropeScaling: { type: 'linear', factor: 2 } }),
    /config\.ropeScaling needs config\.positions 'rope', got config\.positions 'learned'/,
  );
  const alibi = lab.createModel({ ...base, positions: 'alibi' });
  assert.throws(
    () => alibi.setRopeScaling({ type: 'none' }),
    /setRopeScaling needs a model with positions 'rope', this one has 'alibi'/,
  );
  alibi.dispose();
  assert.throws(
    () => lab.createModel({ ...base, ropeScaling: { type: 'yarn', factor: 2 } }),
    /config\.ropeScaling\.originalContextLength must be an integer in \[1, 65536\], got 0/,
  );
  assert.throws(
    () => lab.createModel({ ...base, ropeScaling: { type: 'linear', factor: 0 } }),
    /config\.ropeScaling\.factor must be a finite number in \[1, 1000000\]/,
  );
  assert.throws(
    () => lab.createModel({ ...base, channels: 4, heads: 2, ropeScaling: { type: 'ntk', factor: 2 } }),
    /config\.channels \/ config\.heads must be >= 4, got 2/,
  );
  const model = lab.createModel(base);
  assert.throws(
    () => model.setRopeScaling({ type: 'turbo' }),
    /scaling.type must be one of none, linear, ntk, dynamic, yarn, llama3/,
  );
  assert.throws(
    () => model.setRopeScaling({ type: 'ntk', factor: -1 }),
    /scaling.factor must be a finite number in \[1, 1000000\]/,
  );
  assert.deepEqual(model.config.ropeScaling, { type: 'none' }); // a refused scaling changes nothing
  model.dispose();
});
