// The chapter's claim through the package: order is invisible without positions, visible with them.
import assert from 'node:assert/strict';
import { afterEach, before, test } from 'node:test';

import createEmbedLab from '../../dist/index.js';
import { cosine, handleTracker, maxAbsDiff, meanPool, row } from './reference.mjs';

const { track, disposeAll } = handleTracker();
afterEach(disposeAll);

const DOG_BITES_MAN = [0, 1, 2];
const MAN_BITES_DOG = [2, 1, 0];
let lab;
before(async () => {
  lab = await createEmbedLab();
});

// Largest difference between A's output rows and B's rows read backwards.
function reversalMismatch(a, b, length, dim) {
  let worst = 0;
  for (let i = 0; i < length; i++) {
    worst = Math.max(worst, maxAbsDiff(row(a, i, dim), row(b, length - 1 - i, dim)));
  }
  return worst;
}

test('without positions: same bag of vectors, attention outputs are the same rows permuted', () => {
  const embedding = track(lab.tokenEmbedding({ vocabSize: 3, dim: 32, seed: 1, stddev: 1 }));
  const result = lab.compare(DOG_BITES_MAN, MAN_BITES_DOG, { embedding });
  assert.ok(Math.abs(result.pooledCosine - 1) <= 1e-6);
  assert.ok(Math.abs(result.attention.pooledCosine - 1) <= 1e-6);
  assert.ok(reversalMismatch(result.attention.outputsA, result.attention.outputsB, 3, 32) <= 1e-6);
  for (let i = 0; i < 3; i++) {
    assert.ok(Math.abs(result.similarity[i * 3 + (2 - i)] - 1) <= 1e-6);
  }
});

for (const kind of ['sinusoidal', 'learned']) {
  test(`with ${kind} positions attention tells the sentences apart`, () => {
    const embedding = track(lab.tokenEmbedding({ vocabSize: 3, dim: 32, seed: 1, stddev: 1 }));
    const positional = track(lab.positionalEncoding(kind, { dim: 32, maxLength: 16, seed: 3, stddev: 1 }));
    const result = lab.compare(DOG_BITES_MAN, MAN_BITES_DOG, { embedding, positional });
    // Mean pooling adds the same positions to both: the pooled inputs still match.
    assert.ok(Math.abs(result.pooledCosine - 1) <= 1e-6);
    assert.ok(result.attention.pooledCosine < 0.999, `pooled attention cosine ${result.attention.pooledCosine}`);
    assert.ok(reversalMismatch(result.attention.outputsA, result.attention.outputsB, 3, 32) > 1e-3);
    // "bites" is at position 1 in both: identical input vector.
    assert.ok(Math.abs(result.similarity[1 * 3 + 1] - 1) <= 1e-6);
  });
}

test('compare agrees with the reference computed from compose and attention.forward', () => {
  const embedding = track(lab.tokenEmbedding({ vocabSize: 10, dim: 16, seed: 7, stddev: 1 }));
  const positional = track(lab.positionalEncoding('sinusoidal', { dim: 16, maxLength: 32 }));
  const attention = track(lab.selfAttention({ dim: 16, seed: 9 }));
  const idsA = [1, 5, 9, 2],
    idsB = [9, 9, 0];
  const result = lab.compare(idsA, idsB, { embedding, positional, attention });
  const a = lab.compose(idsA, { embedding, positional }).inputVectors;
  const b = lab.compose(idsB, { embedding, positional }).inputVectors;
  for (let i = 0; i < 4; i++) {
    for (let j = 0; j < 3; j++) {
      assert.ok(Math.abs(result.similarity[i * 3 + j] - cosine(row(a, i, 16), row(b, j, 16))) <= 2e-6);
    }
  }
  assert.ok(Math.abs(result.pooledCosine - cosine(meanPool(a, 4, 16), meanPool(b, 3, 16))) <= 2e-6);
  const outA = attention.forward(a).outputs,
    outB = attention.forward(b).outputs;
  assert.deepEqual(result.attention.outputsA, outA);
  assert.deepEqual(result.attention.outputsB, outB);
  assert.ok(Math.abs(result.attention.pooledCosine - cosine(meanPool(outA, 4, 16), meanPool(outB, 3, 16))) <= 2e-6);
  assert.equal(lab.compare(idsA, idsB, { embedding, attention: false }).attention, null);
});

test('attention weights are a softmax: rows sum to 1, causal rows see no future', () => {
  const attention = track(lab.selfAttention({ dim: 8, seed: 1, causal: true }));
  const embedding = track(lab.tokenEmbedding({ vocabSize: 5, dim: 8, seed: 2, stddev: 1 }));
  const { weights } = attention.forward(embedding.lookup([0, 1, 2, 3, 4]));
  for (let q = 0; q < 5; q++) {
    const rowWeights = weights.subarray(q * 5, q * 5 + 5);
    assert.ok(Math.abs(rowWeights.reduce((s, w) => s + w, 0) - 1) <= 1e-6);
    for (let k = q + 1; k < 5; k++) {
      assert.equal(rowWeights[k], 0);
    }
  }
});
