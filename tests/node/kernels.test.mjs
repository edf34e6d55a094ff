// The wasm kernels (SIMD and fallback modules) against the double-precision JS reference.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import createEmbedLab from '../../dist/index.js';
import { absDot, cosine, dot, maxAbsDiff, testVector } from './reference.mjs';

const SIZES = [0, 1, 3, 4, 5, 15, 16, 17, 63, 64, 65, 1000];

for (const simd of [true, false]) {
  describe(`kernels (${simd ? 'SIMD128' : 'fallback'})`, () => {
    let lab;
    before(async () => {
      lab = await createEmbedLab({ simd });
    });

    test('runs on the expected Highway target', () => {
      assert.equal(lab.simdTarget, simd ? 'WASM' : 'EMU128');
    });

    test('dot, norm and cosine match the reference', () => {
      for (const n of SIZES) {
        const a = testVector(n, 1 + n),
          b = testVector(n, 2 + n);
        const bound = 1e-6 * (1 + Math.sqrt(n)) * absDot(a, b) + 1e-30;
        assert.ok(Math.abs(lab.kernels.dot(a, b) - dot(a, b)) <= bound, `dot n=${n}`);
        const norm = Math.sqrt(dot(a, a));
        assert.ok(Math.abs(lab.kernels.norm(a) - norm) <= 1e-6 * norm + 1e-30, `norm n=${n}`);
        assert.ok(Math.abs(lab.kernels.cosine(a, b) - cosine(a, b)) <= 2e-6, `cosine n=${n}`);
      }
    });

    test('add is exact and scaledAdd within one rounding', () => {
      for (const n of SIZES) {
        const a = testVector(n, 3),
          b = testVector(n, 4);
        const sum = lab.kernels.add(a, b);
        for (let i = 0; i < n; i++) {
          assert.equal(sum[i], Math.fround(a[i] + b[i]));
        }
        const y = lab.kernels.scaledAdd(0.37, a, b);
        for (let i = 0; i < n; i++) {
          const expected = b[i] + Math.fround(0.37) * a[i];
          assert.ok(Math.abs(y[i] - expected) <= 2.5e-7 * (Math.abs(b[i]) + Math.abs(0.37 * a[i])) + 1e-30);
        }
      }
    });

    test('cosineMatrix matches pairwise cosines', () => {
      for (const dim of [1, 3, 8, 17, 64]) {
        const a = testVector(5 * dim, 5),
          b = testVector(7 * dim, 6);
        const matrix = lab.kernels.cosineMatrix(a, b, dim);
        assert.equal(matrix.length, 35);
        for (let i = 0; i < 5; i++) {
          for (let j = 0; j < 7; j++) {
            const expected = cosine(a.subarray(i * dim, (i + 1) * dim), b.subarray(j * dim, (j + 1) * dim));
            assert.ok(Math.abs(matrix[i * 7 + j] - expected) <= 2e-6);
          }
        }
      }
    });

    test('sinCos is within 4e-7 of Math.sin/Math.cos far outside [-pi, pi] too (it reduces the angle)', () => {
      const angles = [4, -7.5, 100.25, -1e4 - 0.3, 123456.789, 2 ** 20 + 0.5];
      const out = lab.kernels.sinCos(angles);
      const expected = angles.flatMap((a) => [Math.sin(a), Math.cos(a)]);
      assert.ok(maxAbsDiff(out, expected) <= 4e-7, `${Array.from(out)} vs ${expected}`);
    });

    test('sinCos is within 3e-7 of Math.sin/Math.cos on [-pi, pi]', () => {
      for (const n of SIZES) {
        const angles = Float32Array.from({ length: n }, (_, i) => -Math.PI + (2 * Math.PI * i) / Math.max(n, 1));
        const out = lab.kernels.sinCos(angles);
        const expected = Float64Array.from({ length: 2 * n }, (_, k) => (k % 2 ? Math.cos : Math.sin)(angles[k >> 1]));
        assert.ok(maxAbsDiff(out, expected) <= 3e-7, `n=${n}`);
      }
    });
  });
}
