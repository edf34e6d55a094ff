// Section 7's race: which passkey runs learned the task at all. A run that does not answer the passkey at the
// length it was trained on (below LEARNED_AT_T, averaged over depths, zero-shot) is no evidence about reading
// longer: the claims leave it out of their passkey verdicts and the page names it. No DOM.
import { LEARNED_AT_T } from './plan.js';
import { readingOf, rangeMean } from './stats.js';

/** The accuracy at T of each run (one per seed), averaged over depths. */
export function accuracyAtT(runs, T) {
  return runs.map((run) => {
    const accuracy = readingOf(run, T, false).accuracyByDepth;
    return rangeMean(accuracy, 0, accuracy.length);
  });
}

/** Per run (seed): true when it learned the passkey at T (accuracy at T of at least LEARNED_AT_T). */
export function learnedSeeds(runs, T) {
  return accuracyAtT(runs, T).map((accuracy) => accuracy >= LEARNED_AT_T);
}

/**
 * The runs that never learned the task, per scheme: [{scheme, seed, accuracy}] over a Map scheme → runs, in the
 * Map's order.
 */
export function unlearnedRuns(passkey, T) {
  const out = [];
  for (const [scheme, runs] of passkey) {
    accuracyAtT(runs, T).forEach((accuracy, i) => {
      if (accuracy < LEARNED_AT_T) {
        out.push({ scheme, seed: runs[i].seed, accuracy });
      }
    });
  }
  return out;
}
