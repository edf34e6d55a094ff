// Section 7's race: which passkey runs learned the task at all. A run that does not answer the passkey at the
// length it was trained on (below LEARNED_AT_T, averaged over depths, zero-shot) is no evidence about reading
// longer: the claims leave it out of their passkey verdicts and the page names it, once per trained model. No DOM.
import { LEARNED_AT_T, ROPE_FAMILY, SCHEME_NAMES } from './plan.js';
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

/**
 * The note under the predictions: {never, counted, text}, counting trained models, so the RoPE family (one model per
 * seed, read four ways) counts once, under its first scheme present.
 */
export function unlearnedNote(passkey, T) {
  const family = ROPE_FAMILY.find((s) => passkey.has(s));
  const models = new Map([...passkey].filter(([scheme]) => !ROPE_FAMILY.includes(scheme) || scheme === family));
  const never = unlearnedRuns(models, T);
  const counted = [...models.values()].reduce((sum, runs) => sum + runs.length, 0);
  const name = (scheme) =>
    scheme === family ? `the RoPE model (its ${ROPE_FAMILY.length} readings alike at T)` : SCHEME_NAMES[scheme];
  const groups = [...new Set(never.map((r) => r.scheme))].map((scheme) => {
    const missed = never.filter((r) => r.scheme === scheme);
    const seeds = missed.map((r) => r.seed).join(', ');
    const shares = missed.map((r) => Math.round(100 * r.accuracy)).join(', ');
    return `${name(scheme)}, seed${missed.length > 1 ? 's' : ''} ${seeds} (${shares} %)`;
  });
  const rule = `${Math.round(100 * LEARNED_AT_T)} % of its passkeys answered at T = ${T}`;
  const text =
    counted === 0
      ? ''
      : never.length === 0
        ? `Every passkey model learned the task (at least ${rule}).`
        : `${never.length} of ${counted} passkey models never learned the task (fewer than ${rule}): left out of the passkey verdicts, still in the heatmaps’ means. ${groups.join('; ')}.`;
  return { never: never.length, counted, text };
}
