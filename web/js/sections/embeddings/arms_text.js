// Section 2's four arms in words: the sentences under the figure, built from a run's summary (training/
// word_vector_arms.js' summariseArms). No DOM here (the tests import it in node).
import { ARM_NAMES, ARMS } from '../../training/word_vector_arms.js';

const f3 = (v) => v.toFixed(3);
const signed = (v) => `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(3)}`;

/** "5.236 (range 5.216 to 5.254)": the mean over seeds and the range; one seed: its value alone. */
export function spreadText({ mean, min, max, values }, format = f3) {
  return values.length === 1 ? format(mean) : `${format(mean)} (range ${format(min)} to ${format(max)})`;
}

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

/** A gap's size without its sign (its side is said in words): "0.480 (range 0.463 to 0.509)". */
const sizeText = (gap) =>
  spreadText({
    mean: Math.abs(gap.mean),
    min: Math.min(Math.abs(gap.min), Math.abs(gap.max)),
    max: Math.max(Math.abs(gap.min), Math.abs(gap.max)),
    values: gap.values,
  });

const SEEDS = (n) => (n === 1 ? 'the one seed' : n === 2 ? 'both seeds' : `all ${n} seeds`);

/** One sentence per arm against joint training, then the order of the four: what the run's numbers show. */
export function armsVerdict(summary, { steps, rowNorm }) {
  const n = summary.seeds.length;
  const joint = summary.arms.joint.valid;
  const parts = [
    `After ${steps} steps (row norm ${rowNorm.toFixed(2)}, seed${n === 1 ? '' : 's'} ${summary.seeds.join(', ')}), joint training reaches a validation loss of ${n === 1 ? f3(joint.mean) : `${f3(joint.mean)} (mean over seeds; range ${f3(joint.min)} to ${f3(joint.max)})`}.`,
  ];
  for (const arm of ARMS.slice(1)) {
    const gap = summary.gaps[arm];
    const side = gapSide(gap);
    const where =
      side === 'mixed'
        ? `on either side of joint training depending on the seed: gap ${spreadText(gap, signed)}`
        : `${side} joint training in ${SEEDS(n)}, by ${sizeText(gap)}`;
    parts.push(`${capitalised(ARM_NAMES[arm])}: ${spreadText(summary.arms[arm].valid)}, ${where}.`);
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
