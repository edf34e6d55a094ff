// Same seed, same numbers: the wasm package against the native build (tests/reference/reference_dump.cc).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, test } from 'node:test';

import createEmbedLab from '../../dist/index.js';
import { handleTracker, maxAbsDiff } from './reference.mjs';

const { track, disposeAll } = handleTracker();
afterEach(disposeAll);

const dumpPath = fileURLToPath(new URL('../../build/native/embedlab_reference_dump', import.meta.url));
const native = JSON.parse(execFileSync(dumpPath, { encoding: 'utf8' }));

for (const simd of [true, false]) {
  test(`wasm ${simd ? 'SIMD128' : 'fallback'} reproduces the native ${native.target} numbers`, async () => {
    const lab = await createEmbedLab({ simd });
    const embedding = track(lab.tokenEmbedding({ vocabSize: 7, dim: 10, seed: 123, stddev: 0.5 }));
    const learned = track(lab.positionalEncoding('learned', { dim: 6, maxLength: 5, seed: 9, stddev: 0.02 }));
    const sinusoidal = track(lab.positionalEncoding('sinusoidal', { dim: 10, maxLength: 40 }));
    const attention = track(lab.selfAttention({ dim: 10, seed: 4 }));
    // PRNG-only values: bit for bit.
    assert.deepEqual(embedding.table(), Float32Array.from(native.tokenEmbedding));
    assert.deepEqual(learned.table(), Float32Array.from(native.learned));
    // Values through SIMD math: the targets differ in lane count and FMA, so within float rounding.
    assert.ok(maxAbsDiff(sinusoidal.table(), native.sinusoidal) <= 5e-7);
    const result = lab.compare([0, 1, 2, 6], [6, 2, 1, 0], { embedding, positional: sinusoidal, attention });
    assert.ok(maxAbsDiff(result.similarity, native.inputSimilarity) <= 1e-6);
    assert.ok(maxAbsDiff(result.attention.outputsA, native.attentionA) <= 1e-5);
    assert.ok(maxAbsDiff(result.attention.outputsB, native.attentionB) <= 1e-5);
    assert.ok(Math.abs(result.attention.pooledCosine - native.pooledAttentionCosine) <= 1e-6);
    // GloVe: the initial values are PRNG draws (bit for bit); training goes through the SIMD kernels.
    const ids = Array.from({ length: 400 }, (_, i) => (7 * i + Math.floor(i / 3)) % 16);
    const glove = { ids, vocabSize: 16, dim: 10, window: 3, seed: 5 };
    const initial = await lab.trainWordVectors({ ...glove, epochs: 0 });
    assert.deepEqual(initial.words, Float32Array.from(native.gloveInitialWords));
    const trained = await lab.trainWordVectors({ ...glove, epochs: 4 });
    assert.ok(
      maxAbsDiff(trained.vectors, native.gloveVectors) <= 1e-5,
      `${maxAbsDiff(trained.vectors, native.gloveVectors)}`,
    );
    trained.losses.forEach((loss, k) => assert.ok(Math.abs(loss - native.gloveLosses[k]) <= 1e-5 * loss, `epoch ${k}`));
  });
}
