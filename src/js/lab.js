// EmbedLab: the full library on one loaded module. Its tokenizer methods and what every instance has (version,
// limits, memory(), call()) come from Tokenizers (tokenizer/tokenizers.js) and WasmInstance
// (runtime/wasm_instance.js), shared with the `embedlab/tokenizer` entry; the rest is listed here by domain and
// done by one module per domain, whose functions take the instance's internals {lab, raw, stage}.
import * as embeddings from './embeddings/embeddings.js';
import * as principal from './embeddings/principal_components.js';
import * as neighbours from './embeddings/nearest.js';
import * as gloveText from './embeddings/word_vectors_text.js';
import * as fileReaders from './files/readers.js';
import * as models from './model/create.js';
import * as parameterCount from './model/parameter_count.js';
import * as positions from './positions/positions.js';
import { internalsOf } from './runtime/wasm_instance.js';
import { Tokenizers } from './tokenizer/tokenizers.js';
import * as batches from './training/batches.js';
import * as longContext from './training/long_context.js';

export class EmbedLab extends Tokenizers {
  constructor(raw, flavour) {
    super(raw, flavour);
    // Names the C++ core defines, read once from it.
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
    this.kernels = Object.freeze(embeddings.makeKernels(internalsOf(this)));
  }

  // ---- models ----

  /**
   * A tiny GPT: {vocabSize, contextLength = 32, channels = 32, layers = 2, heads = 2, positions = 'learned'
   * | 'sinusoidal' | 'rope' | 'alibi' | 't5' | 'none', ropeLayout, ropeBase, ropeScaling, causal = true,
   * t5NumBuckets = 32, t5MaxDistance = 128, embeddingScale = 1, seed = 0, optimizer}.
   */
  createModel(config) {
    return models.createModel(internalsOf(this), config);
  }

  /** A model saved with model.save() (safetensors bytes), optimizer state included. */
  loadModel(bytes) {
    return models.loadModel(internalsOf(this), bytes);
  }

  /** One vector (a head's q or k) rotated by RoPE at `position`, as the model does: {base = 10000, layout}. */
  ropeRotate(vector, position, options) {
    return positions.ropeRotate(internalsOf(this), vector, position, options);
  }

  /**
   * RoPE's inverse frequencies and attention factor for {headDim, base = 10000, scaling = {type: 'none'}, length}
   * (length: the sequence length, required by dynamic NTK), as the model uses them.
   */
  ropeFrequencies(options) {
    return positions.ropeFrequencies(internalsOf(this), options);
  }

  /**
   * The parameter count of a transformer configuration {vocabSize, channels, layers, heads, kvHeads, ffnHidden |
   * mlpRatio, gatedMlp, tiedOutput, biases, norm, positionRows}: each part, the token tables' share, the bytes.
   */
  transformerParameterCount(config) {
    return parameterCount.transformerParameterCount(internalsOf(this), config);
  }

  /** The model's ALiBi slope of each of `heads` heads: a Float32Array. */
  alibiSlopes(heads) {
    return positions.alibiSlopes(internalsOf(this), heads);
  }

  /**
   * T5's bucket of each (query i, key j) as positions 't5' reads its bias table: an Int32Array of length x
   * length, row i. {length, numBuckets = 32, maxDistance = 128, bidirectional = false (causal, as the GPT)}.
   */
  relativePositionBuckets(options) {
    return positions.relativePositionBuckets(internalsOf(this), options);
  }

  // ---- training data (the project PRNG: the same numbers for a seed natively and in wasm) ----

  /** `count` uniforms in [0, 1) from the project PRNG for {seed = 0}: a Float64Array. */
  randomUniform(count, options) {
    return batches.randomUniform(internalsOf(this), count, options);
  }

  /** Random windows of a token stream for {batch, length, seed = 0}: a CorpusBatches whose next() gives a batch. */
  corpusBatches(tokens, options) {
    return batches.corpusBatches(internalsOf(this), tokens, options);
  }

  /** `batch` windows of `length` tokens spread evenly over the stream, with next-token targets: {batch, length}. */
  evenlySpacedWindows(tokens, options) {
    return batches.evenlySpacedWindows(internalsOf(this), tokens, options);
  }

  // ---- long contexts (train at T, read at T x factor; see docs/long-contexts.md) ----

  /** One passkey sequence {digits = 2, length, depth = 0.5, seed = 0}: {ids, targets, keyPosition, vocabSize, text}. */
  passkeySample(options) {
    return longContext.passkeySample(internalsOf(this), options);
  }

  /** One associative-recall sequence {keys = 256, values = 16, length, depth = 0.5, seed = 0}. */
  recallSample(options) {
    return longContext.recallSample(internalsOf(this), options);
  }

  /** One (scheme, seed) run of the long-context experiment; resolves to its readings per length. */
  longContextRun(options) {
    return longContext.longContextRun(internalsOf(this), options);
  }

  /** Every scheme x seed, with the mean and min-max over seeds in `summary`. */
  longContextExperiment(options) {
    return longContext.longContextExperiment(internalsOf(this), options);
  }

  // ---- embeddings ----

  /** The rows of table (rows × dim) most cosine-similar to query (a row index, then skipped, or a vector). */
  nearestRows(table, dim, query, options) {
    return neighbours.nearestRows(internalsOf(this), table, dim, query, options);
  }

  /** The first {count = 2} principal components of the rows (rows × cols): {components, variances, projections}. */
  principalComponents(values, rows, cols, options) {
    return principal.principalComponents(internalsOf(this), values, rows, cols, options);
  }

  tokenEmbedding(options) {
    return embeddings.tokenEmbedding(internalsOf(this), options);
  }

  positionalEncoding(kind, options) {
    return embeddings.positionalEncoding(internalsOf(this), kind, options);
  }

  selfAttention(options) {
    return embeddings.selfAttention(internalsOf(this), options);
  }

  compose(ids, options) {
    return embeddings.compose(internalsOf(this), ids, options);
  }

  compare(idsA, idsB, options) {
    return embeddings.compare(internalsOf(this), idsA, idsB, options);
  }

  // ---- files ----

  /**
   * Pretrained word vectors from a GloVe / word2vec text file (string, bytes, or a Blob/File): one
   * "word v1 ... vd" per line, an optional "count dim" header. Malformed files give an error naming the line.
   */
  loadWordVectors(source) {
    return fileReaders.loadWordVectors(internalsOf(this), source);
  }

  /** words (no whitespace) with their rows of table (words.length × dim) as GloVe text loadWordVectors reads back. */
  wordVectorsText(words, table, dim) {
    return gloveText.wordVectorsText(internalsOf(this), words, table, dim);
  }

  /** Opens a safetensors file (Uint8Array, ArrayBuffer, Blob or File): names, shapes, and get(name). */
  readSafetensors(source) {
    return fileReaders.readSafetensors(internalsOf(this), source);
  }
}
