// Principal components through the package (SIMD and fallback modules) against an independent reference: the
// covariance formed in double-precision JS and diagonalised by a plain cyclic Jacobi written here, on random,
// close-variance and degenerate tables; and against the page's former power iteration (web/js/linalg.js pca2),
// so the page's scatter plots keep their shape and orientation.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import createEmbedLab from '../../dist/index.js';
import { testVector } from './reference.mjs';

function centred(values, rows, cols) {
  const x = Float64Array.from(values);
  for (let c = 0; c < cols; c++) {
    let mean = 0;
    for (let r = 0; r < rows; r++) {
      mean += x[r * cols + c] / rows;
    }
    for (let r = 0; r < rows; r++) {
      x[r * cols + c] -= mean;
    }
  }
  return x;
}

// Eigenpairs of the covariance X^T X / rows, largest first: {values, vectors: [unit vector per value]}.
function referenceEigen(values, rows, cols) {
  const x = centred(values, rows, cols);
  const a = Array.from({ length: cols }, (_, i) =>
    Array.from({ length: cols }, (_, j) => {
      let s = 0;
      for (let r = 0; r < rows; r++) {
        s += (x[r * cols + i] * x[r * cols + j]) / rows;
      }
      return s;
    }),
  );
  const v = Array.from({ length: cols }, (_, i) => Array.from({ length: cols }, (_, j) => (i === j ? 1 : 0)));
  for (let sweep = 0; sweep < 60; sweep++) {
    for (let p = 0; p < cols; p++) {
      for (let q = p + 1; q < cols; q++) {
        if (Math.abs(a[p][q]) < 1e-300) {
          continue;
        }
        const phi = 0.5 * Math.atan2(2 * a[p][q], a[q][q] - a[p][p]); // angle that zeroes a[p][q]
        const c = Math.cos(phi);
        const s = Math.sin(phi);
        for (const m of [a, v]) {
          for (const row of m) {
            [row[p], row[q]] = [c * row[p] - s * row[q], s * row[p] + c * row[q]];
          }
        }
        for (let k = 0; k < cols; k++) {
          [a[p][k], a[q][k]] = [c * a[p][k] - s * a[q][k], s * a[p][k] + c * a[q][k]];
        }
      }
    }
  }
  const order = Array.from({ length: cols }, (_, i) => i).sort((i, j) => a[j][j] - a[i][i]);
  return { x, values: order.map((i) => a[i][i]), vectors: order.map((i) => v.map((row) => row[i])) };
}

// web/js/linalg.js pca2 as the page had it: 200 power iterations from a fixed start, largest entry positive.
function formerPagePca2(values, rows, cols) {
  const x = centred(values, rows, cols);
  const cov = new Float64Array(cols * cols);
  for (let r = 0; r < rows; r++) {
    for (let a = 0; a < cols; a++) {
      for (let b = 0; b < cols; b++) {
        cov[a * cols + b] += x[r * cols + a] * x[r * cols + b];
      }
    }
  }
  const components = [];
  for (let k = 0; k < 2; k++) {
    let v = new Float64Array(cols).map((_, i) => 1 + ((i * 7919) % 13) / 13);
    for (let it = 0; it < 200; it++) {
      const w = new Float64Array(cols);
      for (let a = 0; a < cols; a++) {
        for (let b = 0; b < cols; b++) {
          w[a] += cov[a * cols + b] * v[b];
        }
      }
      for (const u of components) {
        const d = w.reduce((s, wi, i) => s + wi * u[i], 0);
        for (let i = 0; i < cols; i++) {
          w[i] -= d * u[i];
        }
      }
      const n = Math.hypot(...w) || 1;
      v = w.map((wi) => wi / n);
    }
    let big = 0;
    for (let i = 1; i < cols; i++) {
      if (Math.abs(v[i]) > Math.abs(v[big])) {
        big = i;
      }
    }
    if (v[big] < 0) {
      v = v.map((vi) => -vi);
    }
    components.push(v);
  }
  return Array.from({ length: rows }, (_, r) =>
    components.map((u) => u.reduce((s, ui, c) => s + x[r * cols + c] * ui, 0)),
  );
}

// Rows whose variances fall off as 1 / (k + 1)^2 along a mixed basis: a clear spectrum, like trained embeddings.
function spreadTable(rows, cols, seed) {
  const noise = testVector(rows * cols, seed);
  const mix = testVector(cols * cols, seed + 1);
  const values = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      for (let k = 0; k < cols; k++) {
        values[r * cols + c] += (noise[r * cols + k] / (k + 1)) * mix[k * cols + c];
      }
    }
  }
  return values;
}

const dot = (a, b) => a.reduce((s, ai, i) => s + ai * b[i], 0);

// Each component against the reference eigenvector (same sign convention), variances and projections too.
function assertMatchesReference(lab, values, rows, cols, count) {
  const ref = referenceEigen(values, rows, cols);
  const { components, variances, projections } = lab.principalComponents(values, rows, cols, { count });
  assert.ok(components instanceof Float64Array && components.length === count * cols);
  assert.ok(projections instanceof Float64Array && projections.length === rows * count);
  const scale = Math.sqrt(ref.values[0]);
  for (let j = 0; j < count; j++) {
    assert.ok(Math.abs(variances[j] - ref.values[j]) < 1e-10 * ref.values[0], `variance ${j}`);
    const u = ref.vectors[j];
    const big = u.reduce((b, ui, i) => (Math.abs(ui) > Math.abs(u[b]) ? i : b), 0);
    const expected = u[big] < 0 ? u.map((ui) => -ui) : u;
    const component = components.subarray(j * cols, (j + 1) * cols);
    assert.ok(Math.max(...component.map((c, i) => Math.abs(c - expected[i]))) < 1e-7, `component ${j}`);
    for (let r = 0; r < rows; r++) {
      const coordinate = dot(ref.x.subarray(r * cols, (r + 1) * cols), expected);
      assert.ok(Math.abs(projections[r * count + j] - coordinate) < 1e-7 * scale, `row ${r} component ${j}`);
    }
  }
}

for (const simd of [true, false]) {
  describe(`principalComponents (${simd ? 'SIMD128' : 'fallback'})`, () => {
    let lab;
    before(async () => {
      lab = await createEmbedLab({ simd });
    });

    test('random tables: the covariance eigenvectors of a Jacobi reference, with their sign convention', () => {
      assertMatchesReference(lab, spreadTable(60, 8, 1), 60, 8, 2);
      assertMatchesReference(lab, spreadTable(100, 16, 2), 100, 16, 5);
      assertMatchesReference(lab, spreadTable(30, 6, 3), 30, 6, 6);
      assertMatchesReference(lab, spreadTable(10, 24, 4), 10, 24, 3); // fewer rows than columns
      assertMatchesReference(lab, Array.from(spreadTable(20, 4, 5)), 20, 4, 2); // a plain array
    });

    test("the page's former power iteration (pca2) gives the same plot coordinates", () => {
      for (const [rows, cols, seed] of [
        [40, 16, 11],
        [16, 32, 12],
        [64, 8, 13],
      ]) {
        const values = spreadTable(rows, cols, seed);
        const { projections } = lab.principalComponents(values, rows, cols);
        const former = formerPagePca2(values, rows, cols);
        const scale = Math.max(...former.flat().map(Math.abs));
        for (let r = 0; r < rows; r++) {
          assert.ok(Math.abs(projections[2 * r] - former[r][0]) < 1e-6 * scale, `rows ${rows} row ${r} x`);
          assert.ok(Math.abs(projections[2 * r + 1] - former[r][1]) < 1e-6 * scale, `rows ${rows} row ${r} y`);
        }
      }
    });

    test('close and equal variances: the variances of the reference and the same explained subspace', () => {
      // ±e_i for every axis: every direction has the same variance, so any orthonormal basis is an answer.
      const cols = 5;
      const rows = [];
      for (let i = 0; i < cols; i++) {
        for (const sign of [1, -1]) {
          rows.push(Array.from({ length: cols }, (_, c) => (c === i ? sign : 0)));
        }
      }
      const { components, variances, projections } = lab.principalComponents(rows.flat(), 2 * cols, cols, {
        count: 3,
      });
      assert.ok(Array.from(variances).every((v) => Math.abs(v - 0.2) < 1e-12));
      for (let i = 0; i < 3; i++) {
        for (let j = 0; j < 3; j++) {
          const d = dot(components.subarray(i * cols, (i + 1) * cols), components.subarray(j * cols, (j + 1) * cols));
          assert.ok(Math.abs(d - (i === j ? 1 : 0)) < 1e-12);
        }
      }
      let sumOfSquares = 0;
      for (const p of projections) {
        sumOfSquares += p * p;
      }
      assert.ok(Math.abs(sumOfSquares - 3 * 2 * 0.2 * cols) < 1e-10); // rows · variance · count
      const noise = testVector(400, 9);
      assertMatchesReference(lab, noise, 50, 8, 8); // plain noise: variances close to each other
    });

    test('degenerate tables: no variance gives zeros, a line gives one direction', () => {
      const same = [1, 2, 3, 1, 2, 3, 1, 2, 3];
      const flat = lab.principalComponents(same, 3, 3);
      assert.deepEqual(Array.from(flat.components), [0, 0, 0, 0, 0, 0]);
      assert.deepEqual(Array.from(flat.variances), [0, 0]);
      assert.deepEqual(Array.from(flat.projections), [0, 0, 0, 0, 0, 0]);
      assert.deepEqual(Array.from(lab.principalComponents([4, 5], 1, 2).projections), [0, 0]);
      const ts = [-2, 0.5, 1, 4];
      const line = lab.principalComponents(
        ts.flatMap((t) => [t, 2 * t, 2 * t]),
        4,
        3,
      );
      assert.ok(Math.max(...[1 / 3, 2 / 3, 2 / 3].map((e, i) => Math.abs(line.components[i] - e))) < 1e-12);
      assert.deepEqual(Array.from(line.components.subarray(3)), [0, 0, 0]);
      assert.equal(line.variances[1], 0);
      ts.forEach((t, r) => assert.ok(Math.abs(line.projections[2 * r] - 3 * (t - 0.875)) < 1e-12));
      // Duplicated rows weigh twice, as in the reference.
      const base = spreadTable(6, 4, 21);
      const doubled = new Float32Array([...base, ...base]);
      assertMatchesReference(lab, doubled, 12, 4, 2);
    });

    test('bad arguments throw errors that name them', () => {
      assert.throws(() => lab.principalComponents([1, 2, 3], 2, 2), { name: 'RangeError', message: /values\.length/ });
      assert.throws(() => lab.principalComponents([1, 2], 0, 2), { name: 'RangeError', message: /rows/ });
      assert.throws(() => lab.principalComponents([1, 2], 1, 2, { count: 3 }), {
        name: 'RangeError',
        message: /count/,
      });
      assert.throws(() => lab.principalComponents([1, 2], 1, 2, { count: 0 }), RangeError);
      assert.throws(() => lab.principalComponents([1, NaN], 1, 2), { name: 'RangeError', message: /values\[1\]/ });
      assert.throws(() => lab.principalComponents('ab', 1, 2), TypeError);
      assert.throws(() => lab.principalComponents([1, 2], 1, 2, 2), TypeError);
    });
  });
}
