// Training jobs shared by the Web Worker (web/js/workers/jobs.js) and the node tests: no DOM here.
// The corpus is a seeded stream of "who did what to whom" sentences, tokenized with a real BPE vocabulary;
// the model's vocabulary is the set of distinct token ids of that corpus (a handful of rows instead of 50k).

/** The corpus generator's nouns and verbs (section 2's roles and the tests read them too). */
export const NOUNS = ['dog', 'man', 'cat', 'bird', 'child', 'horse', 'teacher', 'farmer'];
export const VERBS = ['bites', 'sees', 'chases', 'helps', 'feeds', 'follows'];
const DETS = ['the', 'a'];

/** `count` sentences such as "the dog bites a man." joined by spaces, drawn with the library's PRNG. */
export function sentences(lab, count, seed) {
  const uniforms = lab.randomUniform(5 * count, { seed }); // five picks per sentence
  let next = 0;
  const pick = (n) => Math.floor(uniforms[next++] * n);
  const out = [];
  for (let i = 0; i < count; i++) {
    const s = NOUNS[pick(NOUNS.length)];
    let o = NOUNS[pick(NOUNS.length)];
    if (o === s) {
      o = NOUNS[(NOUNS.indexOf(s) + 1) % NOUNS.length];
    }
    out.push(`${DETS[pick(2)]} ${s} ${VERBS[pick(VERBS.length)]} ${DETS[pick(2)]} ${o}.`);
  }
  return out.join(' ');
}

export const CORPUS = { train: { count: 1500, seed: 11 }, valid: { count: 400, seed: 12 } };

/** Tokenizes train and validation text and maps the distinct ids to 0..V-1 (in order of first appearance). */
export function buildData(lab, tokenizer) {
  const trainText = sentences(lab, CORPUS.train.count, CORPUS.train.seed);
  const validText = sentences(lab, CORPUS.valid.count, CORPUS.valid.seed);
  const map = new Map();
  const labels = [];
  const originalIds = [];
  const local = (ids) =>
    Array.from(ids, (id) => {
      if (!map.has(id)) {
        map.set(id, labels.length);
        labels.push(tokenizer.decode([id]));
        originalIds.push(id);
      }
      return map.get(id);
    });
  const train = local(tokenizer.encode(trainText));
  const valid = local(tokenizer.encode(validText));
  return { train, valid, labels, originalIds, vocabSize: labels.length, sample: trainText.slice(0, 120) };
}

export const MODEL_DEFAULTS = {
  channels: 32,
  layers: 2,
  heads: 4,
  contextLength: 16,
  batch: 8,
  learningRate: 3e-3,
  seed: 1,
};

/**
 * The factor on the token vectors: x = s · wte[id] + position. Sinusoids have entries in [−1, 1] (row norm
 * √(C/2)) while wte starts at N(0, 0.02) (row norm 0.02·√C), so without the factor the input is almost pure
 * position; √C is what Vaswani et al. (2017, §3.4) multiply by. Other schemes keep GPT-2's 1.
 */
export function embeddingScaleFor(positions, channels) {
  return positions === 'sinusoidal' ? Math.sqrt(channels) : 1;
}

/**
 * Model config for a scheme on this data (options.embeddingScale overrides embeddingScaleFor; options.frozen names
 * tensors training leaves alone, e.g. ['wte.weight']).
 */
export function modelConfig(data, positions, options = {}) {
  const o = { ...MODEL_DEFAULTS, ...options };
  return {
    vocabSize: data.vocabSize,
    contextLength: o.contextLength,
    channels: o.channels,
    layers: o.layers,
    heads: o.heads,
    positions,
    embeddingScale: o.embeddingScale ?? embeddingScaleFor(positions, o.channels),
    causal: true,
    seed: o.seed,
    frozen: o.frozen ?? [],
    optimizer: { learningRate: o.learningRate },
  };
}

/**
 * Trains one model; calls onStep({step, loss, model}) after every step, and stops early when it returns false.
 * Returns the model (caller disposes).
 */
export function trainModel(lab, data, positions, { steps, onStep, ...options }) {
  const o = { ...MODEL_DEFAULTS, ...options };
  const model = lab.createModel(modelConfig(data, positions, o));
  const batches = trainingBatches(lab, data, o);
  try {
    for (let s = 0; s < steps; s++) {
      const result = model.trainStep(batches.next());
      if (onStep?.({ step: result.step, loss: result.loss, model }) === false) {
        break;
      }
    }
  } finally {
    batches.dispose();
  }
  return model;
}

/**
 * Random training windows of data.train for options {batch, contextLength, seed}; a model resumed after
 * `step` steps gets a stream of its own, so resuming does not replay the first run's batches. Caller disposes.
 */
export function trainingBatches(lab, data, options, step = 0) {
  const o = { ...MODEL_DEFAULTS, ...options };
  return lab.corpusBatches(data.train, { batch: o.batch, length: o.contextLength, seed: o.seed * 7919 + 1 + step });
}

export const RACE_FACTORS = [1, 2, 4];

/** Validation loss at 1×, 2× and 4× the training length; {loss} or {error} per factor. */
export function evaluateLengths(lab, model, data, contextLength, batch = 8) {
  return RACE_FACTORS.map((factor) => {
    const length = factor * contextLength;
    try {
      return { factor, length, loss: model.evaluate(lab.evenlySpacedWindows(data.valid, { batch, length })) };
    } catch (error) {
      return { factor, length, error: error.message };
    }
  });
}
