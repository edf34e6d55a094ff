// EmbedLab's embedding methods: token embeddings, positional encodings, self-attention, composing and
// comparing sequences, and the raw vector kernels. Each function takes the lab's internals ({lab, raw}, see
// runtime/wasm_instance.js).
import {
  describe,
  requireBoolean,
  requireIds,
  requireInteger,
  requireNumber,
  requireOptions,
  requireSeed,
  requireVector,
} from '../runtime/checks.js';

const TWO_PI = 2 * Math.PI;
import { PositionalEncoding, SelfAttention, TokenEmbedding } from './handles.js';
/** @import { LabInternals, TokenIds, Vector } from '../runtime/types.js' */
/** @import * as types from './types.js' */

/**
 * @param {LabInternals} internals
 * @param {types.TokenEmbeddingOptions} options
 * @returns {TokenEmbedding}
 */
export function tokenEmbedding({ lab, raw }, options) {
  const {
    vocabSize,
    dim,
    seed = 0,
    stddev = 0.02,
  } = requireOptions('options', options, ['vocabSize', 'dim', 'seed', 'stddev']);
  requireInteger('vocabSize', vocabSize, 1, lab.limits.maxVocabSize);
  requireInteger('dim', dim, 1, lab.limits.maxDim);
  requireSeed('seed', seed, lab.limits);
  requireNumber('stddev', stddev, 0, 100);
  return new TokenEmbedding(
    lab,
    lab.call(() => raw.createTokenEmbedding(vocabSize, dim, seed, stddev)),
  );
}

/**
 * @param {LabInternals} internals
 * @param {types.PositionalKind} kind
 * @param {types.PositionalEncodingOptions} options
 * @returns {PositionalEncoding}
 */
export function positionalEncoding({ lab, raw }, kind, options) {
  if (typeof kind !== 'string') {
    // positionalEncoding({dim: 8}) forgot the kind: say so, rather than blame the missing options' dim.
    throw new TypeError(`kind must be 'sinusoidal', 'learned' or 'none' (the first argument), got ${describe(kind)}`);
  }
  const {
    dim,
    maxLength = 1024,
    base = 10000,
    seed = 0,
    stddev = 0.02,
  } = requireOptions('options', options, ['dim', 'maxLength', 'base', 'seed', 'stddev']);
  requireInteger('dim', dim, 1, lab.limits.maxDim);
  requireInteger('maxLength', maxLength, 1, lab.limits.maxSequenceLength);
  let encoding;
  if (kind === 'sinusoidal') {
    requireNumber('base', base, 1, 1e12);
    encoding = lab.call(() => raw.createSinusoidalEncoding(dim, maxLength, base));
  } else if (kind === 'learned') {
    requireSeed('seed', seed, lab.limits);
    requireNumber('stddev', stddev, 0, 100);
    encoding = lab.call(() => raw.createLearnedEncoding(maxLength, dim, seed, stddev));
  } else if (kind === 'none') {
    encoding = lab.call(() => raw.createNoPositionalEncoding(dim, maxLength));
  } else {
    throw new TypeError(`kind must be 'sinusoidal', 'learned' or 'none', got ${describe(kind)}`);
  }
  return new PositionalEncoding(lab, encoding);
}

/**
 * @param {Pick<LabInternals, 'lab' | 'raw'>} internals
 * @param {types.SelfAttentionOptions} options
 * @returns {SelfAttention}
 */
export function selfAttention({ lab, raw }, options) {
  const { dim, seed = 0, causal = false } = requireOptions('options', options, ['dim', 'seed', 'causal']);
  requireInteger('dim', dim, 1, lab.limits.maxDim);
  requireSeed('seed', seed, lab.limits);
  requireBoolean('causal', causal);
  return new SelfAttention(
    lab,
    lab.call(() => raw.createSelfAttention(dim, seed, causal)),
  );
}

// The raw Embind object of a handle argument, which must come from this lab and not be disposed.
/**
 * @param {LabInternals['lab']} lab
 * @param {string} name
 * @param {unknown} value
 * @param {typeof TokenEmbedding | typeof PositionalEncoding | typeof SelfAttention} type
 * @returns {any}
 */
function rawHandle(lab, name, value, type) {
  if (!(value instanceof type)) {
    throw new TypeError(`${name} must be a ${type.name} from this EmbedLab, got ${describe(value)}`);
  }
  if (value.lab !== lab) {
    throw new TypeError(`${name} belongs to another EmbedLab instance`);
  }
  return value.raw(name);
}

/**
 * @param {LabInternals} internals
 * @param {TokenIds} ids
 * @param {types.ComposeOptions} options
 * @returns {types.ComposedSequence}
 */
export function compose({ lab, raw }, ids, options) {
  const {
    embedding,
    positional = null,
    offset = 0,
  } = requireOptions('options', options, ['embedding', 'positional', 'offset']);
  requireIds('ids', ids, lab.limits.maxSequenceLength);
  const rawEmbedding = rawHandle(lab, 'embedding', embedding, TokenEmbedding);
  const rawPositional = positional === null ? null : rawHandle(lab, 'positional', positional, PositionalEncoding);
  requireInteger('offset', offset, 0, lab.limits.maxSequenceLength);
  return lab.call(() => raw.compose(ids, rawEmbedding, rawPositional, offset));
}

/**
 * @param {LabInternals} internals
 * @param {TokenIds} idsA
 * @param {TokenIds} idsB
 * @param {types.CompareOptions} options
 * @returns {types.Comparison}
 */
export function compare({ lab, raw }, idsA, idsB, options) {
  const {
    embedding,
    positional = null,
    attention = {},
  } = requireOptions('options', options, ['embedding', 'positional', 'attention']);
  requireIds('idsA', idsA, lab.limits.maxSequenceLength);
  requireIds('idsB', idsB, lab.limits.maxSequenceLength);
  const rawEmbedding = rawHandle(lab, 'embedding', embedding, TokenEmbedding);
  const rawPositional = positional === null ? null : rawHandle(lab, 'positional', positional, PositionalEncoding);
  if (attention === null || attention === false) {
    return lab.call(() => raw.compare(idsA, idsB, rawEmbedding, rawPositional, null));
  }
  if (attention instanceof SelfAttention) {
    const rawAttention = rawHandle(lab, 'attention', attention, SelfAttention);
    return lab.call(() => raw.compare(idsA, idsB, rawEmbedding, rawPositional, rawAttention));
  }
  const attentionOptions = attention === true ? {} : requireOptions('attention', attention, ['seed', 'causal']);
  const temporary = selfAttention({ lab, raw }, { ...attentionOptions, dim: embedding.dim });
  try {
    return lab.call(() => raw.compare(idsA, idsB, rawEmbedding, rawPositional, temporary.raw()));
  } finally {
    temporary.dispose();
  }
}

/**
 * The vector kernels, each checking its arguments before the raw call.
 * @param {LabInternals} internals
 * @returns {types.Kernels}
 */
export function makeKernels({ lab, raw }) {
  /** @type {(a: Vector, b: Vector) => void} */
  const pair = (a, b) => {
    requireVector('a', a);
    requireVector('b', b, a.length);
  };
  return {
    dot: (a, b) => (pair(a, b), lab.call(() => raw.dot(a, b))),
    norm: (a) => (requireVector('a', a), lab.call(() => raw.norm(a))),
    cosine: (a, b) => (pair(a, b), lab.call(() => raw.cosine(a, b))),
    add: (a, b) => (pair(a, b), lab.call(() => raw.add(a, b))),
    scaledAdd: (alpha, x, y) => {
      requireNumber('alpha', alpha, -Number.MAX_VALUE, Number.MAX_VALUE);
      requireVector('x', x);
      requireVector('y', y, x.length);
      return lab.call(() => raw.scaledAdd(alpha, x, y));
    },
    cosineMatrix: (a, b, dim) => {
      requireVector('a', a);
      requireVector('b', b);
      requireInteger('dim', dim, 1, lab.limits.maxDim);
      return lab.call(() => raw.cosineMatrix(a, b, dim));
    },
    sinCos: (angles) => {
      requireVector('angles', angles);
      // The kernel's polynomials hold on [-pi, pi]: reduce in double first, so any angle is as exact as the
      // float32 result allows (an error of about |angle| * 1e-16 from the reduction itself).
      const reduced = Float64Array.from(angles, (a) => a - TWO_PI * Math.round(a / TWO_PI));
      return lab.call(() => raw.sinCos(reduced));
    },
  };
}
