// Section 2's four arms in words: the sentences under the figure, built from a run's summary (training/
// word_vector_arms.js' summariseArms). No DOM here (the tests import it in node).
import { ARM_NAMES, ARMS } from '../../training/word_vector_arms.js';

const f3 = (v) => v.toFixed(3);
/** "+0.480", "−0.232": a gap with its sign. */
export const signed = (v) => `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(3)}`;

/** "5.236 [5.216, 5.254]": the mean and the range, for a table's cell; one seed: its value alone. */
export function rangeText({ mean, min, max, values }, format) {
  return values.length === 1 ? format(mean) : `${format(mean)} [${format(min)}, ${format(max)}]`;
}

/** Whether an arm's gap to joint training has the same sign in every seed: 'below', 'above' or 'mixed'. */
export function gapSide(gap) {
  if (gap.max < 0) {
    return 'below';
  }
  if (gap.min > 0) {
    return 'above';
  }
  return 'mixed';
}

const SEEDS = (n) => (n === 1 ? 'the one seed' : n === 2 ? 'both seeds' : `all ${n} seeds`);

/**
 * One sentence per arm against joint training, then the order of the four: what the run's numbers show (the ranges
 * are in the table beside it). A side is claimed only when every seed is on it.
 */
export function armsVerdict(summary, { steps, rowNorm }) {
  const n = summary.seeds.length;
  const average = n === 1 ? '' : ' on average';
  const parts = [
    `After ${steps} steps (row norm ${rowNorm.toFixed(2)}, seed${n === 1 ? '' : 's'} ${summary.seeds.join(', ')}), joint training reaches a validation loss of ${f3(summary.arms.joint.valid.mean)}${average}.`,
  ];
  for (const arm of ARMS.slice(1)) {
    const gap = summary.gaps[arm];
    const side = gapSide(gap);
    const where =
      side === 'mixed'
        ? `ends on either side of it depending on the seed (gap ${signed(gap.min)} to ${signed(gap.max)})`
        : `ends ${side} it in ${SEEDS(n)}, by ${f3(Math.abs(gap.mean))}${average}`;
    parts.push(`${capitalised(ARM_NAMES[arm])} ${where}.`);
  }
  const order = [...ARMS].sort((a, b) => summary.arms[a].valid.mean - summary.arms[b].valid.mean);
  parts.push(`Best first, by the mean: ${order.map((arm) => ARM_NAMES[arm]).join(' < ')}.`);
  return parts.join(' ');
}

const capitalised = (text) => text[0].toUpperCase() + text.slice(1);

/** The setup of a run, for the status line and the figure's caption. */
export function armsSetupText({ steps, seeds, rowNorm, data, setup }) {
  return `${steps} AdamW steps of ${setup.batch} × ${setup.contextLength} tokens per arm (learning rate ${setup.learningRate}), seeds ${seeds.join(', ')}, every table at RMS row norm ${rowNorm.toFixed(2)}; ${data.vocabSize}-token BPE trained on the training documents (${data.trainIds.length} tokens); validation: ${setup.evalRows} windows of ${setup.contextLength} tokens from the held-out documents.`;
}
