// Timing for the tokenizer benchmark: process CPU time (process.cpuUsage), since on the shared machine
// wall time counts waiting for a core; contenders run round-robin, one run each per round, and each
// reports its median, so that load changes fall on all of them alike. A run repeats the work until it
// takes >= 20 ms.
import { median } from './timing.mjs';

export const ROUNDS = 7;
export const MIN_RUNS = 5;

export const mbps = (bytes, seconds) => (bytes / seconds / 1e6).toFixed(1);
export const ms = (seconds) => (seconds * 1e3 < 10 ? (seconds * 1e3).toFixed(2) : (seconds * 1e3).toFixed(0));
export const secondsText = (seconds) => (seconds < 1 ? `${ms(seconds)} ms` : `${seconds.toFixed(2)} s`);

const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/** CPU seconds of `count` calls of `fn` (which may return a promise). */
export async function cpuTime(fn, count = 1) {
  const start = cpuSeconds();
  for (let i = 0; i < count; i++) {
    await fn();
  }
  return cpuSeconds() - start;
}

/**
 * Median CPU seconds per call of each function of `fns` ({label: fn}), measured round-robin: `rounds`
 * rounds, one run of each per round; a run repeats fn until it takes >= 20 ms.
 */
export async function interleaved(fns, rounds = ROUNDS) {
  const entries = Object.entries(fns);
  const counts = {};
  for (const [label, fn] of entries) {
    let count = 1;
    while ((await cpuTime(fn, count)) < 0.02 && count < 1 << 20) {
      count *= 2;
    }
    counts[label] = count;
  }
  const times = Object.fromEntries(entries.map(([label]) => [label, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [label, fn] of entries) {
      times[label].push((await cpuTime(fn, counts[label])) / counts[label]);
    }
  }
  return Object.fromEntries(entries.map(([label]) => [label, median(times[label])]));
}
