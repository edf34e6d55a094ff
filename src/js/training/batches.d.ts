// Training data from the project PRNG: seeded uniforms, random training windows of a token stream and
// evenly spaced evaluation windows. A seed gives the same numbers in both wasm flavours and natively.
import type { TokenIds, WasmHandle } from '../runtime/wasm_handle.js';

/** A batch of windows as flat arrays: what {@link Model.trainStep} and {@link Model.evaluate} accept. */
export interface WindowBatch {
  /** batch × length token ids, window after window. */
  ids: Int32Array;
  /** The token after each id (the next-token targets), same shape. */
  targets: Int32Array;
  batch: number;
  length: number;
}

/** Options of {@link EmbedLab.evenlySpacedWindows}. */
export interface WindowOptions {
  /** Windows per batch, in [1, limits.maxSequenceLength]. */
  batch: number;
  /** Tokens per window, in [1, limits.maxSequenceLength]; the stream needs at least length + 1 tokens. */
  length: number;
}

/** Options of {@link EmbedLab.corpusBatches}. */
export interface CorpusBatchesOptions extends WindowOptions {
  /** Integer in [0, 2^53]; default 0. */
  seed?: number;
}

/** Options of {@link EmbedLab.randomUniform}. */
export interface RandomUniformOptions {
  /** Integer in [0, 2^53]; default 0. */
  seed?: number;
}

/**
 * Random windows of a token stream (the batcher of the C++ trainer): each window starts at a uniform
 * position of the project PRNG, so a seed gives the same batches everywhere.
 */
export declare class CorpusBatches extends WasmHandle {
  /** Windows per batch. */
  readonly batch: number;
  /** Tokens per window. */
  readonly length: number;
  /** The next batch of random windows with their next-token targets. */
  next(): WindowBatch;
}
