/**
 * embedlab: token embeddings and positional encodings in C++/Highway, compiled to WebAssembly.
 *
 * @example
 * ```ts
 * import createEmbedLab from 'embedlab';
 * const lab = await createEmbedLab();
 * using embedding = lab.tokenEmbedding({ vocabSize: 3, dim: 32, seed: 1, stddev: 1 });
 * using positions = lab.positionalEncoding('sinusoidal', { dim: 32, maxLength: 16 });
 * const result = lab.compare([0, 1, 2], [2, 1, 0], { embedding, positional: positions });
 * console.log(result.attention?.pooledCosine); // < 1: attention now sees word order
 * ```
 * @packageDocumentation
 */

/** Options of {@link createEmbedLab}. */
export interface CreateOptions {
  /** `true` requires the SIMD128 module, `false` forces the non-SIMD fallback, `'auto'` (default) picks. */
  simd?: boolean | 'auto';
}

/** Loads the wasm module and resolves to a ready {@link EmbedLab}. */
export declare function createEmbedLab(options?: CreateOptions): Promise<EmbedLab>;
export default createEmbedLab;

/** True when this engine runs WebAssembly SIMD128. */
export declare function simdSupported(): boolean;

/** Array or typed array of integer token ids. */
export type TokenIds = ArrayLike<number>;

/** Array or typed array of finite numbers. */
export type Vector = ArrayLike<number>;

/** Size caps enforced by the library. */
export interface Limits {
  readonly maxDim: number;
  readonly maxVocabSize: number;
  readonly maxSequenceLength: number;
}

/** Base of every object that holds wasm memory: free it with `dispose()` or a `using` declaration. */
export declare class WasmHandle {
  /** True once `dispose()` ran; every method then throws. */
  readonly disposed: boolean;
  /** Frees the wasm memory now. Safe to call twice. A FinalizationRegistry frees forgotten objects as a fallback. */
  dispose(): void;
  [Symbol.dispose](): void;
}

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
  attention: {
    outputsA: Float32Array;
    outputsB: Float32Array;
    similarity: Float32Array;
    pooledCosine: number;
  } | null;
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
  /** [sin(a0), cos(a0), sin(a1), cos(a1), ...]; accurate for angles in [-pi, pi]. */
  sinCos(angles: Vector): Float32Array;
}

/** Names of OpenAI's encodings that {@link EmbedLab.getTokenizer} loads. */
export type EncodingName = 'gpt2' | 'r50k_base' | 'p50k_base' | 'p50k_edit' | 'cl100k_base' | 'o200k_base';

/** tiktoken's special-token rules for {@link Tokenizer.encode}. */
export interface SpecialTokenOptions {
  /** Special tokens encoded as their id where they appear: 'all' or a list. Default: none. */
  allowedSpecial?: 'all' | Iterable<string>;
  /** Special tokens whose appearance is an error: 'all' (default: every one not allowed) or a list. */
  disallowedSpecial?: 'all' | Iterable<string>;
}

/** One token of {@link Tokenizer.tokens}. */
export interface TokenSpan {
  id: number;
  /** Byte offset of the token's first byte in the UTF-8 input. */
  start: number;
  /** Byte offset one past its last byte; spans tile the input. */
  end: number;
  /** The token's bytes (a token may hold part of a UTF-8 character). */
  bytes: Uint8Array;
  /** The bytes as text; incomplete UTF-8 shows as U+FFFD. */
  text: string;
}

/** Incremental decoding for streamed ids. */
export interface StreamingDecoder {
  /** Text completed by these ids; incomplete UTF-8 is held back for the next call. */
  write(ids: ArrayLike<number>): string;
  /** Flushes what is held back (as U+FFFD if it never completed). */
  end(): string;
}

/** Byte-level BPE, byte-exact with tiktoken. Text is a string (encoded as UTF-8) or a Uint8Array of any bytes. */
export declare class Tokenizer extends WasmHandle {
  /** The encoding's name, e.g. 'cl100k_base'. */
  readonly name: string;
  /** The pre-tokenizer pattern: 'gpt2', 'cl100k' or 'o200k'. */
  readonly pattern: string;
  /** One past the largest id, special tokens included (tiktoken's n_vocab). */
  readonly vocabSize: number;
  readonly specialTokens: ReadonlyArray<{ text: string; id: number }>;
  /** Token ids; throws if disallowed special-token text appears (by default every special token). */
  encode(text: string | Uint8Array, options?: SpecialTokenOptions): Uint32Array;
  /** Token ids, with special-token text encoded as ordinary text. */
  encodeOrdinary(text: string | Uint8Array): Uint32Array;
  /** How many ids encode() would return. */
  count(text: string | Uint8Array, options?: SpecialTokenOptions): number;
  /** Tokens with their byte spans. */
  tokens(text: string | Uint8Array, options?: SpecialTokenOptions): TokenSpan[];
  /** Text of the ids; invalid UTF-8 becomes U+FFFD. */
  decode(ids: ArrayLike<number>): string;
  /** Exact bytes of the ids. */
  decodeBytes(ids: ArrayLike<number>): Uint8Array;
  /** Bytes of one token. */
  tokenBytes(id: number): Uint8Array;
  decoder(): StreamingDecoder;
  /** Trained tokenizers: the merges in the order they were learned (id = rank); empty for OpenAI's. */
  readonly merges: ReadonlyArray<{ left: number; right: number; id: number; count: number }>;
  /** A file lab.loadTokenizer() reads back: a JSON header line plus .tiktoken lines, or {binary: true} for the binary form, which loads ~8x faster. */
  save(options?: { binary?: boolean }): Uint8Array;
}

/** Progress of {@link EmbedLab.trainTokenizer}. */
export interface TokenizerTrainingProgress {
  /** Merges done so far. */
  merges: number;
  /** Merges wanted (vocabSize − 256). */
  wanted: number;
  /** Bytes of the token just made. */
  token: Uint8Array;
  /** Occurrences of its pair when it was merged. */
  count: number;
}

/** Options of {@link EmbedLab.trainTokenizer}. */
export interface TrainTokenizerOptions {
  /** Ordinary tokens wanted, the 256 single bytes included, in [256, 2^21]. */
  vocabSize: number;
  /** Pre-tokenizer: merges never cross its pieces. Default 'o200k'. */
  pattern?: 'gpt2' | 'cl100k' | 'o200k';
  /** Special tokens, given ids vocabSize, vocabSize + 1, …; their text in the corpus is not learned. */
  specialTokens?: string[];
  /** Default 'trained'. */
  name?: string;
  /** Called after each slice of merges (~16 ms of work); return false to stop early. */
  onProgress?: (progress: TokenizerTrainingProgress) => boolean | void;
  /** At most this many merges per slice. Default: as many as fit in ~16 ms. */
  progressInterval?: number;
  /** Aborting it stops training after the current slice, keeping the merges made so far. */
  signal?: AbortSignal;
}

/** Positional schemes of the tiny GPT. */
export type PositionScheme = 'learned' | 'sinusoidal' | 'rope' | 'alibi' | 'none';

/** AdamW settings (torch.optim.AdamW semantics, decay on 2-D weights only, global-norm clipping). */
export interface OptimizerOptions {
  /** Default 1e-3. */
  learningRate?: number;
  /** Default 0.9. */
  beta1?: number;
  /** Default 0.95. */
  beta2?: number;
  /** Default 1e-8. */
  eps?: number;
  /** Decoupled weight decay on matrices, wte and wpe. Default 0.1. */
  weightDecay?: number;
  /** Global gradient-norm clip; 0 turns clipping off. Default 1. */
  maxGradNorm?: number;
}

/** Shape and options of {@link EmbedLab.createModel}. */
export interface ModelConfig {
  vocabSize: number;
  /** Length of the learned position table; other schemes accept longer sequences. Default 32. */
  contextLength?: number;
  /** Width C. Default 32. */
  channels?: number;
  /** Transformer blocks. Default 2. */
  layers?: number;
  /** Attention heads; must divide channels. Default 2. */
  heads?: number;
  /** Default 'learned'. */
  positions?: PositionScheme;
  /** RoPE pairing: (x0,x1),(x2,x3)… or LLaMA's (x_i, x_{i+d/2}). Default 'interleaved'. */
  ropeLayout?: 'interleaved' | 'rotate_half';
  /** RoPE base. Default 10000. */
  ropeBase?: number;
  /** Causal mask (GPT). false: every token sees every token. Default true. */
  causal?: boolean;
  /** PRNG seed of the initial weights (N(0, 0.02), GPT-2 style). Default 0. */
  seed?: number;
  optimizer?: OptimizerOptions;
}

/** A batch: ids as sequences of equal length, or flat with batch and length; targets the same shape (-1 ignores). */
export interface Batch {
  ids: ArrayLike<number>[] | ArrayLike<number>;
  targets?: ArrayLike<number>[] | ArrayLike<number>;
  batch?: number;
  length?: number;
}

/** Result of one optimizer step. */
export interface TrainStepResult {
  loss: number;
  /** Global gradient norm before clipping. */
  gradientNorm: number;
  /** Steps taken so far, this one included. */
  step: number;
}

/** Options of {@link Model.train}. */
export interface TrainOptions {
  steps: number;
  /** The batch for each step. */
  batches: (step: number) => Batch;
  onProgress?: (result: TrainStepResult) => void;
  signal?: AbortSignal;
}

/** A tiny GPT with its AdamW optimizer: hand-written forward and backward, checked against PyTorch. */
export declare class Model extends WasmHandle {
  readonly config: Required<Omit<ModelConfig, 'optimizer'>> & { optimizer: Required<OptimizerOptions> };
  readonly parameterCount: number;
  /** Optimizer steps taken. */
  readonly step: number;
  /** Longest sequence accepted (contextLength for learned positions). */
  readonly maxLength: number;
  trainStep(batch: Batch): TrainStepResult;
  /** Trains, yielding to the event loop between steps. */
  train(options: TrainOptions): Promise<{ losses: number[]; aborted: boolean }>;
  /** Mean cross-entropy, parameters untouched. */
  evaluate(batch: Batch): number;
  /** batch × length × vocabSize logits. */
  logits(batch: Batch): Float32Array;
  /** wte: vocabSize × channels. */
  tokenEmbeddings(): Float32Array;
  /** Vectors added at positions [0, length): wpe rows or sinusoids; null for rope, alibi and none. */
  positionEmbeddings(length?: number): Float32Array | null;
  /** Residual stream of one sequence: layers + 1 arrays of length × channels. */
  hiddenStates(ids: ArrayLike<number>): Float32Array[];
  /** safetensors bytes: weights with GPT-2 names, optimizer state, config in the metadata. */
  save(): Uint8Array;
  setLearningRate(learningRate: number): void;
}

/** One tensor in a safetensors header. */
export interface TensorInfo {
  name: string;
  dtype: 'F32' | 'F16' | 'BF16' | 'F64' | 'I32' | 'I64';
  shape: number[];
  /** Absolute byte offset in the file. */
  offset: number;
  byteLength: number;
}

/** An open safetensors file; only the header has been read. */
export declare class SafetensorsFile extends WasmHandle {
  readonly tensors: TensorInfo[];
  readonly metadata: Record<string, string>;
  /** Reads one float tensor (F32/F16/BF16/F64) as float32; only its bytes are read. */
  get(name: string): Promise<Float32Array>;
}

/** Frozen pretrained word vectors from a GloVe / word2vec text file. */
export declare class WordVectors {
  /** Words in file order. */
  readonly words: string[];
  readonly dim: number;
  /** words.length × dim, row-major. */
  readonly vectors: Float32Array;
  /** Row of word, or -1. */
  indexOf(word: string): number;
  /** A view of the word's vector, or undefined. */
  vector(word: string): Float32Array | undefined;
  /** The k most cosine-similar words to a word of the file (itself excluded) or to a vector. Default k 10. */
  nearest(query: string | ArrayLike<number>, k?: number): { word: string; cosine: number }[];
}

/** A loaded library instance. Errors are thrown as RangeError/TypeError/Error naming the argument. */
export declare class EmbedLab {
  readonly version: string;
  /** Highway target of the kernels: "WASM" (SIMD128) or "EMU128". */
  readonly simdTarget: string;
  /** "simd" or "fallback". */
  readonly flavour: 'simd' | 'fallback';
  readonly limits: Limits;
  readonly kernels: Kernels;
  /** The names getTokenizer() accepts. */
  readonly tokenizerNames: EncodingName[];
  /** Loads an OpenAI vocabulary (shipped with the package in binary form: 1–5 ms once the file is read) as a {@link Tokenizer}. */
  getTokenizer(name: EncodingName): Promise<Tokenizer>;
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
          pattern?: 'gpt2' | 'cl100k' | 'o200k';
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
  /** Opens a safetensors file (bytes, Blob or File), reading only its header. */
  readSafetensors(source: Uint8Array | ArrayBuffer | Blob): Promise<SafetensorsFile>;
  tokenEmbedding(options: TokenEmbeddingOptions): TokenEmbedding;
  positionalEncoding(kind: PositionalKind, options: PositionalEncodingOptions): PositionalEncoding;
  selfAttention(options: SelfAttentionOptions): SelfAttention;
  /** input = token embedding + position embedding, for each id. */
  compose(ids: TokenIds, options: ComposeOptions): ComposedSequence;
  /** Compares two sequences: input similarity, pooled cosine, and the same after attention. */
  compare(idsA: TokenIds, idsB: TokenIds, options: CompareOptions): Comparison;
}
