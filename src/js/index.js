// Entry point: picks the SIMD module when the engine validates SIMD128 and wasm exception handling, else the
// fallback, and finds the .wasm next to this file or takes the caller's (wasm_loader.js).
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
import { EmbedLab } from './lab.js';
import { simdSupported, startModule } from './runtime/wasm_loader.js';
import { hfModuleStarter } from './tokenizer/hf_module.js';

export { EmbedLab };
export { PositionalEncoding, SelfAttention, TokenEmbedding } from './embeddings/handles.js';
export { WasmHandle } from './runtime/wasm_handle.js';
export { WordVectors } from './embeddings/word_vectors.js';
export { CorpusBatches } from './training/batches.js';
export { Model } from './model/model.js';
export { SafetensorsFile } from './files/safetensors.js';
export { Tokenizer } from './tokenizer/tokenizer.js';
export { HfTokenizer } from './tokenizer/hf_tokenizer.js';

export { simdSupported };

// The package's types by name (`import type { TokenSpan } from 'embedlab'`): the option and result shapes of the
// folders' types.d.ts files.
/** @typedef {import('./embeddings/types.js').PositionalKind} PositionalKind */
/** @typedef {import('./embeddings/types.js').AttentionResult} AttentionResult */
/** @typedef {import('./embeddings/types.js').TokenEmbeddingOptions} TokenEmbeddingOptions */
/** @typedef {import('./embeddings/types.js').PositionalEncodingOptions} PositionalEncodingOptions */
/** @typedef {import('./embeddings/types.js').SelfAttentionOptions} SelfAttentionOptions */
/** @typedef {import('./embeddings/types.js').ComposeOptions} ComposeOptions */
/** @typedef {import('./embeddings/types.js').ComposedSequence} ComposedSequence */
/** @typedef {import('./embeddings/types.js').CompareOptions} CompareOptions */
/** @typedef {import('./embeddings/types.js').Comparison} Comparison */
/** @typedef {import('./embeddings/types.js').AttentionComparison} AttentionComparison */
/** @typedef {import('./embeddings/types.js').CompareWithAttentionOptions} CompareWithAttentionOptions */
/** @typedef {import('./embeddings/types.js').CompareWithoutAttentionOptions} CompareWithoutAttentionOptions */
/** @typedef {import('./embeddings/types.js').Kernels} Kernels */
/** @typedef {import('./embeddings/types.js').NearestRowsOptions} NearestRowsOptions */
/** @typedef {import('./embeddings/types.js').RowCosine} RowCosine */
/** @typedef {import('./embeddings/types.js').PrincipalComponentsOptions} PrincipalComponentsOptions */
/** @typedef {import('./embeddings/types.js').PrincipalComponents} PrincipalComponents */
/** @typedef {import('./embeddings/types.js').TrainWordVectorsOptions} TrainWordVectorsOptions */
/** @typedef {import('./embeddings/types.js').TrainedWordVectors} TrainedWordVectors */
/** @typedef {import('./embeddings/types.js').WordVectorsProgress} WordVectorsProgress */
/** @typedef {import('./embeddings/types.js').Cooccurrences} Cooccurrences */
/** @typedef {import('./files/types.js').TensorInfo} TensorInfo */
/** @typedef {import('./model/types.js').PositionScheme} PositionScheme */
/** @typedef {import('./model/types.js').RopeLayout} RopeLayout */
/** @typedef {import('./model/types.js').OptimizerOptions} OptimizerOptions */
/** @typedef {import('./model/types.js').ModelConfig} ModelConfig */
/** @typedef {import('./model/types.js').ModelDefaults} ModelDefaults */
/** @typedef {import('./model/types.js').Batch} Batch */
/** @typedef {import('./model/types.js').TrainStepResult} TrainStepResult */
/** @typedef {import('./model/types.js').TrainOptions} TrainOptions */
/** @typedef {import('./model/types.js').TransformerConfig} TransformerConfig */
/** @typedef {import('./model/types.js').ParameterBytes} ParameterBytes */
/** @typedef {import('./model/types.js').TransformerParameterCount} TransformerParameterCount */
/** @typedef {import('./positions/types.js').RopeRotateOptions} RopeRotateOptions */
/** @typedef {import('./positions/types.js').RopeScalingType} RopeScalingType */
/** @typedef {import('./positions/types.js').RopeScaling} RopeScaling */
/** @typedef {import('./positions/types.js').RopeFrequenciesOptions} RopeFrequenciesOptions */
/** @typedef {import('./positions/types.js').RopeFrequencies} RopeFrequencies */
/** @typedef {import('./positions/types.js').RelativePositionBucketsOptions} RelativePositionBucketsOptions */
/** @typedef {import('./runtime/types.js').TokenIds} TokenIds */
/** @typedef {import('./runtime/types.js').Vector} Vector */
/** @typedef {import('./runtime/types.js').CreateOptions} CreateOptions */
/** @typedef {import('./runtime/types.js').WasmModule} WasmModule */
/** @typedef {import('./runtime/types.js').Limits} Limits */
/** @typedef {import('./tokenizer/types.js').EncodingName} EncodingName */
/** @typedef {import('./tokenizer/types.js').PatternName} PatternName */
/** @typedef {import('./tokenizer/types.js').VocabularyFiles} VocabularyFiles */
/** @typedef {import('./tokenizer/types.js').GetTokenizerOptions} GetTokenizerOptions */
/** @typedef {import('./tokenizer/types.js').SpecialTokenOptions} SpecialTokenOptions */
/** @typedef {import('./tokenizer/types.js').TokenSpan} TokenSpan */
/** @typedef {import('./tokenizer/types.js').StreamingDecoder} StreamingDecoder */
/** @typedef {import('./tokenizer/types.js').StreamOptions} StreamOptions */
/**
 * @template T
 * @typedef {import('./tokenizer/types.js').ReadableStreamLike<T>} ReadableStreamLike
 */
/** @typedef {import('./tokenizer/types.js').TextSource} TextSource */
/** @typedef {import('./tokenizer/types.js').IdsSource} IdsSource */
/** @typedef {import('./tokenizer/types.js').TokenizerTrainingProgress} TokenizerTrainingProgress */
/** @typedef {import('./tokenizer/types.js').TrainTokenizerOptions} TrainTokenizerOptions */
/** @typedef {import('./tokenizer/types.js').HuggingFaceJson} HuggingFaceJson */
/** @typedef {import('./tokenizer/types.js').TokenizerFromHuggingFaceOptions} TokenizerFromHuggingFaceOptions */
/** @typedef {import('./tokenizer/types.js').HfEncodeOptions} HfEncodeOptions */
/** @typedef {import('./tokenizer/types.js').HfDecodeOptions} HfDecodeOptions */
/** @typedef {import('./tokenizer/types.js').HfTokenSpan} HfTokenSpan */
/** @typedef {import('./tokenizer/types.js').HfStreamOptions} HfStreamOptions */
/** @typedef {import('./training/types.js').WindowBatch} WindowBatch */
/** @typedef {import('./training/types.js').WindowOptions} WindowOptions */
/** @typedef {import('./training/types.js').CorpusBatchesOptions} CorpusBatchesOptions */
/** @typedef {import('./training/types.js').RandomUniformOptions} RandomUniformOptions */
/** @typedef {import('./training/types.js').LongContextTask} LongContextTask */
/** @typedef {import('./training/types.js').LongContextDefaults} LongContextDefaults */
/** @typedef {import('./training/types.js').LongContextScheme} LongContextScheme */
/** @typedef {import('./training/types.js').LongContextProgress} LongContextProgress */
/** @typedef {import('./training/types.js').LongContextOptions} LongContextOptions */
/** @typedef {import('./training/types.js').LongContextRunOptions} LongContextRunOptions */
/** @typedef {import('./training/types.js').LongContextTrainedModel} LongContextTrainedModel */
/** @typedef {import('./training/types.js').LongContextExperimentOptions} LongContextExperimentOptions */
/** @typedef {import('./training/types.js').LongContextReading} LongContextReading */
/** @typedef {import('./training/types.js').LongContextRunResult} LongContextRunResult */
/** @typedef {import('./training/types.js').SeedSpread} SeedSpread */
/** @typedef {import('./training/types.js').LongContextSummaryEntry} LongContextSummaryEntry */
/** @typedef {import('./training/types.js').LongContextExperimentResult} LongContextExperimentResult */
/** @typedef {import('./training/types.js').LongContextSequence} LongContextSequence */
/** @typedef {import('./training/types.js').PasskeySampleOptions} PasskeySampleOptions */
/** @typedef {import('./training/types.js').RecallSampleOptions} RecallSampleOptions */

// Literal URLs and imports, so that bundlers (Vite, webpack) see and copy both flavours.
const BUNDLED = {
  simd: { wasm: () => new URL('./embedlab-simd.wasm', import.meta.url), glue: () => import('./embedlab-simd.js') },
  fallback: {
    wasm: () => new URL('./embedlab-fallback.wasm', import.meta.url),
    glue: () => import('./embedlab-fallback.js'),
  },
};

/**
 * Loads the wasm module and resolves to a ready {@link EmbedLab}. options.simd: true (require SIMD), false (force
 * the fallback) or 'auto' (default). options.wasm: the module to run instead of the .wasm next to this file — a
 * WebAssembly.Module (Cloudflare workerd imports .wasm files as Modules), its bytes, or its URL. The flavour is then
 * read from the module itself, and options.simd true/false must agree with it. options.hfWasm: the same for the
 * Hugging Face tokenizer module (embedlab-hf-*.wasm), which the lab starts only at its first tokenizerFromHuggingFace.
 * @param {CreateOptions} [options]
 * @returns {Promise<EmbedLab>}
 */
export async function createEmbedLab(options = {}) {
  const { raw, flavour } = await startModule(options, BUNDLED, 'embedlab');
  return new EmbedLab(raw, flavour, hfModuleStarter(flavour, options.hfWasm));
}

export default createEmbedLab;
