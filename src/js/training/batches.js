// EmbedLab's training-data methods: seeded uniforms from the project PRNG, random training windows of a
// token stream (CorpusBatches, the batcher of the C++ trainer) and fixed, evenly spaced evaluation windows.
// A seed gives the same numbers here, in the other wasm flavour and natively. Each function takes the lab's
// internals ({lab, raw}, see runtime/wasm_instance.js).
import { requireIds, requireInteger, requireOptions } from '../runtime/checks.js';
import { WasmHandle } from '../runtime/wasm_handle.js';

const SEED_MAX = 2 ** 53;
const MAX_UNIFORMS = 2 ** 24;
const MAX_STREAM_TOKENS = 2 ** 28;

/** Random windows of a token stream: next() gives {ids, targets, batch, length} for Model.trainStep. */
export class CorpusBatches extends WasmHandle {
  /** Windows per batch. */
  get batch() {
    return this.raw().batch();
  }

  /** Tokens per window. */
  get length() {
    return this.raw().length();
  }

  /** The next batch: flat Int32Arrays of batch × length ids and their next-token targets. */
  next() {
    const raw = this.raw();
    return this.lab.call(() => raw.next());
  }
}

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

export function randomUniform({ lab, raw }, count, options) {
  requireInteger('count', count, 0, MAX_UNIFORMS);
  const { seed = 0 } = requireOptions('options', options, ['seed']);
  requireInteger('seed', seed, 0, SEED_MAX);
  return lab.call(() => raw.randomUniform(count, seed));
}

export function corpusBatches({ lab, raw }, tokens, options) {
  const { batch, length, seed = 0 } = requireOptions('options', options, ['batch', 'length', 'seed']);
  requireWindows(lab, tokens, batch, length);
  requireInteger('seed', seed, 0, SEED_MAX);
  return new CorpusBatches(
    lab,
    lab.call(() => raw.createCorpusBatches(tokens, batch, length, seed)),
  );
}

export function evenlySpacedWindows({ lab, raw }, tokens, options) {
  const { batch, length } = requireOptions('options', options, ['batch', 'length']);
  requireWindows(lab, tokens, batch, length);
  return lab.call(() => raw.evenlySpacedWindows(tokens, batch, length));
}
