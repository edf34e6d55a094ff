// Tokenizers: the tokenizer methods of a loaded module, the whole API of the `embedlab/tokenizer` entry and the
// base of EmbedLab (lab.js), so both entries run the same methods on their own module.
import { WasmInstance, internalsOf } from '../runtime/wasm_instance.js';
import { tokenizerFromHuggingFace } from './from_hugging_face.js';
import { tokenizerFromVocabulary } from './from_vocabulary.js';
import { ENCODING_NAMES, getTokenizer, loadTokenizer, trainTokenizer } from './create.js';
import { encodingNameForModel } from './model_encodings.js';
/** @import { HfTokenizer } from './hf_tokenizer.js' */
/** @import { HfModule } from './hf_module.js' */
/** @import { LabInternals } from '../runtime/types.js' */
/** @import { Tokenizer } from './tokenizer.js' */
/** @import { EncodingName, GetTokenizerOptions, HuggingFaceJson, PatternName, TokenizerFromHuggingFaceOptions, TrainTokenizerOptions, VocabularyFiles } from './types.js' */

/** One instance of the tokenizer module, from {@link createTokenizers}; its methods are EmbedLab's. */
export class Tokenizers extends WasmInstance {
  /** @type {() => Promise<LabInternals<HfModule>>} */
  #startHfModule;

  /**
   * @internal
   * @param {any} raw the Embind module
   * @param {'simd' | 'fallback'} flavour
   * @param {() => Promise<LabInternals<HfModule>>} startHfModule this instance's Hugging Face module, started once
   */
  constructor(raw, flavour, startHfModule) {
    super(raw, flavour);
    this.#startHfModule = startHfModule;
    /**
     * The pre-tokenizer patterns the C++ core implements, for trainTokenizer() and tokenizerFromVocabulary().
     * @readonly
     * @type {readonly PatternName[]}
     */
    this.patternNames = Object.freeze(raw.patternNames());
  }

  /**
   * The names getTokenizer() accepts.
   * @returns {EncodingName[]}
   */
  get tokenizerNames() {
    return [...ENCODING_NAMES];
  }

  /**
   * Loads an OpenAI vocabulary (shipped with the package in binary form: 1–5 ms once the file is read) as a {@link Tokenizer}.
   * @param {EncodingName} name
   * @param {GetTokenizerOptions} [options]
   * @returns {Promise<Tokenizer>}
   */
  getTokenizer(name, options) {
    return getTokenizer(internalsOf(this), name, options);
  }

  /**
   * The encoding an OpenAI model uses, as tiktoken maps it ('gpt-4o' -> 'o200k_base', 'gpt-4' -> 'cl100k_base'):
   * an exact model name, else a known prefix (dated and fine-tuned names). Throws a RangeError for other names.
   * @param {string} model
   * @returns {EncodingName}
   */
  encodingNameForModel(model) {
    return encodingNameForModel(model);
  }

  /**
   * getTokenizer(encodingNameForModel(model), options): the tokenizer of an OpenAI model.
   * @param {string} model
   * @param {GetTokenizerOptions} [options]
   * @returns {Promise<Tokenizer>}
   */
  async encodingForModel(model, options) {
    return getTokenizer(internalsOf(this), encodingNameForModel(model), options);
  }

  /**
   * Trains a byte-level BPE vocabulary (incremental pair counts and a heap; ties go to the pair with the
   * lowest left id, then the lowest right id), in slices that yield to the event loop.
   * @param {string | Uint8Array} corpus
   * @param {TrainTokenizerOptions} options
   * @returns {Promise<Tokenizer>}
   */
  trainTokenizer(corpus, options) {
    return trainTokenizer(internalsOf(this), corpus, options);
  }

  /**
   * A tokenizer file from {@link Tokenizer.save} (either form). The binary form of {@link HfTokenizer.save} is
   * refused here with a TypeError: it needs the Hugging Face module, so it loads with
   * `await lab.tokenizerFromHuggingFace(bytes)`.
   * @param {Uint8Array | ArrayBuffer | string} bytes
   * @returns {Tokenizer}
   */
  loadTokenizer(bytes) {
    return loadTokenizer(internalsOf(this), bytes);
  }

  /**
   * A tokenizer from vocabulary files: a .tiktoken file with a named encoding (or a pattern and special
   * tokens), npm tiktoken's encoder JSON, or GPT-2's encoder.json + vocab.bpe.
   * @param {VocabularyFiles} files
   * @returns {Tokenizer}
   */
  tokenizerFromVocabulary(files) {
    return tokenizerFromVocabulary(internalsOf(this), files);
  }

  /**
   * A tokenizer from a Hugging Face tokenizer.json (model BPE: Llama 3 and 3.1, Qwen 3, DeepSeek V3, Gemma 3,
   * Llama 2, …), byte-exact with `@huggingface/tokenizers` (and the Rust `tokenizers` crate where the two differ,
   * as the guide lists), or the binary form of {@link HfTokenizer.save}, which loads without parsing JSON. `json` and
   * `options.config` (tokenizer_config.json, read for clean_up_tokenization_spaces) are each the file's text, its
   * bytes or the parsed object. A part the core does not implement (another model type, an unknown normalizer,
   * pre-tokenizer or decoder, a split regex it has no scanner for) is refused with an Error naming it. The core of
   * these tokenizers is a wasm module of its own (`embedlab-hf-*.wasm`, see options.hfWasm of createEmbedLab), which
   * the first call starts and every later one shares: hence a Promise.
   * @param {HuggingFaceJson} json
   * @param {TokenizerFromHuggingFaceOptions} [options]
   * @returns {Promise<HfTokenizer>}
   */
  tokenizerFromHuggingFace(json, options) {
    return tokenizerFromHuggingFace(this.#startHfModule, json, options);
  }
}
