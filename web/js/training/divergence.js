// When a training run has diverged. Shared by the worker (which stops a diverged run and rolls it back) and the
// sections (which say so); no DOM here.

/** A run has diverged once its loss exceeds this many times ln V. */
export const DIVERGENCE_FACTOR = 2;

/**
 * The loss above which a run counts as diverged: twice ln V, the loss of a uniform guess over the V tokens (what
 * an untrained model scores). The page's model starts near ln V and goes down. Measured on section 2's model (seeds
 * 1-3, 300 steps): the loss peaks below 1.5× ln V at learning rates up to 0.1 and recovers; at 1 it stays finite
 * (gradient clipping) but peaks at 17-18× ln V.
 */
export function divergenceLimit(vocabSize) {
  return DIVERGENCE_FACTOR * Math.log(vocabSize);
}

/** True when a step's loss is NaN, infinite or above divergenceLimit(vocabSize). */
export function hasDiverged(loss, vocabSize) {
  return !Number.isFinite(loss) || loss > divergenceLimit(vocabSize);
}

/**
 * What a section says about a worker's `diverged` report ({step, loss, limit, rolledBackTo}); `outcome` says what
 * became of the model (by default: rolled back to step rolledBackTo).
 */
export function divergenceMessage({ step, loss, limit, rolledBackTo }, learningRate, outcome = undefined) {
  const what = Number.isFinite(loss) ? `the loss reached ${loss.toFixed(3)}` : `the loss became ${loss}`;
  const then = outcome ?? `The model is rolled back to step ${rolledBackTo}, its last snapshot before that.`;
  return `Stopped at step ${step}: ${what}, above ${limit.toFixed(3)} (twice the loss of a uniform guess, 2 ln V), so the run diverged. ${then} Try a smaller learning rate than ${learningRate}.`;
}
