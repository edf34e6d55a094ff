// Package entry `embedlab/tokenizer`: the BPE tokenizer alone, on its own small wasm module (src/text and
// src/bpe only). Its instance is a Tokenizers (tokenizer/tokenizers.js), the class EmbedLab extends, so both entries
// run the same tokenizer methods and give the same ids.
import { simdSupported, startModule } from './runtime/wasm_loader.js';
import { encodingNameForModel } from './tokenizer/model_encodings.js';
import { Tokenizers } from './tokenizer/tokenizers.js';

export { Tokenizer } from './tokenizer/tokenizer.js';
export { encodingNameForModel, simdSupported, Tokenizers };

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
 * Loads the tokenizer module: {simd = 'auto' | true | false, wasm} as createEmbedLab takes them (wasm: a
 * WebAssembly.Module, bytes or URL of embedlab-tokenizer-simd.wasm or -fallback.wasm).
 */
export async function createTokenizers(options = {}) {
  const { raw, flavour } = await startModule(options, BUNDLED, 'embedlab-tokenizer');
  return new Tokenizers(raw, flavour);
}

// The instance behind the module-level functions: created by the first call, not by importing this file.
let shared;
function sharedTokenizers() {
  if (shared === undefined) {
    shared = createTokenizers();
    shared.catch(() => {
      shared = undefined; // a failed load may be retried
    });
  }
  return shared;
}

/** getTokenizer of a shared instance (loaded on first use): one of OpenAI's vocabularies by name. */
export async function getTokenizer(name, options) {
  return (await sharedTokenizers()).getTokenizer(name, options);
}

/** encodingForModel of the shared instance: the tokenizer of an OpenAI model ('gpt-4o', 'gpt-4', ...). */
export async function encodingForModel(model, options) {
  const name = encodingNameForModel(model); // an unknown model fails before the module loads
  return (await sharedTokenizers()).getTokenizer(name, options);
}

/** trainTokenizer of the shared instance. */
export async function trainTokenizer(corpus, options) {
  return (await sharedTokenizers()).trainTokenizer(corpus, options);
}

/** tokenizerFromVocabulary of the shared instance (a Promise here: the module may still have to load). */
export async function tokenizerFromVocabulary(files) {
  return (await sharedTokenizers()).tokenizerFromVocabulary(files);
}

/** loadTokenizer of the shared instance (a Promise here: the module may still have to load). */
export async function loadTokenizer(bytes) {
  return (await sharedTokenizers()).loadTokenizer(bytes);
}

export default createTokenizers;
