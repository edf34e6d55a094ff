// Principal components for the plots (the library has none); cosines and neighbours come from the library.

/** Projects the rows of a rows × cols matrix on its first two principal components (power iteration). */
export function pca2(values, rows, cols) {
  const mean = new Float64Array(cols);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      mean[c] += values[r * cols + c] / rows;
    }
  }
  const x = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      x[r * cols + c] = values[r * cols + c] - mean[c];
    }
  }
  const cov = new Float64Array(cols * cols);
  for (let r = 0; r < rows; r++) {
    for (let a = 0; a < cols; a++) {
      const xa = x[r * cols + a];
      if (xa === 0) {
        continue;
      }
      for (let b = 0; b < cols; b++) {
        cov[a * cols + b] += xa * x[r * cols + b];
      }
    }
  }
  const components = [];
  for (let k = 0; k < 2; k++) {
    let v = new Float64Array(cols).map((_, i) => 1 + ((i * 7919) % 13) / 13);
    for (let it = 0; it < 200; it++) {
      const w = new Float64Array(cols);
      for (let a = 0; a < cols; a++) {
        let s = 0;
        for (let b = 0; b < cols; b++) {
          s += cov[a * cols + b] * v[b];
        }
        w[a] = s;
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
    // Sign convention: the largest entry positive, so plots do not flip between snapshots at random.
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
    components.map((u) => {
      let s = 0;
      for (let c = 0; c < cols; c++) {
        s += x[r * cols + c] * u[c];
      }
      return s;
    }),
  );
}
