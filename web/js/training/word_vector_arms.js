// Section 2's four arms, shared by the jobs worker, the node tests and tests/bench/word_vector_arms.mjs (no DOM):
// the same tiny GPT on the Brown excerpt with its token table (a) trained jointly from a random start, (b) GloVe
// pretrained on the training text and frozen, (c) the same GloVe start fine-tuned, (d) a random table frozen. Every
// arm starts at the same RMS row norm: the head is tied, so a frozen table's row norm caps the logits.

export const ARMS = ['joint', 'gloveFrozen', 'gloveTuned', 'randomFrozen'];
export const ARM_NAMES = {
  joint: 'trained jointly from random',
  gloveFrozen: 'GloVe, frozen',
  gloveTuned: 'GloVe, fine-tuned',
  randomFrozen: 'random, frozen (control)',
};
/** The arms' names in a table's narrow column. */
export const ARM_SHORT_NAMES = {
  joint: 'joint',
  gloveFrozen: 'GloVe frozen',
  gloveTuned: 'GloVe fine-tuned',
  randomFrozen: 'random frozen',
};
const FROZEN = { joint: false, gloveFrozen: true, gloveTuned: false, randomFrozen: true };
const GLOVE_START = { joint: false, gloveFrozen: true, gloveTuned: true, randomFrozen: false };

/** The model, optimizer, data and GloVe settings of every arm (the page's defaults: steps, seeds, row norm). */
export const ARMS_SETUP = Object.freeze({
  vocabSize: 1024,
  pattern: 'gpt2',
  channels: 32,
  layers: 2,
  heads: 4,
  contextLength: 32,
  batch: 8,
  learningRate: 3e-3,
  evalRows: 64,
  evalPoints: 10,
  glove: Object.freeze({ window: 10, epochs: 25 }),
  steps: 400,
  seeds: Object.freeze([1, 2, 3]),
  rowNorm: 1,
});

/** The row norms the page offers: GPT-2's stddev 0.02 at d = 32 (0.11), 1, and stddev 0.5 (2.83). */
export const ROW_NORMS = Object.freeze([0.02 * Math.sqrt(32), 1, 0.5 * Math.sqrt(32)]);

/** Every 8th document of the excerpt (from the 5th) is held out for validation; the rest is training text. */
export function splitCorpus(text) {
  const documents = text.trimEnd().split('\n\n');
  const held = (i) => i % 8 === 4;
  return {
    train: documents.filter((_, i) => !held(i)).join('\n\n'),
    valid: documents.filter((_, i) => held(i)).join('\n\n'),
    documents: documents.length,
  };
}

/**
 * The experiment's data: a byte-level BPE of `vocabSize` tokens trained on the training split only, both splits
 * encoded with it, each token's label and its count in the training ids.
 */
export async function armsCorpus(lab, text, { vocabSize = ARMS_SETUP.vocabSize } = {}) {
  const { train, valid, documents } = splitCorpus(text);
  const tokenizer = await lab.trainTokenizer(train, { vocabSize, pattern: ARMS_SETUP.pattern });
  try {
    const trainIds = tokenizer.encodeOrdinary(train);
    const validIds = tokenizer.encodeOrdinary(valid);
    const counts = new Uint32Array(tokenizer.vocabSize);
    trainIds.forEach((id) => counts[id]++);
    const decoder = new TextDecoder();
    const labels = Array.from({ length: tokenizer.vocabSize }, (_, id) => decoder.decode(tokenizer.tokenBytes(id)));
    return { trainIds, validIds, counts, labels, vocabSize: tokenizer.vocabSize, documents };
  } finally {
    tokenizer.dispose();
  }
}

/** sqrt(mean over rows of |row|²): the scale every arm's table starts at. */
export function rmsRowNorm(table, dim) {
  let sum = 0;
  for (const v of table) {
    sum += v * v;
  }
  return Math.sqrt((sum / table.length) * dim);
}

/** The table times one factor, so that its RMS row norm is `norm` (relative row lengths kept). */
export function scaledTo(table, dim, norm) {
  const factor = norm / rmsRowNorm(table, dim);
  return Float32Array.from(table, (v) => v * factor);
}

/** The steps at which an arm's validation loss is read: 0, then evalPoints evenly up to `steps`. */
export function evalSteps(steps, points = ARMS_SETUP.evalPoints) {
  const n = Math.min(points, steps);
  return [0, ...Array.from({ length: n }, (_, k) => Math.round(((k + 1) * steps) / n))];
}

function modelConfig(data, setup, seed, frozen) {
  return {
    vocabSize: data.vocabSize,
    contextLength: setup.contextLength,
    channels: setup.channels,
    layers: setup.layers,
    heads: setup.heads,
    positions: 'learned',
    causal: true,
    seed,
    frozen: frozen ? ['wte.weight'] : [],
    optimizer: { learningRate: setup.learningRate },
  };
}

/** The arms that share a start, so that a worker computes it once: the page runs each group of a seed as a job. */
export const ARM_GROUPS = Object.freeze([
  ['joint', 'randomFrozen'],
  ['gloveFrozen', 'gloveTuned'],
]);

/**
 * One seed of the experiment (or the arms of it listed in `arms`): GloVe (seed `seed`) on the training ids when an
 * arm starts from it, then each arm from the same model seed on the same batches. onProgress({arm, step, steps,
 * loss, valid?}) after every step (valid at the eval steps). Returns {seed, glove: {losses, seconds} | null, arms:
 * {[arm]: {curve: [{step, valid}], valid, wte}}}.
 */
export async function armsSeed(
  lab,
  data,
  { seed, steps, rowNorm, arms: which = ARMS, ...rest },
  onProgress = () => {},
) {
  const setup = { ...ARMS_SETUP, ...rest };
  const dim = setup.channels;
  const fresh = lab.createModel(modelConfig(data, setup, seed, false));
  const starts = { random: scaledTo(fresh.tokenEmbeddings(), dim, rowNorm) };
  fresh.dispose();
  let glove = null;
  if (which.some((arm) => GLOVE_START[arm])) {
    const started = performance.now();
    const trained = await lab.trainWordVectors({
      ids: data.trainIds,
      vocabSize: data.vocabSize,
      dim,
      ...setup.glove,
      seed,
    });
    glove = { losses: trained.losses, seconds: (performance.now() - started) / 1000 };
    starts.glove = scaledTo(trained.vectors, dim, rowNorm);
  }
  const validWindows = lab.evenlySpacedWindows(data.validIds, { batch: setup.evalRows, length: setup.contextLength });
  const reads = new Set(evalSteps(steps, setup.evalPoints));
  const arms = {};
  for (const arm of which) {
    const model = lab.createModel(modelConfig(data, setup, seed, FROZEN[arm]));
    const batches = lab.corpusBatches(data.trainIds, {
      batch: setup.batch,
      length: setup.contextLength,
      seed: seed * 7919 + 1,
    });
    try {
      model.setTensor('wte.weight', GLOVE_START[arm] ? starts.glove : starts.random);
      const curve = [{ step: 0, valid: model.evaluate(validWindows) }];
      onProgress({ arm, step: 0, steps, loss: NaN, valid: curve[0].valid });
      for (let s = 1; s <= steps; s++) {
        const { loss } = model.trainStep(batches.next());
        if (!Number.isFinite(loss)) {
          throw new Error(`arm “${ARM_NAMES[arm]}”, seed ${seed}: the loss became ${loss} at step ${s}`);
        }
        const valid = reads.has(s) ? model.evaluate(validWindows) : undefined;
        if (valid !== undefined) {
          curve.push({ step: s, valid });
        }
        onProgress({ arm, step: s, steps, loss, valid });
      }
      arms[arm] = { curve, valid: curve.at(-1).valid, wte: model.tokenEmbeddings() };
    } finally {
      batches.dispose();
      model.dispose();
    }
  }
  return { seed, glove, arms };
}

const spread = (values) => ({
  mean: values.reduce((a, b) => a + b, 0) / values.length,
  min: Math.min(...values),
  max: Math.max(...values),
  values,
});

/**
 * Over seeds: each arm's final validation loss and curve (mean, min, max), and each arm's gap to the joint arm,
 * seed by seed (arm − joint: positive is worse than joint training).
 */
export function summariseArms(runs) {
  const summary = { seeds: runs.map((r) => r.seed), arms: {}, gaps: {} };
  for (const arm of ARMS) {
    const curves = runs.map((r) => r.arms[arm].curve);
    summary.arms[arm] = {
      valid: spread(runs.map((r) => r.arms[arm].valid)),
      steps: curves[0].map((p) => p.step),
      curve: curves[0].map((_, k) => spread(curves.map((c) => c[k].valid))),
    };
    summary.gaps[arm] = spread(runs.map((r) => r.arms[arm].valid - r.arms.joint.valid));
  }
  return summary;
}

/**
 * The tokens whose neighbours the page shows: whole lower-case words with their space (" said": a letter never
 * follows them in ≥ 90 % of their uses, so not the first piece of longer words), the `count` most frequent in the
 * training ids and the `count` rarest seen at least `minRare` times.
 */
export function probeTokens(data, { count = 3, minRare = 20 } = {}) {
  const { trainIds, labels, counts } = data;
  const startsWord = labels.map((label) => !/^\p{L}/u.test(label));
  const ended = new Uint32Array(data.vocabSize); // uses followed by a token that does not go on with a letter
  for (let i = 0; i + 1 < trainIds.length; i++) {
    if (startsWord[trainIds[i + 1]]) {
      ended[trainIds[i]]++;
    }
  }
  const words = labels
    .map((label, id) => ({ id, label, n: counts[id] }))
    .filter(({ id, label, n }) => /^ [a-z]{3,}$/.test(label) && n > 0 && ended[id] >= 0.9 * n)
    .sort((a, b) => b.n - a.n || a.id - b.id);
  const rare = words.filter(({ n }) => n >= minRare).slice(-count);
  return { frequent: words.slice(0, count).map((w) => w.id), rare: rare.map((w) => w.id) };
}

/** The k rows nearest row `id` by cosine among tokens seen in training: [{id, label, cosine}]. */
export function nearestTokens(lab, data, wte, id, k = 3) {
  const skip = [];
  data.counts.forEach((n, j) => n === 0 && skip.push(j));
  return lab
    .nearestRows(wte, wte.length / data.vocabSize, id, { k, skip })
    .map(({ row, cosine }) => ({ id: row, label: data.labels[row], cosine }));
}
