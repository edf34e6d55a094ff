// Section 5's measures of a position table (the tiny model's and a file's): mean cosines by offset, total
// variance for the PCA share, the colour ramp over positions, and sizes.

/** The largest |value| of a table (1 for an all-zero one, so a colour scale never spans 0 to 0). */
export function maxAbs(values) {
  let m = 0;
  for (const v of values) {
    m = Math.max(m, Math.abs(v));
  }
  return m || 1;
}

/** Blue (position 0) to orange (last) through grey: order readable without hue alone (labels too). */
export function rampColour(t) {
  const a = [0, 114, 178];
  const b = [213, 94, 0];
  return `rgb(${a.map((x, i) => Math.round(x + (b[i] - x) * t)).join(' ')})`;
}

/** Mean cosine of the rows k apart (pairs i, i + k) of a rows × cols table. */
export function meanCosineAt(lab, table, rows, cols, k) {
  const row = (i) => table.subarray(i * cols, (i + 1) * cols);
  let sum = 0;
  for (let i = 0; i + k < rows; i++) {
    sum += lab.kernels.cosine(row(i), row(i + k));
  }
  return sum / (rows - k);
}

/** Mean cosine of the rows k apart, for k = 1 … T − 1: does likeness fall with distance, or is it a step at 1? */
export function meanCosineByOffset(lab, wpe, T, C) {
  return Array.from({ length: T - 1 }, (_, k) => meanCosineAt(lab, wpe, T, C, k + 1));
}

/** Bytes as MB, always to two decimals: a tensor and the file holding it are compared at the same precision. */
export const megabytes = (bytes) => `${(bytes / 1e6).toFixed(2)} MB`;

/** The rows' total variance (mean squared distance to the mean row, divided by rows as the PCA's variances). */
export function totalVariance(values, rows, cols) {
  const meanRow = new Float64Array(cols);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      meanRow[c] += values[r * cols + c] / rows;
    }
  }
  let sum = 0;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      sum += (values[r * cols + c] - meanRow[c]) ** 2;
    }
  }
  return sum / rows || 1;
}
