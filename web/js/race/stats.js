// Section 7's race, summarised over seeds: the mean and the min–max range of the library's per-run numbers (loss at
// each position for the language task, accuracy at each depth for the passkey), per scheme and reading. No DOM.

/** {mean, min, max} of numbers, summed in the order given. */
export function spread(values) {
  let sum = 0;
  for (const v of values) {
    sum += v;
  }
  return { mean: sum / values.length, min: Math.min(...values), max: Math.max(...values) };
}

/** Mean of array[from..to). */
export function rangeMean(array, from, to) {
  let sum = 0;
  for (let i = from; i < to; i += 1) {
    sum += array[i];
  }
  return sum / (to - from);
}

/** The reading of a run at this length, zero-shot or fine-tuned (undefined when the run has none). */
export function readingOf(run, length, fineTuned) {
  return run.readings.find((r) => r.length === length && r.fineTuned === fineTuned);
}

/**
 * Language task, one scheme: per position of the reading at `length`, the mean, min and max over the runs (seeds);
 * plus, per seed, the mean loss over each position range. null when the scheme refuses that length.
 */
export function lossCurve(runs, length, fineTuned, ranges) {
  const readings = runs.map((run) => readingOf(run, length, fineTuned));
  if (readings.some((r) => !r?.available)) {
    return null;
  }
  const mean = new Float64Array(length);
  const min = new Float64Array(length);
  const max = new Float64Array(length);
  for (let p = 0; p < length; p += 1) {
    const s = spread(readings.map((r) => r.lossByPosition[p]));
    mean[p] = s.mean;
    min[p] = s.min;
    max[p] = s.max;
  }
  const byRange = ranges
    .filter(([, to]) => to <= length)
    .map(([from, to]) => {
      const perSeed = readings.map((r) => rangeMean(r.lossByPosition, from, to));
      return { from, to, perSeed, ...spread(perSeed) };
    });
  return { mean, min, max, byRange };
}

/**
 * Passkey task, one scheme and reading: accuracy at each depth (mean over seeds), and the accuracy averaged over
 * depths per seed with its spread. null when the scheme refuses that length.
 */
export function accuracyCell(runs, length, fineTuned) {
  const readings = runs.map((run) => readingOf(run, length, fineTuned));
  if (readings.some((r) => !r?.available)) {
    return null;
  }
  const depths = readings[0].accuracyByDepth.length;
  const byDepth = Array.from({ length: depths }, (_, d) => spread(readings.map((r) => r.accuracyByDepth[d])));
  const perSeed = readings.map((r) => rangeMean(r.accuracyByDepth, 0, depths));
  return { byDepth, perSeed, ...spread(perSeed) };
}

/**
 * The mean of each position's window of `radius` positions either side, inside its own range of `edges`
 * ([0, T), [T, 2T), ...): one noisy position moves the line less, and the jump at T is not blurred into the
 * positions before it.
 */
export function smoothWithinRanges(values, edges, radius) {
  const out = new Float64Array(values.length);
  const bounds = [0, ...edges.filter((e) => e > 0 && e < values.length), values.length];
  for (let b = 1; b < bounds.length; b += 1) {
    const [start, end] = [bounds[b - 1], bounds[b]];
    for (let p = start; p < end; p += 1) {
      out[p] = rangeMean(values, Math.max(start, p - radius), Math.min(end, p + radius + 1));
    }
  }
  return out;
}

/** Position ranges [0, T), [T, f1·T), ... of the factors, as the tables of docs/long-contexts.md report them. */
export function positionRanges(trainLength, factors) {
  const edges = [0, ...factors.map((f) => f * trainLength)];
  return edges.slice(1).map((to, i) => [edges[i], to]);
}
