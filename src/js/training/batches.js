// EmbedLab's training-data methods: seeded uniforms from the project PRNG, random training windows of a
// token stream (CorpusBatches, the batcher of the C++ trainer) and fixed, evenly spaced evaluation windows.
// A seed gives the same numbers here, in the other wasm flavour and natively. Each function takes the lab's
// internals ({lab, raw}, see runtime/wasm_instance.js).
import { requireIds, requireInteger, requireIntegerType, requireOptions, requireSeed } from '../runtime/checks.js';
import { WasmHandle } from '../runtime/wasm_handle.js';
/** @import { EmbedLab } from '../lab.js' */
/** @import { LabInternals, TokenIds } from '../runtime/types.js' */
/** @import * as types from './types.js' */

const MAX_STREAM_TOKENS = 2 ** 28;

/**
 * Random windows of a token stream (the batcher of the C++ trainer): each window starts at a uniform
 * position of the project PRNG, so a seed gives the same batches everywhere. next() gives {ids, targets, batch,
 * length} for Model.trainStep.
 */
export class CorpusBatches extends WasmHandle {
  /**
   * Windows per batch.
   * @returns {number}
   */
  get batch() {
    return this.raw().batch();
  }

  /**
   * Tokens per window.
   * @returns {number}
   */
  get length() {
    return this.raw().length();
  }

  /**
   * The next batch of random windows: flat Int32Arrays of batch × length ids and their next-token targets.
   * @returns {types.WindowBatch}
   */
  next() {
    const raw = this.raw();
    return this.lab.call(() => raw.next());
  }
}

/**
 * @param {EmbedLab} lab
 * @param {TokenIds} tokens
 * @param {number} batch
 * @param {number} length
 */
function requireWindows(lab, tokens, batch, length) {
  requireIds('tokens', tokens, MAX_STREAM_TOKENS);
  requireInteger('batch', batch, 1, lab.limits.maxSequenceLength);
  requireInteger('length', length, 1, lab.limits.maxSequenceLength);
  if (tokens.length < length + 1) {
    throw new RangeError(
      `tokens.length must be at least length + 1 = ${length + 1} (a window and its next token), got ${tokens.length}`,
    );
  }
}

/**
 * @param {LabInternals} internals
 * @param {number} count
 * @param {types.RandomUniformOptions} [options]
 * @returns {Float64Array}
 */
export function randomUniform({ lab, raw }, count, options) {
  requireIntegerType('count', count); // its range is the core's (training/random_uniforms.h)
  const { seed = 0 } = requireOptions('options', options, ['seed']);
  requireSeed('seed', seed, lab.limits);
  return lab.call(() => raw.randomUniform(count, seed));
}

/**
 * @param {LabInternals} internals
 * @param {TokenIds} tokens
 * @param {types.CorpusBatchesOptions} options
 * @returns {CorpusBatches}
 */
export function corpusBatches({ lab, raw }, tokens, options) {
  const { batch, length, seed = 0 } = requireOptions('options', options, ['batch', 'length', 'seed']);
  requireWindows(lab, tokens, batch, length);
  requireSeed('seed', seed, lab.limits);
  return new CorpusBatches(
    lab,
    lab.call(() => raw.createCorpusBatches(tokens, batch, length, seed)),
  );
}

/**
 * @param {LabInternals} internals
 * @param {TokenIds} tokens
 * @param {types.WindowOptions} options
 * @returns {types.WindowBatch}
 */
export function evenlySpacedWindows({ lab, raw }, tokens, options) {
  const { batch, length } = requireOptions('options', options, ['batch', 'length']);
  requireWindows(lab, tokens, batch, length);
  return lab.call(() => raw.evenlySpacedWindows(tokens, batch, length));
}
