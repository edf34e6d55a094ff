// The library instance: every method of the public API, by domain.
import type {
  AttentionComparison,
  CompareOptions,
  CompareWithAttentionOptions,
  CompareWithoutAttentionOptions,
  Comparison,
  ComposedSequence,
  ComposeOptions,
  Kernels,
  PositionalEncoding,
  PositionalEncodingOptions,
  PositionalKind,
  SelfAttention,
  SelfAttentionOptions,
  TokenEmbedding,
  TokenEmbeddingOptions,
} from './embeddings/embeddings.js';
import type {
  CorpusBatches,
  CorpusBatchesOptions,
  RandomUniformOptions,
  WindowBatch,
  WindowOptions,
} from './training/batches.js';
import type { SafetensorsFile, WordVectors } from './files/files.js';
import type { TokenIds, Vector } from './runtime/wasm_handle.js';
import type { Model, ModelConfig, PositionScheme, RopeLayout } from './model/model.js';
import type {
  LongContextExperimentOptions,
  LongContextExperimentResult,
  LongContextRunOptions,
  LongContextRunResult,
  LongContextScheme,
  LongContextSequence,
  PasskeySampleOptions,
  RecallSampleOptions,
} from './training/long_context.js';
import type { NearestRowsOptions, RowCosine } from './embeddings/nearest.js';
import type { TransformerConfig, TransformerParameterCount } from './model/parameter_count.js';
import type {
  RelativePositionBucketsOptions,
  RopeFrequencies,
  RopeFrequenciesOptions,
  RopeRotateOptions,
  RopeScaling,
  RopeScalingType,
} from './positions/positions.js';
import type { PrincipalComponents, PrincipalComponentsOptions } from './embeddings/principal_components.js';
import type { EncodingName, PatternName, Tokenizer, TrainTokenizerOptions } from './tokenizer/tokenizer.js';

/** Size caps enforced by the library. */
export interface Limits {
  readonly maxDim: number;
  readonly maxVocabSize: number;
  readonly maxSequenceLength: number;
}

/** Options of {@link EmbedLab.getTokenizer}. */
export interface GetTokenizerOptions {
  /**
   * The encoding's vocabulary from the caller instead of the package's file (runtimes without a file system or
   * fetch, e.g. Cloudflare Workers): the package's vocab/NAME.emblvoc or OpenAI's .tiktoken file. Checked to be
   * that encoding's (its token count and the rank of " the").
   */
  vocabulary?: Uint8Array | ArrayBuffer;
  /**
   * Extra special tokens {text: id} (tiktoken's extend_special_tokens), e.g. ChatML's {'<|im_start|>': 100264}.
   * Ids are integers below limits.maxVocabSize that are neither an ordinary token's rank nor another special
   * token's id; a text that is already special keeps only the id it has.
   */
  specialTokens?: Record<string, number>;
}

/** A loaded library instance. Errors are thrown as RangeError/TypeError/Error naming the argument. */
export declare class EmbedLab {
  readonly version: string;
  /** Highway target of the kernels: "WASM" (SIMD128) or "EMU128". */
  readonly simdTarget: string;
  /** "simd" or "fallback". */
  readonly flavour: 'simd' | 'fallback';
  /** Size caps, the same the C++ core enforces. */
  readonly limits: Limits;
  /** The pre-tokenizer patterns the C++ core implements, for trainTokenizer() and tokenizerFromVocabulary(). */
  readonly patternNames: readonly PatternName[];
  /** The positional schemes of createModel(), in the C++ core's order: learned, sinusoidal, rope, alibi, none. */
  readonly positionSchemes: readonly PositionScheme[];
  /** The RoPE layouts of createModel({ropeLayout}), in the C++ core's order: interleaved, rotate_half. */
  readonly ropeLayouts: readonly RopeLayout[];
  /** RoPE scaling types: 'none', 'linear', 'ntk', 'dynamic', 'yarn', 'llama3'. */
  readonly ropeScalingTypes: readonly RopeScalingType[];
  /**
   * Every {@link RopeScaling} field's default, from the C++ core (transformers' values): type 'none', factor 1,
   * originalContextLength 0, betaFast 32, betaSlow 1, attentionFactor 0 (0.1 · ln(factor) + 1), truncate true,
   * lowFrequencyFactor 1, highFrequencyFactor 4.
   */
  readonly ropeScalingDefaults: Readonly<Required<RopeScaling>>;
  /** The schemes of longContextRun(), those the model has: learned, sinusoidal, rope, rope_pi, ..., none. */
  readonly longContextSchemes: readonly LongContextScheme[];
  readonly kernels: Kernels;
  /** The names getTokenizer() accepts. */
  readonly tokenizerNames: EncodingName[];
  /** Loads an OpenAI vocabulary (shipped with the package in binary form: 1–5 ms once the file is read) as a {@link Tokenizer}. */
  getTokenizer(name: EncodingName, options?: GetTokenizerOptions): Promise<Tokenizer>;
  /**
   * The encoding an OpenAI model uses, as tiktoken maps it ('gpt-4o' -> 'o200k_base', 'gpt-4' -> 'cl100k_base'):
   * an exact model name, else a known prefix (dated and fine-tuned names). Throws a RangeError for other names.
   */
  encodingNameForModel(model: string): EncodingName;
  /** getTokenizer(encodingNameForModel(model), options): the tokenizer of an OpenAI model. */
  encodingForModel(model: string, options?: GetTokenizerOptions): Promise<Tokenizer>;
  /**
   * Trains a byte-level BPE vocabulary (incremental pair counts and a heap; ties go to the pair with the
   * lowest left id, then the lowest right id), in slices that yield to the event loop.
   */
  trainTokenizer(corpus: string | Uint8Array, options: TrainTokenizerOptions): Promise<Tokenizer>;
  /**
   * A tokenizer from vocabulary files: a .tiktoken file with a named encoding (or a pattern and special
   * tokens), npm tiktoken's encoder JSON, or GPT-2's encoder.json + vocab.bpe.
   */
  tokenizerFromVocabulary(
    files:
      | { tiktoken: string | Uint8Array | ArrayBuffer; encoding: EncodingName }
      | {
          tiktoken: string | Uint8Array | ArrayBuffer;
          pattern?: PatternName;
          specialTokens?: Record<string, number>;
          name?: string;
        }
      | { tiktokenJson: string | { pat_str: string; special_tokens: Record<string, number>; bpe_ranks: string } }
      | { encoderJson: string | Uint8Array | ArrayBuffer; vocabBpe: string | Uint8Array | ArrayBuffer },
  ): Tokenizer;
  /** A tokenizer file from {@link Tokenizer.save}. */
  loadTokenizer(bytes: Uint8Array | ArrayBuffer | string): Tokenizer;
  /** Wasm memory in use: the memory's size and the bytes malloc has handed out. */
  memory(): { heapBytes: number; allocatedBytes: number };
  /** A tiny GPT with AdamW. */
  createModel(config: ModelConfig): Model;
  /** A model from {@link Model.save} bytes, optimizer state included. */
  loadModel(bytes: Uint8Array | ArrayBuffer): Model;
  /** Parses a GloVe / word2vec text file (text, bytes, Blob or File). */
  loadWordVectors(source: string | Uint8Array | ArrayBuffer | Blob): Promise<WordVectors>;
  /**
   * GloVe text of a table: one "word v1 … vd" line per word (words[i] with row i of `table`, words.length × dim),
   * each value with 9 significant digits so loadWordVectors gives back the same float32 values. Words must be
   * non-empty and free of whitespace.
   * @example lab.wordVectorsText(['dog', 'cat'], model.tokenEmbeddings().subarray(0, 2 * 32), 32)
   */
  wordVectorsText(words: readonly string[], table: Vector, dim: number): string;
  /** Opens a safetensors file (bytes, Blob or File), reading only its header. */
  readSafetensors(source: Uint8Array | ArrayBuffer | Blob): Promise<SafetensorsFile>;
  tokenEmbedding(options: TokenEmbeddingOptions): TokenEmbedding;
  positionalEncoding(kind: PositionalKind, options: PositionalEncodingOptions): PositionalEncoding;
  selfAttention(options: SelfAttentionOptions): SelfAttention;
  /** input = token embedding + position embedding, for each id. */
  compose(ids: TokenIds, options: ComposeOptions): ComposedSequence;
  /**
   * Compares two sequences: input similarity, pooled cosine, and the same after attention. The overloads say
   * when `attention` is there: with the attention layer (the default) it is, with `attention: false | null` not.
   */
  compare(
    idsA: TokenIds,
    idsB: TokenIds,
    options: CompareWithAttentionOptions,
  ): Comparison & { attention: AttentionComparison };
  compare(idsA: TokenIds, idsB: TokenIds, options: CompareWithoutAttentionOptions): Comparison & { attention: null };
  compare(idsA: TokenIds, idsB: TokenIds, options: CompareOptions): Comparison;
  /**
   * The rows of `table` (rows × dim, row-major) with the largest cosine to `query`, best first; equal cosines
   * keep row order. `query` is a row of the table (which is then skipped: a row is its own nearest
   * neighbour) or a vector of dim numbers.
   * @example lab.nearestRows(model.tokenEmbeddings(), channels, 5, { k: 3 }) // [{row, cosine}, ...]
   */
  nearestRows(table: Vector, dim: number, query: number | Vector, options?: NearestRowsOptions): RowCosine[];
  /**
   * The first `count` principal components of the rows of `values` (rows × cols, row-major), computed in
   * double precision: the directions of largest variance and each row's coordinates along them.
   * @example
   * const { projections } = lab.principalComponents(model.tokenEmbeddings(), vocabSize, channels);
   * // row r of the table plots at (projections[2 * r], projections[2 * r + 1])
   */
  principalComponents(
    values: Vector,
    rows: number,
    cols: number,
    options?: PrincipalComponentsOptions,
  ): PrincipalComponents;
  /**
   * `vector` (even length: one head's q or k) rotated by RoPE at `position` exactly as a model with
   * positions 'rope' rotates it: each pair by position · base^(−2i/d). q · k of two rotated vectors depends
   * only on their positions' difference.
   * @example lab.ropeRotate(q, 5, { base: 10000, layout: 'interleaved' }) // Float32Array, same length as q
   */
  ropeRotate(vector: Vector, position: number, options?: RopeRotateOptions): Float32Array;
  /**
   * RoPE's inverse frequencies θ_i (i < headDim/2, in double precision) and attention factor under a scaling,
   * exactly as a model with that ropeScaling uses them (Hugging Face transformers' modeling_rope_utils).
   * @example lab.ropeFrequencies({ headDim: 64, scaling: { type: 'yarn', factor: 4, originalContextLength: 64 } })
   * // {inverseFrequencies: Float64Array(32), attentionFactor: 1.1386…}
   */
  ropeFrequencies(options: RopeFrequenciesOptions): RopeFrequencies;
  /**
   * The parameters of a transformer of this configuration, by part (token table, output head, position table,
   * attention, MLP, norms), the token tables' share and the weights' memory at float32 and bfloat16.
   * @example lab.transformerParameterCount({ vocabSize: 50257, channels: 768, layers: 12, heads: 12, positionRows: 1024 }).total // 124439808 (GPT-2)
   */
  transformerParameterCount(config: TransformerConfig): TransformerParameterCount;
  /**
   * The ALiBi slope m_h of each head h = 1…heads, as a model with positions 'alibi' uses them: head h adds
   * −m_h · (i − j) to the score of query i and key j. Press et al.'s reference construction: 2^(−8h/H) when
   * H is a power of two, otherwise the slopes of the power of two n below H, then every other slope of 2n.
   * @example lab.alibiSlopes(4) // Float32Array [0.25, 0.0625, 0.015625, 0.00390625]
   * @example lab.alibiSlopes(3) // Float32Array [0.0625, 0.00390625, 0.25]
   */
  alibiSlopes(heads: number): Float32Array;
  /**
   * T5's bucket of every (query i, key j), row-major length × length, as a model with positions 't5' reads its
   * bias table (Raffel et al. 2020; transformers' `_relative_position_bucket` of the offset j − i). Causal
   * (default): every bucket for keys at or before the query, keys after it in bucket 0; bidirectional: half the
   * buckets per sign. Of B buckets per sign, E = B / 2 are exact offsets 0…E−1; then log-spaced up to maxDistance,
   * past which all share the last.
   * @example lab.relativePositionBuckets({ length: 3, bidirectional: true }) // Int32Array [0, 17, 18, 1, 0, 17, 2, 1, 0]
   */
  relativePositionBuckets(options: RelativePositionBucketsOptions): Int32Array;
  /** `count` (in [0, 2^24]) uniforms in [0, 1) from the project PRNG: the same for a seed natively and in wasm. */
  randomUniform(count: number, options?: RandomUniformOptions): Float64Array;
  /** Random windows of a token stream, seeded: call `next()` for each training step. */
  corpusBatches(tokens: TokenIds, options: CorpusBatchesOptions): CorpusBatches;
  /**
   * `batch` windows of `length` tokens spread evenly over the stream (window b starts at
   * b · ⌊(tokens − length − 1) / batch⌋), with next-token targets: a fixed batch for validation losses.
   */
  evenlySpacedWindows(tokens: TokenIds, options: WindowOptions): WindowBatch;
  /** One passkey sequence: filler, KEY and the digits at `depth`, QUERY and the answer; `text` spells it. */
  passkeySample(options: PasskeySampleOptions): LongContextSequence & { text: string };
  /** One associative-recall sequence: distinct key-value pairs, QUERY, the key of the pair at `depth`. */
  recallSample(options: RecallSampleOptions): LongContextSequence;
  /**
   * One (scheme, seed) run: train at trainLength, read at trainLength x factor zero-shot, then fine-tune briefly at
   * each longer length and read again. Learned positions past T are reported unavailable with the model's refusal.
   */
  longContextRun(options?: LongContextRunOptions): Promise<LongContextRunResult>;
  /** Every scheme x seed (the RoPE rows of a seed read one trained model) with the spread over seeds. */
  longContextExperiment(options?: LongContextExperimentOptions): Promise<LongContextExperimentResult>;
}
