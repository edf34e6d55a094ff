// Tokenizers: the tokenizer methods of a loaded module, the whole API of the `embedlab/tokenizer` entry and the
// base of EmbedLab (lab.js), so both entries run the same methods on their own module.
import { WasmInstance, internalsOf } from '../runtime/wasm_instance.js';
import { tokenizerFromVocabulary } from './from_vocabulary.js';
import { ENCODING_NAMES, getTokenizer, loadTokenizer, trainTokenizer } from './loading.js';
import { encodingNameForModel } from './model_encodings.js';

export class Tokenizers extends WasmInstance {
  constructor(raw, flavour) {
    super(raw, flavour);
    /** Pre-tokenizer patterns of trainTokenizer() and tokenizerFromVocabulary(): 'gpt2', 'cl100k', 'o200k'. */
    this.patternNames = Object.freeze(raw.patternNames());
  }

  /** Encoding names accepted by getTokenizer(). */
  get tokenizerNames() {
    return [...ENCODING_NAMES];
  }

  /**
   * Loads one of OpenAI's vocabularies: 'gpt2' | 'r50k_base' | 'p50k_base' | 'p50k_edit' | 'cl100k_base' |
   * 'o200k_base'; options.vocabulary: that encoding's bytes from the caller (where no file system or fetch is).
   */
  getTokenizer(name, options) {
    return getTokenizer(internalsOf(this), name, options);
  }

  /** The encoding an OpenAI model uses, as tiktoken maps it: 'gpt-4o' -> 'o200k_base' (exact names, then prefixes). */
  encodingNameForModel(model) {
    return encodingNameForModel(model);
  }

  /** The tokenizer of an OpenAI model ('gpt-4o', 'gpt-4', 'text-davinci-003', ...): getTokenizer of its encoding. */
  async encodingForModel(model, options) {
    return getTokenizer(internalsOf(this), encodingNameForModel(model), options);
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
    return trainTokenizer(internalsOf(this), corpus, options);
  }

  /** A tokenizer saved with tokenizer.save() (text or binary form). */
  loadTokenizer(bytes) {
    return loadTokenizer(internalsOf(this), bytes);
  }

  /**
   * A tokenizer from vocabulary files you have: {tiktoken, encoding} (a .tiktoken file with a named
   * encoding's pattern and special tokens) or {tiktoken, pattern, specialTokens, name}; {tiktokenJson}
   * (npm tiktoken's encoder JSON: pat_str, special_tokens, bpe_ranks); {encoderJson, vocabBpe} (GPT-2's
   * files). Files are strings or bytes.
   */
  tokenizerFromVocabulary(files) {
    return tokenizerFromVocabulary(internalsOf(this), files);
  }
}
