// model.tensor(name) and model.setTensor(name, values): a model that starts from given token vectors (GloVe's from
// lab.trainWordVectors here), keeps them when wte is frozen and trains from them when it is not; the layout is
// save()'s; bad names, lengths and values are refused with the valid names or the shape, the model unchanged.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import createEmbedLab from '../../dist/index.js';

const config = { vocabSize: 24, contextLength: 8, channels: 8, layers: 1, heads: 2, seed: 4 };
const batch = { ids: [[1, 2, 3, 4, 5, 6, 7, 8]], targets: [[2, 3, 4, 5, 6, 7, 8, 9]] };

let lab;
const handles = [];
const keep = (handle) => (handles.push(handle), handle);
before(async () => {
  lab = await createEmbedLab();
});
after(() => handles.forEach((handle) => handle.dispose()));

async function gloveVectors() {
  const ids = Array.from({ length: 600 }, (_, i) => (i * 7 + (i >> 3)) % config.vocabSize);
  const { vectors } = await lab.trainWordVectors({ ids, vocabSize: config.vocabSize, dim: config.channels, epochs: 5 });
  return vectors;
}

test('setTensor puts GloVe vectors into wte; frozen they stay while the rest trains, thawed they train', async () => {
  const vectors = await gloveVectors();
  const frozen = keep(lab.createModel({ ...config, frozen: ['wte.weight'] }));
  frozen.setTensor('wte.weight', vectors);
  assert.deepEqual(frozen.tensor('wte.weight'), vectors);
  assert.deepEqual(frozen.tokenEmbeddings(), vectors);
  const wpe = frozen.tensor('wpe.weight');
  for (let step = 0; step < 5; step++) {
    frozen.trainStep(batch);
  }
  assert.deepEqual(frozen.tokenEmbeddings(), vectors);
  assert.notDeepEqual(frozen.tensor('wpe.weight'), wpe);

  const tuned = keep(lab.createModel(config));
  tuned.setTensor('wte.weight', Array.from(vectors));
  const before = tuned.logits({ ids: [[1, 2, 3]] });
  tuned.trainStep(batch);
  assert.notDeepEqual(tuned.tokenEmbeddings(), vectors);
  // It trained from the given table: a model given another table has other logits from the start.
  const other = keep(lab.createModel(config));
  assert.notDeepEqual(other.logits({ ids: [[1, 2, 3]] }), before);
  other.setTensor('wte.weight', vectors);
  assert.deepEqual(other.logits({ ids: [[1, 2, 3]] }), before);
});

test('every tensor reads back what it was given, and save() / loadModel keep it', async () => {
  const model = keep(lab.createModel(config));
  const names = ['wte.weight', 'wpe.weight', 'h.0.ln_1.weight', 'h.0.attn.c_attn.weight', 'h.0.mlp.c_proj.weight'];
  for (const name of names) {
    const size = model.tensor(name).length;
    const values = Float32Array.from({ length: size }, (_, i) => ((i % 13) - 6) / 16);
    model.setTensor(name, values);
    assert.deepEqual(model.tensor(name), values, name);
  }
  const loaded = keep(lab.loadModel(model.save()));
  for (const name of names) {
    assert.deepEqual(loaded.tensor(name), model.tensor(name), name);
  }
  // The checkpoint layout: c_attn as (in, out) = (channels, 3 · channels), as in the saved file.
  const file = keep(await lab.readSafetensors(model.save()));
  assert.deepEqual(file.tensors.find((t) => t.name === 'h.0.attn.c_attn.weight').shape, [8, 24]);
  assert.deepEqual(await file.get('h.0.attn.c_attn.weight'), model.tensor('h.0.attn.c_attn.weight'));
});

test('unknown names list the valid ones; wrong lengths state the shape; non-finite values are refused', () => {
  const model = keep(lab.createModel(config));
  const wte = model.tensor('wte.weight');
  assert.throws(() => model.setTensor('wte', wte), {
    name: 'TypeError',
    message: /^name: this model has no tensor "wte"; its tensors are wte\.weight, wpe\.weight, h\.0\.ln_1\.weight, /,
  });
  assert.throws(() => model.tensor('h.3.ln_1.weight'), { name: 'TypeError', message: /its tensors are wte\.weight/ });
  assert.throws(() => model.setTensor('wte.weight', new Float32Array(5)), {
    name: 'RangeError',
    message: 'values.length must be 192 (wte.weight has shape [24, 8]), got 5',
  });
  assert.throws(() => model.setTensor('h.0.attn.c_attn.weight', [1, 2]), {
    name: 'RangeError',
    message: 'values.length must be 192 (h.0.attn.c_attn.weight has shape [8, 24]), got 2',
  });
  const bad = Array.from(wte);
  bad[3] = NaN;
  assert.throws(() => model.setTensor('wte.weight', bad), {
    name: 'RangeError',
    message: /^values\[3\] must be a finite/,
  });
  assert.throws(() => model.setTensor(7, wte), { name: 'TypeError', message: /^name must be a tensor name/ });
  assert.throws(() => model.setTensor('wte.weight', 'x'), { name: 'TypeError', message: /^values must be an array/ });
  assert.deepEqual(model.tensor('wte.weight'), wte);
});
