// Timing helpers shared by the benchmarks: calibrate to ~20 ms a run, report the median of 7 runs.
export const RUNS = 7;

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

/** Median seconds per call of `once()`; `repeat(count)` may run it `count` times in one go (e.g. in wasm). */
export function medianSeconds({ once, repeat }) {
  const runFor =
    repeat ??
    ((count) => {
      const start = performance.now();
      for (let i = 0; i < count; i++) {
        once();
      }
      return (performance.now() - start) / 1000 / count;
    });
  let count = 1;
  while (runFor(count) * count < 0.02 && count < 1 << 24) {
    count *= 2;
  }
  return median(Array.from({ length: RUNS }, () => runFor(count)));
}

export const formatMicros = (seconds) => (seconds * 1e6 < 10 ? (seconds * 1e6).toFixed(2) : (seconds * 1e6).toFixed(1));
export const formatRatio = (ratio) => `${ratio.toFixed(1)}×`;
