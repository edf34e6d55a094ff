// Double-precision references in plain JS, written from the formulas; shared by the node tests.
export function dot(a, b) {
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    sum += a[i] * b[i];
  }
  return sum;
}

export function absDot(a, b) {
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    sum += Math.abs(a[i] * b[i]);
  }
  return sum;
}

export function cosine(a, b) {
  const norms = Math.sqrt(dot(a, a)) * Math.sqrt(dot(b, b));
  return norms > 0 ? dot(a, b) / norms : 0;
}

export function sinusoidal(position, index, dim, base = 10000) {
  const angle = position / Math.pow(base, (2 * Math.floor(index / 2)) / dim);
  return index % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
}

export function row(matrix, i, dim) {
  return matrix.subarray ? matrix.subarray(i * dim, (i + 1) * dim) : matrix.slice(i * dim, (i + 1) * dim);
}

export function meanPool(vectors, length, dim) {
  const pooled = new Float64Array(dim);
  for (let t = 0; t < length; t++) {
    for (let c = 0; c < dim; c++) {
      pooled[c] += vectors[t * dim + c] / length;
    }
  }
  return pooled;
}

export function maxAbsDiff(a, b) {
  let worst = 0;
  for (let i = 0; i < a.length; i++) {
    worst = Math.max(worst, Math.abs(a[i] - b[i]));
  }
  return worst;
}

// Seeded normals for test inputs (a simple LCG + Box-Muller; independent of the library's PRNG).
export function testVector(n, seed) {
  let state = seed >>> 0 || 1;
  const uniform = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) + 0.5) / 4294967296;
  return Float32Array.from(
    { length: n },
    () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform()),
  );
}

// Node 20 has no `using`: tests track the handles they create and dispose them after each test.
export function handleTracker() {
  const handles = [];
  return {
    track: (handle) => (handles.push(handle), handle),
    disposeAll: () => {
      while (handles.length) {
        handles.pop().dispose();
      }
    },
  };
}
