// Training jobs shared by the Web Worker (web/js/worker.js) and the node tests: no DOM here.
// The corpus is a seeded stream of "who did what to whom" sentences, tokenized with a real BPE vocabulary;
// the model's vocabulary is the set of distinct token ids of that corpus (a handful of rows instead of 50k).

const NOUNS = ['dog', 'man', 'cat', 'bird', 'child', 'horse', 'teacher', 'farmer'];
const VERBS = ['bites', 'sees', 'chases', 'helps', 'feeds', 'follows'];
const DETS = ['the', 'a'];

/** splitmix32-style PRNG: deterministic integers in [0, n). */
export function rng(seed) {
  let s = seed >>> 0;
  return (n) => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    z = (z ^ (z >>> 16)) >>> 0;
    return z % n;
  };
}

/** `count` sentences such as "the dog bites a man." joined by spaces. */
export function sentences(count, seed) {
  const pick = rng(seed);
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
export function buildData(tokenizer) {
  const trainText = sentences(CORPUS.train.count, CORPUS.train.seed);
  const validText = sentences(CORPUS.valid.count, CORPUS.valid.seed);
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

/** A batch of `batch` random windows of `length` tokens (targets: the next token). */
export function randomBatch(stream, batch, length, pick) {
  const ids = [];
  const targets = [];
  for (let b = 0; b < batch; b++) {
    const start = pick(stream.length - length - 1);
    ids.push(stream.slice(start, start + length));
    targets.push(stream.slice(start + 1, start + length + 1));
  }
  return { ids, targets };
}

/** Fixed validation windows: `batch` evenly spaced windows of `length` tokens. */
export function validBatch(stream, batch, length) {
  const ids = [];
  const targets = [];
  const stride = Math.floor((stream.length - length - 1) / batch);
  for (let b = 0; b < batch; b++) {
    const start = b * stride;
    ids.push(stream.slice(start, start + length));
    targets.push(stream.slice(start + 1, start + length + 1));
  }
  return { ids, targets };
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

/** Model config for a scheme on this data. */
export function modelConfig(data, positions, options = {}) {
  const o = { ...MODEL_DEFAULTS, ...options };
  return {
    vocabSize: data.vocabSize,
    contextLength: o.contextLength,
    channels: o.channels,
    layers: o.layers,
    heads: o.heads,
    positions,
    causal: true,
    seed: o.seed,
    optimizer: { learningRate: o.learningRate },
  };
}

/**
 * Trains one model; calls onStep({step, loss, model}) after every step. Returns the model (caller disposes).
 * shouldStop() is checked between steps.
 */
export function trainModel(lab, data, positions, { steps, onStep, ...options }) {
  const o = { ...MODEL_DEFAULTS, ...options };
  const model = lab.createModel(modelConfig(data, positions, o));
  const pick = rng(o.seed * 7919 + 1);
  for (let s = 0; s < steps; s++) {
    const result = model.trainStep(randomBatch(data.train, o.batch, o.contextLength, pick));
    onStep?.({ step: result.step, loss: result.loss, model });
  }
  return model;
}

export const RACE_SCHEMES = ['learned', 'sinusoidal', 'rope', 'alibi', 'none'];
export const RACE_FACTORS = [1, 2, 4];

/** Validation loss at 1×, 2× and 4× the training length; {loss} or {error} per factor. */
export function evaluateLengths(model, data, contextLength, batch = 8) {
  return RACE_FACTORS.map((factor) => {
    const length = factor * contextLength;
    try {
      return { factor, length, loss: model.evaluate(validBatch(data.valid, batch, length)) };
    } catch (error) {
      return { factor, length, error: error.message };
    }
  });
}
