// The idiomatic API over the raw Embind module: option objects, checked arguments, real JS errors. EmbedLab
// lists every method; the work is done by one module per domain (lab_tokenizers.js, lab_models.js,
// lab_embeddings.js, lab_files.js, lab_batches.js, lab_nearest.js, lab_positions.js,
// lab_principal_components.js, lab_glove_text.js, lab_parameter_count.js), whose functions take the lab's
// internals: {lab, raw, stage}.
import * as batches from './training/batches.js';
import * as embeddings from './embeddings/embeddings.js';
import * as fileReaders from './files/readers.js';
import * as gloveText from './embeddings/word_vectors_text.js';
import * as longContext from './training/long_context.js';
import * as models from './model/create.js';
import * as neighbours from './embeddings/nearest.js';
import * as parameterCount from './model/parameter_count.js';
import * as positions from './positions/positions.js';
import * as principal from './embeddings/principal_components.js';
import * as tokenizers from './tokenizer/loading.js';
import { encodingNameForModel } from './tokenizer/model_encodings.js';

const ERROR_TYPES = { RangeError, TypeError, Error };

export class EmbedLab {
  #raw;
  #internals;

  constructor(raw, flavour) {
    this.#raw = raw;
    this.#internals = Object.freeze({ lab: this, raw, stage: (bytes) => this.#stage(bytes) });
    /** Package version. */
    this.version = raw.version();
    /** Highway target the kernels run on: "WASM" (SIMD128) or "EMU128" (no SIMD). */
    this.simdTarget = raw.simdTarget();
    /** Which module was loaded: "simd" or "fallback". */
    this.flavour = flavour;
    // Names and caps the C++ core defines, read once from it.
    /** Caps on sizes, the same the C++ core enforces. */
    this.limits = Object.freeze(raw.limits());
    /** Pre-tokenizer patterns of trainTokenizer() and tokenizerFromVocabulary(): 'gpt2', 'cl100k', 'o200k'. */
    this.patternNames = Object.freeze(raw.patternNames());
    /** Positional schemes of createModel(): 'learned', 'sinusoidal', 'rope', 'alibi', 't5', 'none'. */
    this.positionSchemes = Object.freeze(raw.positionSchemes());
    /** RoPE layouts of createModel({ropeLayout}): 'interleaved', 'rotate_half'. */
    this.ropeLayouts = Object.freeze(raw.ropeLayouts());
    /** RoPE scaling types: 'none', 'linear', 'ntk', 'dynamic', 'yarn', 'llama3'. */
    this.ropeScalingTypes = Object.freeze(raw.ropeScalingTypes());
    /** Every RoPE scaling field's default (transformers'), those the core fills in: betaFast 32, betaSlow 1, ... */
    this.ropeScalingDefaults = Object.freeze(raw.ropeScalingDefaults());
    /** Schemes of longContextRun(): 'learned', 'sinusoidal', 'rope', 'rope_pi', 'rope_ntk', ... 'none'. */
    this.longContextSchemes = Object.freeze(raw.longContextSchemes());
    this.kernels = Object.freeze(embeddings.makeKernels(this.#internals));
  }

  /** Wasm memory: {heapBytes: size of the wasm memory, allocatedBytes: bytes malloc has handed out}. */
  memory() {
    return { heapBytes: this.#raw.HEAPU8.length, allocatedBytes: this.#raw.allocatedBytes() };
  }

  /** Runs a raw call and turns a recorded C++ error into a thrown JS error. */
  call(body) {
    const result = body();
    if (this.#raw.hasError()) {
      const { kind, message } = this.#raw.takeError();
      throw new (ERROR_TYPES[kind] ?? Error)(message);
    }
    return result;
  }

  // ---- tokenizers ----

  /** Encoding names accepted by getTokenizer(). */
  get tokenizerNames() {
    return [...tokenizers.ENCODING_NAMES];
  }

  /**
   * Loads one of OpenAI's vocabularies: 'gpt2' | 'r50k_base' | 'p50k_base' | 'p50k_edit' | 'cl100k_base' |
   * 'o200k_base'; options.vocabulary: that encoding's bytes from the caller (where no file system or fetch is).
   */
  getTokenizer(name, options) {
    return tokenizers.getTokenizer(this.#internals, name, options);
  }

  /** The encoding an OpenAI model uses, as tiktoken maps it: 'gpt-4o' -> 'o200k_base' (exact names, then prefixes). */
  encodingNameForModel(model) {
    return encodingNameForModel(model);
  }

  /** The tokenizer of an OpenAI model ('gpt-4o', 'gpt-4', 'text-davinci-003', ...): getTokenizer of its encoding. */
  async encodingForModel(model, options) {
    return tokenizers.getTokenizer(this.#internals, encodingNameForModel(model), options);
  }

  /**
   * Trains a byte-level BPE vocabulary on `corpus` (string or bytes): {vocabSize (256 single bytes
   * included), pattern = 'o200k' | 'cl100k' | 'gpt2', specialTokens = [], name = 'trained', onProgress,
   * progressInterval, signal}. Trains in slices of ~16 ms, yielding to the event loop in between, so pages
   * stay responsive; onProgress({merges, wanted, token, count}) runs after each slice (at most
   * progressInterval merges) and may return false, like aborting options.signal, to stop early with the
   * merges made so far.
   */
  trainTokenizer(corpus, options) {
    return tokenizers.trainTokenizer(this.#internals, corpus, options);
  }

  /** A tokenizer saved with tokenizer.save() (text or binary form). */
  loadTokenizer(bytes) {
    return tokenizers.loadTokenizer(this.#internals, bytes);
  }

  // ---- models ----

  /**
   * A tiny GPT: {vocabSize, contextLength = 32, channels = 32, layers = 2, heads = 2, positions = 'learned'
   * | 'sinusoidal' | 'rope' | 'alibi' | 't5' | 'none', ropeLayout, ropeBase, ropeScaling, causal = true,
   * t5NumBuckets = 32, t5MaxDistance = 128, embeddingScale = 1, seed = 0, optimizer}.
   */
  createModel(config) {
    return models.createModel(this.#internals, config);
  }

  /** A model saved with model.save() (safetensors bytes), optimizer state included. */
  loadModel(bytes) {
    return models.loadModel(this.#internals, bytes);
  }

  /** One vector (a head's q or k) rotated by RoPE at `position`, as the model does: {base = 10000, layout}. */
  ropeRotate(vector, position, options) {
    return positions.ropeRotate(this.#internals, vector, position, options);
  }

  /**
   * RoPE's inverse frequencies and attention factor for {headDim, base = 10000, scaling = {type: 'none'}, length}
   * (length: the sequence length, required by dynamic NTK), as the model uses them.
   */
  ropeFrequencies(options) {
    return positions.ropeFrequencies(this.#internals, options);
  }

  /**
   * The parameter count of a transformer configuration {vocabSize, channels, layers, heads, kvHeads, ffnHidden |
   * mlpRatio, gatedMlp, tiedOutput, biases, norm, positionRows}: each part, the token tables' share, the bytes.
   */
  transformerParameterCount(config) {
    return parameterCount.transformerParameterCount(this.#internals, config);
  }

  /** The model's ALiBi slope of each of `heads` heads: a Float32Array. */
  alibiSlopes(heads) {
    return positions.alibiSlopes(this.#internals, heads);
  }

  /**
   * T5's bucket of each (query i, key j) as positions 't5' reads its bias table: an Int32Array of length x
   * length, row i. {length, numBuckets = 32, maxDistance = 128, bidirectional = false (causal, as the GPT)}.
   */
  relativePositionBuckets(options) {
    return positions.relativePositionBuckets(this.#internals, options);
  }

  // ---- training data (the project PRNG: the same numbers for a seed natively and in wasm) ----

  /** `count` uniforms in [0, 1) from the project PRNG for {seed = 0}: a Float64Array. */
  randomUniform(count, options) {
    return batches.randomUniform(this.#internals, count, options);
  }

  /** Random windows of a token stream for {batch, length, seed = 0}: a CorpusBatches whose next() gives a batch. */
  corpusBatches(tokens, options) {
    return batches.corpusBatches(this.#internals, tokens, options);
  }

  /** `batch` windows of `length` tokens spread evenly over the stream, with next-token targets: {batch, length}. */
  evenlySpacedWindows(tokens, options) {
    return batches.evenlySpacedWindows(this.#internals, tokens, options);
  }

  // ---- long contexts (train at T, read at T x factor; see README "Long contexts") ----

  /** One passkey sequence {digits = 2, length, depth = 0.5, seed = 0}: {ids, targets, keyPosition, vocabSize, text}. */
  passkeySample(options) {
    return longContext.passkeySample(this.#internals, options);
  }

  /** One associative-recall sequence {keys = 256, values = 16, length, depth = 0.5, seed = 0}. */
  recallSample(options) {
    return longContext.recallSample(this.#internals, options);
  }

  /** One (scheme, seed) run of the long-context experiment; resolves to its readings per length. */
  longContextRun(options) {
    return longContext.longContextRun(this.#internals, options);
  }

  /** Every scheme x seed, with the mean and min-max over seeds in `summary`. */
  longContextExperiment(options) {
    return longContext.longContextExperiment(this.#internals, options);
  }

  // ---- embeddings ----

  /** The rows of table (rows × dim) most cosine-similar to query (a row index, then skipped, or a vector). */
  nearestRows(table, dim, query, options) {
    return neighbours.nearestRows(this.#internals, table, dim, query, options);
  }

  /** The first {count = 2} principal components of the rows (rows × cols): {components, variances, projections}. */
  principalComponents(values, rows, cols, options) {
    return principal.principalComponents(this.#internals, values, rows, cols, options);
  }

  tokenEmbedding(options) {
    return embeddings.tokenEmbedding(this.#internals, options);
  }

  positionalEncoding(kind, options) {
    return embeddings.positionalEncoding(this.#internals, kind, options);
  }

  selfAttention(options) {
    return embeddings.selfAttention(this.#internals, options);
  }

  compose(ids, options) {
    return embeddings.compose(this.#internals, ids, options);
  }

  compare(idsA, idsB, options) {
    return embeddings.compare(this.#internals, idsA, idsB, options);
  }

  // ---- files ----

  /**
   * A tokenizer from vocabulary files you have: {tiktoken, encoding} (a .tiktoken file with a named
   * encoding's pattern and special tokens) or {tiktoken, pattern, specialTokens, name}; {tiktokenJson}
   * (npm tiktoken's encoder JSON: pat_str, special_tokens, bpe_ranks); {encoderJson, vocabBpe} (GPT-2's
   * files). Files are strings or bytes.
   */
  tokenizerFromVocabulary(files) {
    return fileReaders.tokenizerFromVocabulary(this.#internals, files);
  }

  /**
   * Pretrained word vectors from a GloVe / word2vec text file (string, bytes, or a Blob/File): one
   * "word v1 ... vd" per line, an optional "count dim" header. Malformed files give an error naming the line.
   */
  loadWordVectors(source) {
    return fileReaders.loadWordVectors(this.#internals, source);
  }

  /** words (no whitespace) with their rows of table (words.length × dim) as GloVe text loadWordVectors reads back. */
  wordVectorsText(words, table, dim) {
    return gloveText.wordVectorsText(this.#internals, words, table, dim);
  }

  /** Opens a safetensors file (Uint8Array, ArrayBuffer, Blob or File): names, shapes, and get(name). */
  readSafetensors(source) {
    return fileReaders.readSafetensors(this.#internals, source);
  }

  // Copies bytes into the wasm staging buffer that the next raw call reads.
  #stage(bytes) {
    const raw = this.#raw;
    const pointer = this.call(() => raw.stagingBuffer(bytes.length));
    raw.HEAPU8.set(bytes, pointer);
  }
}
