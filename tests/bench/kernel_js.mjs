// Straightforward JS versions of the kernels, as a user would write them on Float32Arrays.
export const MATRIX_ROWS = 64;

function dot(a, b, n, offsetA = 0, offsetB = 0) {
  let sum = 0;
  for (let i = 0; i < n; i++) {
    sum += a[offsetA + i] * b[offsetB + i];
  }
  return sum;
}

export const jsKernels = {
  add: (a, b, out, n) => {
    for (let i = 0; i < n; i++) {
      out[i] = a[i] + b[i];
    }
  },
  scaledAdd: (a, b, out, n) => {
    for (let i = 0; i < n; i++) {
      out[i] += 0.5 * a[i];
    }
  },
  dot: (a, b, out, n) => (out[0] = dot(a, b, n)),
  norm: (a, b, out, n) => (out[0] = Math.sqrt(dot(a, a, n))),
  cosine: (a, b, out, n) => (out[0] = dot(a, b, n) / (Math.sqrt(dot(a, a, n)) * Math.sqrt(dot(b, b, n)))),
  cosineMatrix: (a, b, out, n) => {
    for (let i = 0; i < MATRIX_ROWS; i++) {
      const normA = Math.sqrt(dot(a, a, n, i * n, i * n));
      for (let j = 0; j < MATRIX_ROWS; j++) {
        const normB = Math.sqrt(dot(b, b, n, j * n, j * n));
        out[i * MATRIX_ROWS + j] = dot(a, b, n, i * n, j * n) / (normA * normB);
      }
    }
  },
  sinCos: (a, b, out, n) => {
    for (let i = 0; i < n; i++) {
      out[2 * i] = Math.sin(a[i]);
      out[2 * i + 1] = Math.cos(a[i]);
    }
  },
};
