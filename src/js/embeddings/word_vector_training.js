// lab.trainWordVectors: GloVe trained in the C++ core (embed/glove_trainer.h), driven here in slices of about 16 ms
// of co-occurrence pairs, so a long run yields to the event loop, reports every epoch and stops at an AbortSignal.
import {
  describe,
  requireIds,
  requireIntegerType,
  requireNumberType,
  requireOptions,
  requireSeed,
  requireSignal,
} from '../runtime/checks.js';
import { SliceSizer, yieldToEventLoop } from '../runtime/scheduling.js';
/** @import { LabInternals } from '../runtime/types.js' */
/** @import { TrainWordVectorsOptions, TrainedWordVectors } from './types.js' */

const OPTIONS = [
  'ids',
  'vocabSize',
  'dim',
  'window',
  'epochs',
  'xMax',
  'alpha',
  'learningRate',
  'seed',
  'onProgress',
  'signal',
];

/**
 * @param {LabInternals} internals
 * @param {TrainWordVectorsOptions} options
 * @returns {Promise<TrainedWordVectors>}
 */
export async function trainWordVectors({ lab, raw }, options) {
  const given = requireOptions('options', options, OPTIONS);
  // The core's defaults (glove.c's) and caps; every range is the core's to check, under these names.
  const defaults = raw.wordVectorDefaults();
  const ids = requireIds('ids', given.ids, defaults.maxTokens);
  /** @type {Record<string, number>} */
  const numbers = {};
  for (const key of ['vocabSize', 'dim', 'window', 'epochs']) {
    numbers[key] = requireIntegerType(key, given[key] ?? defaults[key]);
  }
  for (const key of ['xMax', 'alpha', 'learningRate']) {
    numbers[key] = requireNumberType(key, given[key] ?? defaults[key]);
  }
  const seed = requireSeed('seed', given.seed ?? defaults.seed, lab.limits);
  const { onProgress, signal } = given;
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw new TypeError(`onProgress must be a function, got ${describe(onProgress)}`);
  }
  requireSignal('signal', signal);
  const trainer = lab.call(() => raw.createWordVectorTrainer(ids, numbers, seed));
  try {
    // A slice never asks for more than one epoch's pairs (advance stops at an epoch's end anyway).
    const sizer = new SliceSizer(16, Math.max(1, trainer.pairCount()));
    sizer.count = Math.min(1024, sizer.maxCount);
    let reported = 0;
    let aborted = false;
    for (;;) {
      if (signal?.aborted) {
        aborted = true;
        break;
      }
      const started = performance.now();
      const done = lab.call(() => trainer.advance(sizer.count));
      sizer.update(performance.now() - started);
      if (onProgress !== undefined) {
        const losses = trainer.losses();
        for (; reported < losses.length; reported++) {
          onProgress({ epoch: reported + 1, epochs: numbers.epochs, loss: losses[reported] });
        }
      }
      if (done) {
        break;
      }
      await yieldToEventLoop();
    }
    const result = lab.call(() => trainer.result());
    return { ...result, losses: Array.from(result.losses), aborted };
  } finally {
    trainer.delete();
  }
}
