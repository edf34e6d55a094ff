// EmbedLab: the full library on one loaded module. Its tokenizer methods and what every instance has (version,
// limits, memory(), call()) come from Tokenizers (tokenizer/tokenizers.js) and WasmInstance
// (runtime/wasm_instance.js), shared with the `embedlab/tokenizer` entry; the rest is listed here by domain and
// done by one module per domain, whose functions take the instance's internals {lab, raw, stage}.
import * as embeddings from './embeddings/embeddings.js';
import * as principal from './embeddings/principal_components.js';
import * as neighbours from './embeddings/nearest.js';
import * as gloveText from './embeddings/word_vectors_text.js';
import * as wordVectorTraining from './embeddings/word_vector_training.js';
import * as fileReaders from './files/readers.js';
import * as models from './model/create.js';
import { readModelDefaults } from './model/model.js';
import * as parameterCount from './model/parameter_count.js';
import * as positions from './positions/positions.js';
import { internalsOf } from './runtime/wasm_instance.js';
import { Tokenizers } from './tokenizer/tokenizers.js';
import * as batches from './training/batches.js';
import * as longContext from './training/long_context.js';
/** @import { RopeScaling } from './positions/types.js' */
/** @import { LabInternals } from './runtime/types.js' */
/** @import { HfModule } from './tokenizer/hf_module.js' */
/** @import { PositionalEncoding, SelfAttention, TokenEmbedding } from './embeddings/handles.js' */
/** @import { AttentionComparison, CompareOptions, CompareWithAttentionOptions, CompareWithoutAttentionOptions, Comparison, ComposeOptions, ComposedSequence, Kernels, NearestRowsOptions, PositionalEncodingOptions, PositionalKind, PrincipalComponents, PrincipalComponentsOptions, RowCosine, SelfAttentionOptions, TokenEmbeddingOptions } from './embeddings/types.js' */
/** @import { TrainWordVectorsOptions, TrainedWordVectors } from './embeddings/types.js' */
/** @import { WordVectors } from './embeddings/word_vectors.js' */
/** @import { SafetensorsFile } from './files/safetensors.js' */
/** @import { Model } from './model/model.js' */
/** @import { ModelConfig, ModelDefaults, PositionScheme, RopeLayout, TransformerConfig, TransformerParameterCount } from './model/types.js' */
/** @import { RelativePositionBucketsOptions, RopeFrequencies, RopeFrequenciesOptions, RopeRotateOptions, RopeScalingType } from './positions/types.js' */
/** @import { TokenIds, Vector } from './runtime/types.js' */
/** @import { CorpusBatches } from './training/batches.js' */
/** @import { CorpusBatchesOptions, LongContextDefaults, LongContextExperimentOptions, LongContextExperimentResult, LongContextRunOptions, LongContextRunResult, LongContextScheme, LongContextSequence, PasskeySampleOptions, RandomUniformOptions, RecallSampleOptions, WindowBatch, WindowOptions } from './training/types.js' */

/** A loaded library instance. Errors are thrown as RangeError/TypeError/Error naming the argument. */
export class EmbedLab extends Tokenizers {
  /**
   * @internal
   * @param {any} raw the Embind module
   * @param {'simd' | 'fallback'} flavour
   * @param {() => Promise<LabInternals<HfModule>>} startHfModule this instance's Hugging Face module, started once
   */
  constructor(raw, flavour, startHfModule) {
    super(raw, flavour, startHfModule);
    // Names the C++ core defines, read once from it.
    /**
     * The positional schemes of createModel(), in the C++ core's order: learned, sinusoidal, rope, alibi, t5, none.
     * @readonly
     * @type {readonly PositionScheme[]}
     */
    this.positionSchemes = Object.freeze(raw.positionSchemes());
    /**
     * The RoPE layouts of createModel({ropeLayout}), in the C++ core's order: interleaved, rotate_half.
     * @readonly
     * @type {readonly RopeLayout[]}
     */
    this.ropeLayouts = Object.freeze(raw.ropeLayouts());
    /**
     * RoPE scaling types: 'none', 'linear', 'ntk', 'dynamic', 'yarn', 'llama3'.
     * @readonly
     * @type {readonly RopeScalingType[]}
     */
    this.ropeScalingTypes = Object.freeze(raw.ropeScalingTypes());
    /**
     * Every {@link RopeScaling} field's default, from the C++ core (transformers' values): type 'none', factor 1,
     * originalContextLength 0, betaFast 32, betaSlow 1, attentionFactor 0 (0.1 · ln(factor) + 1), truncate true,
     * lowFrequencyFactor 1, highFrequencyFactor 4.
     * @readonly
     * @type {Readonly<Required<RopeScaling>>}
     */
    this.ropeScalingDefaults = Object.freeze(raw.ropeScalingDefaults());
    /**
     * What createModel fills in for an option left out, from the C++ core (GptConfig, AdamWOptions), shaped as
     * {@link Model.config} (frozen): contextLength 32, channels 32, layers 2, heads 2, positions 'learned', ...,
     * seed 0, optimizer {learningRate: 1e-3, beta1: 0.9, beta2: 0.95, eps: 1e-8, weightDecay: 0.1, maxGradNorm: 1}.
     * vocabSize has no default.
     * @readonly
     * @type {ModelDefaults}
     */
    this.modelDefaults = readModelDefaults(raw);
    /**
     * The schemes of longContextRun(), those the model has: learned, sinusoidal, rope, rope_pi, ..., none.
     * @readonly
     * @type {readonly LongContextScheme[]}
     */
    this.longContextSchemes = Object.freeze(raw.longContextSchemes());
    /**
     * Every option's default of longContextRun() and longContextExperiment() (scheme, seed, seeds too), and the
     * task names, from the C++ core (training/long_context_run.h): what a run uses for an option left out.
     * @readonly
     * @type {LongContextDefaults}
     */
    this.longContextDefaults = longContext.readDefaults(raw);
    /**
     * @readonly
     * @type {Kernels}
     */
    this.kernels = Object.freeze(embeddings.makeKernels(internalsOf(this)));
  }

  // ---- models ----

  /**
   * A tiny GPT with AdamW.
   * @param {ModelConfig} config
   * @returns {Model}
   */
  createModel(config) {
    return models.createModel(internalsOf(this), config);
  }

  /**
   * A model from {@link Model.save} bytes, optimizer state included.
   * @param {Uint8Array | ArrayBuffer} bytes
   * @returns {Model}
   */
  loadModel(bytes) {
    return models.loadModel(internalsOf(this), bytes);
  }

  /**
   * `vector` (even length: one head's q or k) rotated by RoPE at `position` exactly as a model with
   * positions 'rope' rotates it: each pair by position · base^(−2i/d). q · k of two rotated vectors depends
   * only on their positions' difference.
   * @example lab.ropeRotate(q, 5, { base: 10000, layout: 'interleaved' }) // Float32Array, same length as q
   * @param {Vector} vector
   * @param {number} position
   * @param {RopeRotateOptions} [options]
   * @returns {Float32Array}
   */
  ropeRotate(vector, position, options) {
    return positions.ropeRotate(internalsOf(this), vector, position, options);
  }

  /**
   * RoPE's inverse frequencies θ_i (i < headDim/2, in double precision) and attention factor under a scaling,
   * exactly as a model with that ropeScaling uses them (Hugging Face transformers' modeling_rope_utils).
   * @example lab.ropeFrequencies({ headDim: 64, scaling: { type: 'yarn', factor: 4, originalContextLength: 64 } })
   * // {inverseFrequencies: Float64Array(32), attentionFactor: 1.1386…}
   * @param {RopeFrequenciesOptions} options
   * @returns {RopeFrequencies}
   */
  ropeFrequencies(options) {
    return positions.ropeFrequencies(internalsOf(this), options);
  }

  /**
   * The parameters of a transformer of this configuration, by part (token table, output head, position table,
   * attention, MLP, norms), the token tables' share and the weights' memory at float32 and bfloat16.
   * @example lab.transformerParameterCount({ vocabSize: 50257, channels: 768, layers: 12, heads: 12, positionRows: 1024 }).total // 124439808 (GPT-2)
   * @param {TransformerConfig} config
   * @returns {TransformerParameterCount}
   */
  transformerParameterCount(config) {
    return parameterCount.transformerParameterCount(internalsOf(this), config);
  }

  /**
   * The ALiBi slope m_h of each head h = 1…heads, as a model with positions 'alibi' uses them: head h adds
   * −m_h · (i − j) to the score of query i and key j. Press et al.'s reference construction: 2^(−8h/H) when
   * H is a power of two, otherwise the slopes of the power of two n below H, then every other slope of 2n.
   * @example lab.alibiSlopes(4) // Float32Array [0.25, 0.0625, 0.015625, 0.00390625]
   * @example lab.alibiSlopes(3) // Float32Array [0.0625, 0.00390625, 0.25]
   * @param {number} heads
   * @returns {Float32Array}
   */
  alibiSlopes(heads) {
    return positions.alibiSlopes(internalsOf(this), heads);
  }

  /**
   * T5's bucket of every (query i, key j), row-major length × length, as a model with positions 't5' reads its
   * bias table (Raffel et al. 2020; transformers' `_relative_position_bucket` of the offset j − i). Causal
   * (default): every bucket for keys at or before the query, keys after it in bucket 0; bidirectional: half the
   * buckets per sign. Of B buckets per sign, E = B / 2 are exact offsets 0…E−1; then log-spaced up to maxDistance,
   * past which all share the last.
   * @example lab.relativePositionBuckets({ length: 3, bidirectional: true }) // Int32Array [0, 17, 18, 1, 0, 17, 2, 1, 0]
   * @param {RelativePositionBucketsOptions} options
   * @returns {Int32Array}
   */
  relativePositionBuckets(options) {
    return positions.relativePositionBuckets(internalsOf(this), options);
  }

  // ---- training data (the project PRNG: the same numbers for a seed natively and in wasm) ----

  /**
   * `count` (in [0, 2^24]) uniforms in [0, 1) from the project PRNG: the same for a seed natively and in wasm.
   * @param {number} count
   * @param {RandomUniformOptions} [options]
   * @returns {Float64Array}
   */
  randomUniform(count, options) {
    return batches.randomUniform(internalsOf(this), count, options);
  }

  /**
   * Random windows of a token stream, seeded: call `next()` for each training step.
   * @param {TokenIds} tokens
   * @param {CorpusBatchesOptions} options
   * @returns {CorpusBatches}
   */
  corpusBatches(tokens, options) {
    return batches.corpusBatches(internalsOf(this), tokens, options);
  }

  /**
   * `batch` windows of `length` tokens spread evenly over the stream (window b starts at
   * b · ⌊(tokens − length − 1) / batch⌋), with next-token targets: a fixed batch for validation losses.
   * @param {TokenIds} tokens
   * @param {WindowOptions} options
   * @returns {WindowBatch}
   */
  evenlySpacedWindows(tokens, options) {
    return batches.evenlySpacedWindows(internalsOf(this), tokens, options);
  }

  // ---- long contexts (train at T, read at T x factor; see docs/long-contexts.md) ----

  /**
   * One passkey sequence: filler, KEY and the digits at `depth`, QUERY and the answer; `text` spells it.
   * @param {PasskeySampleOptions} options
   * @returns {LongContextSequence & { text: string }}
   */
  passkeySample(options) {
    return longContext.passkeySample(internalsOf(this), options);
  }

  /**
   * One associative-recall sequence: distinct key-value pairs, QUERY, the key of the pair at `depth`.
   * @param {RecallSampleOptions} options
   * @returns {LongContextSequence}
   */
  recallSample(options) {
    return longContext.recallSample(internalsOf(this), options);
  }

  /**
   * One (scheme, seed) run: train at trainLength, read at trainLength x factor zero-shot, then fine-tune briefly at
   * each longer length and read again. Learned positions past T are reported unavailable with the model's refusal.
   * @param {LongContextRunOptions} [options]
   * @returns {Promise<LongContextRunResult>}
   */
  longContextRun(options) {
    return longContext.longContextRun(internalsOf(this), options);
  }

  /**
   * Every scheme x seed (the RoPE rows of a seed read one trained model) with the spread over seeds.
   * @param {LongContextExperimentOptions} [options]
   * @returns {Promise<LongContextExperimentResult>}
   */
  longContextExperiment(options) {
    return longContext.longContextExperiment(internalsOf(this), options);
  }

  // ---- embeddings ----

  /**
   * The rows of `table` (rows × dim, row-major) with the largest cosine to `query`, best first; equal cosines
   * keep row order. `query` is a row of the table (which is then skipped: a row is its own nearest
   * neighbour) or a vector of dim numbers.
   * @example lab.nearestRows(model.tokenEmbeddings(), channels, 5, { k: 3 }) // [{row, cosine}, ...]
   * @param {Vector} table
   * @param {number} dim
   * @param {number | Vector} query
   * @param {NearestRowsOptions} [options]
   * @returns {RowCosine[]}
   */
  nearestRows(table, dim, query, options) {
    return neighbours.nearestRows(internalsOf(this), table, dim, query, options);
  }

  /**
   * The first `count` principal components of the rows of `values` (rows × cols, row-major), computed in
   * double precision: the directions of largest variance and each row's coordinates along them.
   * @example
   * const { projections } = lab.principalComponents(model.tokenEmbeddings(), vocabSize, channels);
   * // row r of the table plots at (projections[2 * r], projections[2 * r + 1])
   * @param {Vector} values
   * @param {number} rows
   * @param {number} cols
   * @param {PrincipalComponentsOptions} [options]
   * @returns {PrincipalComponents}
   */
  principalComponents(values, rows, cols, options) {
    return principal.principalComponents(internalsOf(this), values, rows, cols, options);
  }

  /**
   * GloVe word vectors (Pennington et al. 2014) trained on `ids` as glove.c trains them: 1/distance-weighted
   * symmetric co-occurrence counts, weighted least squares, AdaGrad; vectors = words + contexts. See the guide.
   * @example const { vectors, losses } = await lab.trainWordVectors({ ids, vocabSize: 1000, dim: 50 })
   * @param {TrainWordVectorsOptions} options
   * @returns {Promise<TrainedWordVectors>}
   */
  trainWordVectors(options) {
    return wordVectorTraining.trainWordVectors(internalsOf(this), options);
  }

  /**
   * @param {TokenEmbeddingOptions} options
   * @returns {TokenEmbedding}
   */
  tokenEmbedding(options) {
    return embeddings.tokenEmbedding(internalsOf(this), options);
  }

  /**
   * @param {PositionalKind} kind
   * @param {PositionalEncodingOptions} options
   * @returns {PositionalEncoding}
   */
  positionalEncoding(kind, options) {
    return embeddings.positionalEncoding(internalsOf(this), kind, options);
  }

  /**
   * @param {SelfAttentionOptions} options
   * @returns {SelfAttention}
   */
  selfAttention(options) {
    return embeddings.selfAttention(internalsOf(this), options);
  }

  /**
   * input = token embedding + position embedding, for each id.
   * @param {TokenIds} ids
   * @param {ComposeOptions} options
   * @returns {ComposedSequence}
   */
  compose(ids, options) {
    return embeddings.compose(internalsOf(this), ids, options);
  }

  /**
   * Compares two sequences: input similarity, pooled cosine, and the same after attention. The overloads say
   * when `attention` is there: with the attention layer (the default) it is, with `attention: false | null` not.
   * @overload
   * @param {TokenIds} idsA
   * @param {TokenIds} idsB
   * @param {CompareWithAttentionOptions} options
   * @returns {Comparison & { attention: AttentionComparison }}
   */
  /**
   * @overload
   * @param {TokenIds} idsA
   * @param {TokenIds} idsB
   * @param {CompareWithoutAttentionOptions} options
   * @returns {Comparison & { attention: null }}
   */
  /**
   * @overload
   * @param {TokenIds} idsA
   * @param {TokenIds} idsB
   * @param {CompareOptions} options
   * @returns {Comparison}
   */
  /**
   * @param {TokenIds} idsA
   * @param {TokenIds} idsB
   * @param {CompareOptions} options
   * @returns {Comparison}
   */
  compare(idsA, idsB, options) {
    return embeddings.compare(internalsOf(this), idsA, idsB, options);
  }

  // ---- files ----

  /**
   * Parses a GloVe / word2vec text file (text, bytes, Blob or File).
   * @param {string | Uint8Array | ArrayBuffer | Blob} source
   * @returns {Promise<WordVectors>}
   */
  loadWordVectors(source) {
    return fileReaders.loadWordVectors(internalsOf(this), source);
  }

  /**
   * GloVe text of a table: one "word v1 … vd" line per word (words[i] with row i of `table`, words.length × dim),
   * each value with 9 significant digits so loadWordVectors gives back the same float32 values. Words must be
   * non-empty and free of whitespace.
   * @example lab.wordVectorsText(['dog', 'cat'], model.tokenEmbeddings().subarray(0, 2 * 32), 32)
   * @param {readonly string[]} words
   * @param {Vector} table
   * @param {number} dim
   * @returns {string}
   */
  wordVectorsText(words, table, dim) {
    return gloveText.wordVectorsText(internalsOf(this), words, table, dim);
  }

  /**
   * Opens a safetensors file (bytes, Blob or File), reading only its header.
   * @param {Uint8Array | ArrayBuffer | Blob} source
   * @returns {Promise<SafetensorsFile>}
   */
  readSafetensors(source) {
    return fileReaders.readSafetensors(internalsOf(this), source);
  }
}
