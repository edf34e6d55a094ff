// Token embeddings, positional encodings, self-attention, composition, comparison and the vector kernels.
import type { TokenIds, Vector, WasmHandle } from '../runtime/wasm_handle.js';
import type { EmbedLab } from '../lab.js';

/** A token embedding table: vocabSize rows of dim floats. */
export declare class TokenEmbedding extends WasmHandle {
  readonly vocabSize: number;
  readonly dim: number;
  /** The rows of `ids`, concatenated: a new Float32Array of ids.length × dim. */
  lookup(ids: TokenIds): Float32Array;
  /** The whole table, row-major: a new Float32Array of vocabSize × dim. */
  table(): Float32Array;
}

/** Kinds of additive positional encoding. */
export type PositionalKind = 'sinusoidal' | 'learned' | 'none';

/** A positional encoding: one dim-vector per position in [0, maxLength). */
export declare class PositionalEncoding extends WasmHandle {
  readonly kind: PositionalKind;
  readonly dim: number;
  readonly maxLength: number;
  /** The sinusoidal base (10000 by default); `undefined` for other kinds. */
  readonly base: number | undefined;
  /**
   * Vectors of positions [offset, offset + length): a new Float32Array of length × dim.
   * Sinusoidal rows are PE(pos, 2i) = sin(pos / base^(2i/d)), PE(pos, 2i+1) = cos(pos / base^(2i/d)).
   */
  table(length?: number, offset?: number): Float32Array;
  /** The vector of one position: a new Float32Array of dim. */
  row(position: number): Float32Array;
  /** Learned encodings only: replaces the vector of `position` with `values` (dim finite numbers). */
  setRow(position: number, values: Vector): void;
}

/** Output of {@link SelfAttention.forward}. */
export interface AttentionResult {
  /** length × dim. */
  outputs: Float32Array;
  /** length × length softmax weights, row = query. */
  weights: Float32Array;
}

/** One head of scaled dot-product self-attention with seeded Wq, Wk, Wv ~ N(0, 1/dim). */
export declare class SelfAttention extends WasmHandle {
  readonly dim: number;
  readonly causal: boolean;
  /** Runs attention over `vectors` (length × dim floats). */
  forward(vectors: Vector): AttentionResult;
}

/** Options of {@link EmbedLab.tokenEmbedding}. */
export interface TokenEmbeddingOptions {
  /** Rows in the table, in [1, 2^21]. */
  vocabSize: number;
  /** Floats per row, in [1, 16384]. */
  dim: number;
  /** PRNG seed, an integer in [0, 2^53]; the same seed gives the same table natively and in wasm. Default 0. */
  seed?: number;
  /** Standard deviation of the N(0, stddev) initialisation, in [0, 100]. Default 0.02 (GPT-2). */
  stddev?: number;
}

/** Options of {@link EmbedLab.positionalEncoding}. */
export interface PositionalEncodingOptions {
  /** Floats per position, in [1, 16384]; even for 'sinusoidal'. */
  dim: number;
  /** Positions in the table, in [1, 65536]. Default 1024. */
  maxLength?: number;
  /** 'sinusoidal' only: the base, finite in [1, 1e12]. Default 10000. */
  base?: number;
  /** 'learned' only: PRNG seed in [0, 2^53]. Default 0. */
  seed?: number;
  /** 'learned' only: N(0, stddev) initialisation, in [0, 100]. Default 0.02. */
  stddev?: number;
}

/** Options of {@link EmbedLab.selfAttention}. */
export interface SelfAttentionOptions {
  dim: number;
  /** PRNG seed in [0, 2^53]. Default 0. */
  seed?: number;
  /** Mask future positions. Default false. */
  causal?: boolean;
}

/** Options of {@link EmbedLab.compose}. */
export interface ComposeOptions {
  embedding: TokenEmbedding;
  /** `null` (default) for no positions. */
  positional?: PositionalEncoding | null;
  /** Position of the first token. Default 0. */
  offset?: number;
}

/** What enters layer 1, with both of its parts. All arrays are length × dim, row-major. */
export interface ComposedSequence {
  length: number;
  dim: number;
  tokenVectors: Float32Array;
  positionVectors: Float32Array;
  /** tokenVectors + positionVectors. */
  inputVectors: Float32Array;
}

/** Options of {@link EmbedLab.compare}. */
export interface CompareOptions {
  embedding: TokenEmbedding;
  positional?: PositionalEncoding | null;
  /**
   * The attention layer applied to both sequences: a {@link SelfAttention} of the same dim, options for a
   * temporary one, `true` for the defaults, or `false`/`null` for none. Default `{ seed: 0, causal: false }`.
   */
  attention?: SelfAttention | Omit<SelfAttentionOptions, 'dim'> | boolean | null;
}

/** Result of {@link EmbedLab.compare}. */
export interface Comparison {
  /** Tokens in A. */
  rows: number;
  /** Tokens in B. */
  cols: number;
  dim: number;
  /** rows × cols cosine similarities of the input vectors. */
  similarity: Float32Array;
  /** Cosine of the mean-pooled input vectors (order-blind even with additive positions). */
  pooledCosine: number;
  /** After one self-attention layer; null when attention was disabled. */
  attention: AttentionComparison | null;
}

/** The part of a {@link Comparison} after one self-attention layer. */
export interface AttentionComparison {
  outputsA: Float32Array;
  outputsB: Float32Array;
  /** rows × cols cosine similarities of the attention outputs. */
  similarity: Float32Array;
  /** Cosine of the mean-pooled attention outputs. */
  pooledCosine: number;
}

/** {@link CompareOptions} that keep the attention layer (the default), so the result has `attention`. */
export interface CompareWithAttentionOptions extends CompareOptions {
  attention?: SelfAttention | Omit<SelfAttentionOptions, 'dim'> | true;
}

/** {@link CompareOptions} without the attention layer, so the result's `attention` is null. */
export interface CompareWithoutAttentionOptions extends CompareOptions {
  attention: false | null;
}

/** The raw vector kernels (Highway SIMD), on copies of the inputs. */
export interface Kernels {
  dot(a: Vector, b: Vector): number;
  norm(a: Vector): number;
  /** 0 when either vector is all zeros. */
  cosine(a: Vector, b: Vector): number;
  add(a: Vector, b: Vector): Float32Array;
  /** y + alpha · x, as a new array. */
  scaledAdd(alpha: number, x: Vector, y: Vector): Float32Array;
  /** Cosines of every row of a against every row of b (rows of dim floats). */
  cosineMatrix(a: Vector, b: Vector, dim: number): Float32Array;
  /** [sin(a0), cos(a0), sin(a1), cos(a1), ...] for any angles (reduced to [-pi, pi] in double first). */
  sinCos(angles: Vector): Float32Array;
}
