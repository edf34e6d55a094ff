// Token embeddings, positional encodings, self-attention, composition, comparison and the vector kernels.
import type { TokenIds, Vector } from '../runtime/types.js';
import type { PositionalEncoding, SelfAttention, TokenEmbedding } from './handles.js';
import type { EmbedLab } from '../lab.js';

/** Kinds of additive positional encoding. */
export type PositionalKind = 'sinusoidal' | 'learned' | 'none';

/** Output of {@link SelfAttention.forward}. */
export interface AttentionResult {
  /** length × dim. */
  outputs: Float32Array;
  /** length × length softmax weights, row = query. */
  weights: Float32Array;
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

// Nearest neighbours by cosine among the rows of any table (token embeddings, word vectors).

/** Options of {@link EmbedLab.nearestRows}. */
export interface NearestRowsOptions {
  /** How many rows to return (at least 1); default 10. Fewer come back when fewer rows remain. */
  k?: number;
  /** Row indices to leave out (for example rows without a label). */
  skip?: ArrayLike<number>;
}

/** One neighbour: its row in the table and its cosine to the query. */
export interface RowCosine {
  row: number;
  cosine: number;
}

// Principal components of a table's rows (token or position embeddings), for 2-D plots.

/** Options of {@link EmbedLab.principalComponents}. */
export interface PrincipalComponentsOptions {
  /** How many components, in [1, cols]; default 2. */
  count?: number;
}

/** The leading principal components of a rows × cols table, largest variance first. */
export interface PrincipalComponents {
  /**
   * count × cols, row-major: unit directions, each with its largest-magnitude entry positive (so plots do not
   * flip between similar tables); all zeros for a direction the rows do not vary along.
   */
  components: Float64Array;
  /** count: the variance of the rows along each component (divided by rows). */
  variances: Float64Array;
  /** rows × count, row-major: each row's coordinates along the components, after subtracting the mean row. */
  projections: Float64Array;
}

// GloVe word vectors trained from token ids (lab.trainWordVectors).

/** Progress of {@link EmbedLab.trainWordVectors}, once per finished epoch. */
export interface WordVectorsProgress {
  /** Epochs finished, from 1. */
  epoch: number;
  /** Epochs asked for. */
  epochs: number;
  /** J after this epoch (see {@link TrainedWordVectors.losses}). */
  loss: number;
}

/** Options of {@link EmbedLab.trainWordVectors}; the defaults are glove.c's, and the paper's window of 10. */
export interface TrainWordVectorsOptions {
  /** The corpus as token ids, each in [0, vocabSize); one sequence (the window runs across all of it), at most 2^26. */
  ids: TokenIds;
  /** Rows of the result, in [1, 2^21]; ids that never occur keep their initial values. */
  vocabSize: number;
  /** Floats per vector, in [1, 16384]. */
  dim: number;
  /** Tokens on each side that count as context, weighted 1/distance, in [1, 1000]; default 10. */
  window?: number;
  /** Passes over every co-occurrence, in [0, 100000]; default 25. */
  epochs?: number;
  /** Where the weight f(X) = min(1, (X / xMax)^alpha) reaches 1, in (0, 1e30]; default 100. */
  xMax?: number;
  /** The weight's exponent, in (0, 100]; default 0.75. */
  alpha?: number;
  /** AdaGrad's initial learning rate for the vectors (glove.c's -eta), in (0, 100]; default 0.05. */
  learningRate?: number;
  /** Seed of the initial values and of the order of the pairs, an integer in [0, 2^53]; default 0. */
  seed?: number;
  /** Called after each epoch. */
  onProgress?: (progress: WordVectorsProgress) => void;
  /** Stops training at the next slice (about 16 ms); the result then has `aborted: true`. */
  signal?: AbortSignal;
}

/** The nonzero co-occurrence counts X, sorted by (row, col): X[rows[i]][cols[i]] = values[i]. */
export interface Cooccurrences {
  rows: Uint32Array;
  cols: Uint32Array;
  /** Sums of 1/distance over the pairs within the window (symmetric: X[a][b] = X[b][a]). */
  values: Float64Array;
}

/** Result of {@link EmbedLab.trainWordVectors}: every table vocabSize rows, row-major. */
export interface TrainedWordVectors {
  /** words + contexts, vocabSize × dim: the vectors to use (glove.c's default output). */
  vectors: Float32Array;
  /** The word vectors w, vocabSize × dim. */
  words: Float32Array;
  /** The context vectors c̃, vocabSize × dim. */
  contexts: Float32Array;
  /** b, vocabSize. */
  wordBiases: Float32Array;
  /** b̃, vocabSize. */
  contextBiases: Float32Array;
  /**
   * losses[k] = J = Σ f(X_ij) (w_i · c̃_j + b_i + b̃_j − ln X_ij)² over every entry of `cooccurrences`, for the
   * parameters as they were after k + 1 epochs: a sum, without ½ and not divided by the number of pairs (glove.c's
   * printed cost is ½ Σ f·diff² / pairs, accumulated during the epoch).
   */
  losses: number[];
  /** The counts X that training fitted. */
  cooccurrences: Cooccurrences;
  /** True when `signal` stopped training: the tables are as they were then, losses cover finished epochs only. */
  aborted: boolean;
}
