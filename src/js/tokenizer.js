// Package entry `embedlab/tokenizer`: the BPE tokenizer alone, on its own small wasm module (src/text and
// src/bpe only). It runs the same Tokenizer class and the same tokenizer functions as the full package (so the
// ids are the same), over a lab-like object that holds just what those functions use.
import { requireOptions } from './runtime/checks.js';
import { tokenizerFromVocabulary as fromVocabulary } from './files/readers.js';
import * as tokenizers from './tokenizer/loading.js';
import { encodingNameForModel } from './tokenizer/model_encodings.js';
import { simdSupported, startModule } from './runtime/wasm_loader.js';

export { Tokenizer } from './tokenizer/tokenizer.js';
export { encodingNameForModel, simdSupported };

const ERROR_TYPES = { RangeError, TypeError, Error };

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

/** The tokenizer functions of one instance of the tokenizer module; see createTokenizers(). */
export class Tokenizers {
  #raw;
  #internals;

  constructor(raw, flavour) {
    this.#raw = raw;
    this.#internals = Object.freeze({ lab: this, raw, stage: (bytes) => this.#stage(bytes) });
    /** Package version. */
    this.version = raw.version();
    /** "WASM" (built with SIMD128) or "EMU128" (without), as EmbedLab reports it. */
    this.simdTarget = raw.simdTarget();
    /** Which module was loaded: "simd" or "fallback". */
    this.flavour = flavour;
    /** Caps on sizes, the same the C++ core enforces. */
    this.limits = Object.freeze(raw.limits());
    /** Pre-tokenizer patterns of trainTokenizer() and tokenizerFromVocabulary(): 'gpt2', 'cl100k', 'o200k'. */
    this.patternNames = Object.freeze(raw.patternNames());
  }

  /** Encoding names accepted by getTokenizer(). */
  get tokenizerNames() {
    return [...tokenizers.ENCODING_NAMES];
  }

  /** Wasm memory: {heapBytes: size of the wasm memory, allocatedBytes: bytes malloc has handed out}. */
  memory() {
    return { heapBytes: this.#raw.HEAPU8.length, allocatedBytes: this.#raw.allocatedBytes() };
  }

  /** Runs a raw call and turns a recorded C++ error into a thrown JS error (as EmbedLab.call does). */
  call(body) {
    const result = body();
    if (this.#raw.hasError()) {
      const { kind, message } = this.#raw.takeError();
      throw new (ERROR_TYPES[kind] ?? Error)(message);
    }
    return result;
  }

  /** As EmbedLab.getTokenizer: one of OpenAI's vocabularies by name. */
  getTokenizer(name, options) {
    return tokenizers.getTokenizer(this.#internals, name, options);
  }

  /** As EmbedLab.encodingNameForModel: the encoding an OpenAI model uses ('gpt-4o' -> 'o200k_base'). */
  encodingNameForModel(model) {
    return encodingNameForModel(model);
  }

  /** As EmbedLab.encodingForModel: getTokenizer of the model's encoding. */
  async encodingForModel(model, options) {
    return tokenizers.getTokenizer(this.#internals, encodingNameForModel(model), options);
  }

  /** As EmbedLab.trainTokenizer. */
  trainTokenizer(corpus, options) {
    return tokenizers.trainTokenizer(this.#internals, corpus, options);
  }

  /** As EmbedLab.tokenizerFromVocabulary. */
  tokenizerFromVocabulary(files) {
    return fromVocabulary(this.#internals, files);
  }

  /** As EmbedLab.loadTokenizer: a file from tokenizer.save(). */
  loadTokenizer(bytes) {
    return tokenizers.loadTokenizer(this.#internals, bytes);
  }

  #stage(bytes) {
    const raw = this.#raw;
    const pointer = this.call(() => raw.stagingBuffer(bytes.length));
    raw.HEAPU8.set(bytes, pointer);
  }
}

/**
 * Loads the tokenizer module: {simd = 'auto' | true | false, wasm} as createEmbedLab takes them (wasm: a
 * WebAssembly.Module, bytes or URL of embedlab-tokenizer-simd.wasm or -fallback.wasm).
 */
export async function createTokenizers(options = {}) {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`options must be an object, got ${options === null ? 'null' : typeof options}`);
  }
  const { simd = 'auto', wasm } = requireOptions('options', options, ['simd', 'wasm']);
  const { raw, flavour } = await startModule({ simd, wasm }, BUNDLED, 'embedlab-tokenizer');
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
