// Frozen tensors: createModel({frozen}) and model.setFrozen keep a tensor's values exactly while the rest trains
// (checked against the tables before and after), the frozen list is checked, and thawing trains it again.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import createEmbedLab from '../../dist/index.js';

const config = { vocabSize: 32, contextLength: 8, channels: 16, layers: 1, heads: 2, seed: 9 };
const batch = { ids: [[1, 2, 3, 4, 5, 6, 7, 8]], targets: [[2, 3, 4, 5, 6, 7, 8, 9]] };

let lab;
const handles = [];
const keep = (handle) => (handles.push(handle), handle);
before(async () => {
  lab = await createEmbedLab();
});
after(() => handles.forEach((handle) => handle.dispose()));

test('a frozen wte stays bit for bit while wpe and the loss move; thawed, it trains', () => {
  const model = keep(lab.createModel({ ...config, frozen: ['wte.weight'] }));
  assert.deepEqual(model.frozen, ['wte.weight']);
  const wte = model.tokenEmbeddings();
  const wpe = model.positionEmbeddings();
  const losses = Array.from({ length: 20 }, () => model.trainStep(batch).loss);
  assert.deepEqual(model.tokenEmbeddings(), wte);
  assert.notDeepEqual(model.positionEmbeddings(), wpe);
  assert.ok(losses.at(-1) < losses[0] - 0.1, `the rest trains: ${losses[0]} -> ${losses.at(-1)}`);
  model.setFrozen([]);
  assert.deepEqual(model.frozen, []);
  model.trainStep(batch);
  assert.notDeepEqual(model.tokenEmbeddings(), wte);
});

test('freezing differs from training: the same seed trained without it moves wte', () => {
  const trained = keep(lab.createModel(config));
  const wte = trained.tokenEmbeddings();
  trained.trainStep(batch);
  assert.notDeepEqual(trained.tokenEmbeddings(), wte);
});

test('bad frozen lists are refused with the tensor names', () => {
  assert.throws(
    () => lab.createModel({ ...config, frozen: 'wte.weight' }),
    /config\.frozen must be an array of tensor names/,
  );
  assert.throws(() => lab.createModel({ ...config, frozen: ['wte'] }), /no tensor "wte".*wte\.weight/);
  assert.throws(
    () => lab.createModel({ ...config, positions: 'rope', frozen: ['wpe.weight'] }),
    /no tensor "wpe.weight"/,
  );
  const model = keep(lab.createModel(config));
  assert.throws(() => model.setFrozen(['wte.weight', 'wte.weight']), /listed twice/);
  assert.throws(() => model.setFrozen([1]), /names must be an array of tensor names/);
  assert.deepEqual(model.frozen, []);
});
