// Token embeddings, positional encodings and their composition in the wasm package.
import assert from 'node:assert/strict';
import { afterEach, before, test } from 'node:test';

import createEmbedLab from '../../dist/index.js';
import { handleTracker, maxAbsDiff, sinusoidal } from './reference.mjs';

const { track, disposeAll } = handleTracker();
afterEach(disposeAll);

let lab;
before(async () => {
  lab = await createEmbedLab();
});

test('sinusoidal table follows PE(pos,2i)=sin(pos/base^(2i/d)), PE(pos,2i+1)=cos(...) to 5e-7', () => {
  for (const [dim, base] of [
    [2, 10000],
    [16, 10000],
    [64, 100],
    [130, 10000],
  ]) {
    const encoding = track(lab.positionalEncoding('sinusoidal', { dim, maxLength: 65536, base }));
    for (const offset of [0, 65536 - 40]) {
      const table = encoding.table(40, offset);
      assert.equal(table.length, 40 * dim);
      const expected = Float64Array.from(table, (_, k) => sinusoidal(offset + Math.floor(k / dim), k % dim, dim, base));
      assert.ok(maxAbsDiff(table, expected) <= 5e-7, `dim ${dim} base ${base} offset ${offset}`);
    }
  }
});

test('token embedding: N(0, stddev) rows, lookup returns them, seeds repeat', () => {
  const embedding = track(lab.tokenEmbedding({ vocabSize: 500, dim: 64, seed: 5 }));
  const table = embedding.table();
  assert.equal(table.length, 500 * 64);
  const mean = table.reduce((s, v) => s + v, 0) / table.length;
  const std = Math.sqrt(table.reduce((s, v) => s + v * v, 0) / table.length);
  assert.ok(Math.abs(mean) < 5 * (0.02 / Math.sqrt(table.length)));
  assert.ok(Math.abs(std - 0.02) < 0.0005);
  const rows = embedding.lookup([3, 499, 3]);
  assert.deepEqual(rows.subarray(0, 64), table.subarray(3 * 64, 4 * 64));
  assert.deepEqual(rows.subarray(64, 128), table.subarray(499 * 64, 500 * 64));
  const again = track(lab.tokenEmbedding({ vocabSize: 500, dim: 64, seed: 5 }));
  assert.deepEqual(again.table(), table);
  const other = track(lab.tokenEmbedding({ vocabSize: 500, dim: 64, seed: 6 }));
  assert.notDeepEqual(other.table(), table);
});

test('learned encoding takes new rows', () => {
  const learned = track(lab.positionalEncoding('learned', { dim: 4, maxLength: 8, seed: 2 }));
  learned.setRow(3, [1, 2, 3, 4]);
  assert.deepEqual(Array.from(learned.row(3)), [1, 2, 3, 4]);
  assert.deepEqual(learned.table(2, 3).subarray(0, 4), Float32Array.of(1, 2, 3, 4));
  const sinusoidal = track(lab.positionalEncoding('sinusoidal', { dim: 4, maxLength: 8 }));
  assert.throws(() => sinusoidal.setRow(0, [1, 2, 3, 4]), /setRow\(\) needs a learned encoding/);
});

test('compose returns token, position and input = token + position', () => {
  const embedding = track(lab.tokenEmbedding({ vocabSize: 20, dim: 8, seed: 1 }));
  const encoding = track(lab.positionalEncoding('sinusoidal', { dim: 8, maxLength: 16 }));
  const ids = [4, 19, 4];
  const composed = lab.compose(ids, { embedding, positional: encoding, offset: 2 });
  assert.equal(composed.length, 3);
  assert.equal(composed.dim, 8);
  assert.deepEqual(composed.tokenVectors, embedding.lookup(ids));
  assert.deepEqual(composed.positionVectors, encoding.table(3, 2));
  for (let k = 0; k < 24; k++) {
    assert.equal(composed.inputVectors[k], Math.fround(composed.tokenVectors[k] + composed.positionVectors[k]));
  }
  const bare = lab.compose(ids, { embedding });
  assert.deepEqual(bare.inputVectors, bare.tokenVectors);
  assert.ok(bare.positionVectors.every((v) => v === 0));
});

test('returned arrays are copies the caller owns', () => {
  const embedding = track(lab.tokenEmbedding({ vocabSize: 4, dim: 4, seed: 1 }));
  const first = embedding.table();
  first.fill(42);
  assert.notEqual(embedding.table()[0], 42);
  lab.tokenEmbedding({ vocabSize: 100000, dim: 64 }).dispose(); // grows the heap: copies stay valid
  assert.equal(first[0], 42);
});
