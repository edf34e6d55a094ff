// RoPE's rotation of one vector and ALiBi's slopes through the package (SIMD and fallback modules), against
// independent double-precision JS written from the formulas, against the page's former JS (which rotated
// with lab.kernels.sinCos), and against a model with positions 'rope' (q · k depends on the offset only).
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import createEmbedLab from '../../dist/index.js';
import { dot, maxAbsDiff, testVector } from './reference.mjs';

// RoPE in double precision: pair i of (x_a, x_b) turned by position · base^(−2i/d).
function referenceRotate(x, position, base = 10000, layout = 'interleaved') {
  const d = x.length;
  const out = new Float64Array(d);
  for (let i = 0; i < d / 2; i++) {
    const [a, b] = layout === 'interleaved' ? [2 * i, 2 * i + 1] : [i, i + d / 2];
    const angle = position * base ** ((-2 * i) / d);
    out[a] = x[a] * Math.cos(angle) - x[b] * Math.sin(angle);
    out[b] = x[a] * Math.sin(angle) + x[b] * Math.cos(angle);
  }
  return out;
}

// What web/js/sections/beyond/beyond.js computed before it used lab.ropeRotate (float angles, the sinCos kernel).
function formerPageRotate(lab, x, pos, base = 10000) {
  const d = x.length;
  const angles = new Float32Array(d / 2);
  for (let i = 0; i < d / 2; i++) {
    const a = (pos * base ** ((-2 * i) / d)) % (2 * Math.PI);
    angles[i] = a > Math.PI ? a - 2 * Math.PI : a;
  }
  const sc = lab.kernels.sinCos(angles);
  const out = new Float32Array(d);
  for (let i = 0; i < d / 2; i++) {
    out[2 * i] = x[2 * i] * sc[2 * i + 1] - x[2 * i + 1] * sc[2 * i];
    out[2 * i + 1] = x[2 * i] * sc[2 * i] + x[2 * i + 1] * sc[2 * i + 1];
  }
  return out;
}

// Press et al.'s get_slopes (their reference code), transcribed: geometric for a power of two, otherwise
// the slopes of the power of two below, then every other slope of the one above.
function pressSlopes(heads) {
  const powerOfTwo = (n) => Array.from({ length: n }, (_, i) => 2 ** (-8 / n) * (2 ** (-8 / n)) ** i);
  if (Number.isInteger(Math.log2(heads))) {
    return powerOfTwo(heads);
  }
  const closest = 2 ** Math.floor(Math.log2(heads));
  const above = pressSlopes(2 * closest).filter((_, i) => i % 2 === 0);
  return [...powerOfTwo(closest), ...above.slice(0, heads - closest)];
}

for (const simd of [true, false]) {
  describe(`ropeRotate and alibiSlopes (${simd ? 'SIMD128' : 'fallback'})`, () => {
    let lab;
    before(async () => {
      lab = await createEmbedLab({ simd });
    });

    test('ropeRotate equals the double-precision rotation in both layouts, for small and large positions', () => {
      for (const layout of lab.ropeLayouts) {
        for (const [dim, base] of [
          [2, 10000],
          [16, 10000],
          [64, 500],
          [6, 1e12],
        ]) {
          const x = testVector(dim, dim + 3);
          for (const position of [0, 1, 7, 47, 4096, 100000]) {
            const rotated = lab.ropeRotate(x, position, { base, layout });
            assert.ok(rotated instanceof Float32Array && rotated.length === dim);
            const expected = referenceRotate(x, position, base, layout);
            // float cosines and sines of double angles: a few float ulps of |x|
            assert.ok(maxAbsDiff(rotated, expected) < 1e-5, `${layout} d=${dim} base=${base} t=${position}`);
          }
        }
      }
      assert.deepEqual(lab.ropeRotate([1, 2], 0), new Float32Array([1, 2]));
    });

    test("ropeRotate keeps the page's former numbers (its sinCos rotation) up to float rounding", () => {
      const embedding = lab.tokenEmbedding({ vocabSize: 2, dim: 16, seed: 5, stddev: 1 });
      const table = embedding.table();
      embedding.dispose();
      for (const x of [table.subarray(0, 16), table.subarray(16, 32)]) {
        for (let position = 0; position < 48; position++) {
          assert.ok(maxAbsDiff(lab.ropeRotate(x, position), formerPageRotate(lab, x, position)) < 1e-5);
        }
      }
    });

    test('ropeRotate: q · k depends only on the offset, as in a RoPE model', () => {
      const q = testVector(16, 1);
      const k = testVector(16, 2);
      for (const layout of lab.ropeLayouts) {
        const scores = [3, 10, 40, 1000].map((m) =>
          dot(lab.ropeRotate(q, m, { layout }), lab.ropeRotate(k, m - 3, { layout })),
        );
        assert.ok(Math.max(...scores) - Math.min(...scores) < 1e-4, layout);
      }
    });

    test("alibiSlopes are Press et al.'s slopes as float32 for H = 1…16", () => {
      for (let heads = 1; heads <= 16; heads++) {
        const slopes = lab.alibiSlopes(heads);
        assert.ok(slopes instanceof Float32Array && slopes.length === heads);
        assert.deepEqual(slopes, Float32Array.from(pressSlopes(heads)), `H = ${heads}`);
      }
      assert.deepEqual(Array.from(lab.alibiSlopes(4)), [0.25, 0.0625, 0.015625, 0.00390625]);
      // Not 2^(−8h/H) when H is not a power of two: H = 3 takes 2's slopes, then 4's first.
      assert.deepEqual(Array.from(lab.alibiSlopes(3)), [2 ** -4, 2 ** -8, 2 ** -2]);
      assert.deepEqual(Array.from(lab.alibiSlopes(6)), [2 ** -2, 2 ** -4, 2 ** -6, 2 ** -8, 2 ** -1, 2 ** -3]);
    });

    test('bad arguments throw errors that name them', () => {
      assert.throws(() => lab.ropeRotate([1, 2, 3], 0), { name: 'RangeError', message: /vector\.length/ });
      assert.throws(() => lab.ropeRotate([], 0), RangeError);
      assert.throws(() => lab.ropeRotate('ab', 0), TypeError);
      assert.throws(() => lab.ropeRotate([1, NaN], 0), { name: 'RangeError', message: /vector\[1\]/ });
      assert.throws(() => lab.ropeRotate([1, 2], -1), { name: 'RangeError', message: /position/ });
      assert.throws(() => lab.ropeRotate([1, 2], 1.5), { name: 'RangeError', message: /position/ });
      assert.throws(() => lab.ropeRotate([1, 2], 1, { base: 0.5 }), { name: 'RangeError', message: /base/ });
      assert.throws(() => lab.ropeRotate([1, 2], 1, { layout: 'half' }), { name: 'TypeError', message: /layout/ });
      assert.throws(() => lab.ropeRotate([1, 2], 1, 3), TypeError);
      assert.throws(() => lab.alibiSlopes(0), { name: 'RangeError', message: /heads/ });
      assert.throws(() => lab.alibiSlopes(2.5), RangeError);
      assert.throws(() => lab.alibiSlopes('4'), TypeError);
    });
  });
}
