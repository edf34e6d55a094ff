// Package entry `embedlab/tokenizer`: the BPE tokenizer alone, on its own small wasm module (src/text and
// src/bpe only; Hugging Face tokenizers run on a third module, started on demand: tokenizer/hf_module.js). Its
// instance is a Tokenizers (tokenizer/tokenizers.js), the class EmbedLab extends, so both entries run the same
// tokenizer methods and give the same ids.
/**
 * embedlab/tokenizer: the BPE tokenizer alone, on its own small wasm module (held under 100 kB gzipped with its
 * glue, against 210 kB for the whole library). The same {@link Tokenizer} as `embedlab`, with the same ids.
 *
 * @example
 * ```ts
 * import { getTokenizer } from 'embedlab/tokenizer';
 * const tokenizer = await getTokenizer('cl100k_base');
 * console.log(tokenizer.encode('hello world')); // Uint32Array(2) [ 15339, 1917 ]
 * ```
 * @packageDocumentation
 */
import { simdSupported, startModule } from './runtime/wasm_loader.js';
import { isHfBinary } from './tokenizer/from_hugging_face.js';
import { hfModuleStarter } from './tokenizer/hf_module.js';
import { encodingNameForModel } from './tokenizer/model_encodings.js';
import { Tokenizers } from './tokenizer/tokenizers.js';

export { Tokenizer } from './tokenizer/tokenizer.js';
export { HfTokenizer } from './tokenizer/hf_tokenizer.js';
export { encodingNameForModel, simdSupported, Tokenizers };
/** @import { Tokenizer } from './tokenizer/tokenizer.js' */
/** @import { HfTokenizer } from './tokenizer/hf_tokenizer.js' */

// The tokenizer's types by name (`import type { TokenSpan } from 'embedlab/tokenizer'`).
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

// Literal URLs and imports, so that bundlers (Vite, webpack) see and copy both flavours.
const BUNDLED = {
  simd: {
    wasm: () => new URL('./embedlab-tokenizer-simd.wasm', import.meta.url),
    glue: () => import('./embedlab-tokenizer-simd.js'),
  },
  fallback: {
    wasm: () => new URL('./embedlab-tokenizer-fallback.wasm', import.meta.url),
    glue: () => import('./embedlab-tokenizer-fallback.js'),
  },
};

/**
 * Loads the tokenizer module. Options as createEmbedLab's: `simd` picks the flavour; `wasm` gives the module
 * (`embedlab-tokenizer-simd.wasm` or `-fallback.wasm`: a WebAssembly.Module, its bytes or its URL); `hfWasm` the
 * Hugging Face module (`embedlab-hf-*.wasm`), started only at the first tokenizerFromHuggingFace.
 * @param {CreateOptions} [options]
 * @returns {Promise<Tokenizers>}
 */
export async function createTokenizers(options = {}) {
  const { raw, flavour } = await startModule(options, BUNDLED, 'embedlab-tokenizer');
  return new Tokenizers(raw, flavour, hfModuleStarter(flavour, options.hfWasm));
}

// The instance behind the module-level functions: created by the first call, not by importing this file.
/** @type {Promise<Tokenizers> | undefined} */
let shared;
/** @returns {Promise<Tokenizers>} */
function sharedTokenizers() {
  if (shared === undefined) {
    shared = createTokenizers();
    shared.catch(() => {
      shared = undefined; // a failed load may be retried
    });
  }
  return shared;
}

/**
 * getTokenizer on an instance loaded by the first of these module-level calls: one of OpenAI's vocabularies by name.
 * @param {EncodingName} name
 * @param {GetTokenizerOptions} [options]
 * @returns {Promise<Tokenizer>}
 */
export async function getTokenizer(name, options) {
  return (await sharedTokenizers()).getTokenizer(name, options);
}

/**
 * getTokenizer(encodingNameForModel(model), options) on the shared instance: the tokenizer of an OpenAI model
 * ('gpt-4o', 'gpt-4', ...).
 * @param {string} model
 * @param {GetTokenizerOptions} [options]
 * @returns {Promise<Tokenizer>}
 */
export async function encodingForModel(model, options) {
  const name = encodingNameForModel(model); // an unknown model fails before the module loads
  return (await sharedTokenizers()).getTokenizer(name, options);
}

/**
 * trainTokenizer on the shared instance.
 * @param {string | Uint8Array} corpus
 * @param {TrainTokenizerOptions} options
 * @returns {Promise<Tokenizer>}
 */
export async function trainTokenizer(corpus, options) {
  return (await sharedTokenizers()).trainTokenizer(corpus, options);
}

/**
 * tokenizerFromVocabulary on the shared instance: a Promise, as the module may still have to load.
 * @param {VocabularyFiles} files
 * @returns {Promise<Tokenizer>}
 */
export async function tokenizerFromVocabulary(files) {
  return (await sharedTokenizers()).tokenizerFromVocabulary(files);
}

/**
 * loadTokenizer on the shared instance, which also takes the binary form of HfTokenizer.save() (through
 * tokenizerFromHuggingFace): a Promise, as a module may still have to load.
 * @param {Uint8Array | ArrayBuffer | string} bytes
 * @returns {Promise<Tokenizer>}
 */
export async function loadTokenizer(bytes) {
  const tokenizers = await sharedTokenizers();
  if ((bytes instanceof Uint8Array || bytes instanceof ArrayBuffer) && isHfBinary(new Uint8Array(bytes))) {
    return tokenizers.tokenizerFromHuggingFace(bytes);
  }
  return tokenizers.loadTokenizer(bytes);
}

/**
 * tokenizerFromHuggingFace on the shared instance: a tokenizer from a Hugging Face tokenizer.json (text, bytes or
 * object), with options.config its tokenizer_config.json. A Promise, as the module may still have to load.
 * @param {HuggingFaceJson} json
 * @param {TokenizerFromHuggingFaceOptions} [options]
 * @returns {Promise<HfTokenizer>}
 */
export async function tokenizerFromHuggingFace(json, options) {
  return (await sharedTokenizers()).tokenizerFromHuggingFace(json, options);
}

export default createTokenizers;
