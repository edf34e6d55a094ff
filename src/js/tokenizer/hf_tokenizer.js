// A Hugging Face tokenizer.json tokenizer (Llama 3, Qwen 3, DeepSeek V3, Gemma 3, Llama 2, …) on the Tokenizer class:
// its Embind handle has the BPE tokenizer's raw interface (embind_hf_tokenizer.cc), so encoding, spans, decoding and
// streams are Tokenizer's; this class has the options of transformers (addSpecialTokens, splitSpecialTokens,
// skipSpecialTokens, cleanUpTokenizationSpaces), the vocabulary's token strings, and Rust's streaming decoder.
import { describe, requireBoolean, requireInteger, requireOptions } from '../runtime/checks.js';
import { Tokenizer, tokenSpansOf } from './tokenizer.js';
import { CUT_PART } from './safe_cut.js';
import { requireTokenIds } from './wasm_text.js';
/** @import { HfDecodeOptions, HfEncodeOptions, HfStreamOptions, HfTokenSpan, StreamingDecoder, TextSource } from './types.js' */

const ENCODE_OPTIONS = Object.freeze(['addSpecialTokens', 'splitSpecialTokens']);
const DECODE_OPTIONS = ['skipSpecialTokens', 'cleanUpTokenizationSpaces'];
const TIKTOKEN_ONLY = ['allowedSpecial', 'disallowedSpecial'];
const REPLACEMENT = '\ufffd';

/** @param {unknown} disallowedSpecial */
function refuseThirdArgument(disallowedSpecial) {
  if (disallowedSpecial !== undefined) {
    throw new TypeError(
      "disallowedSpecial is an argument of tiktoken encodings' encode(text, allowedSpecial, disallowedSpecial), not " +
        "of a Hugging Face tokenizer's encode(text, {addSpecialTokens, splitSpecialTokens})",
    );
  }
}

/**
 * A tokenizer from a Hugging Face tokenizer.json, byte-exact with `@huggingface/tokenizers` (following the Rust
 * `tokenizers` crate where the two differ): from {@link Tokenizers.tokenizerFromHuggingFace}. Every method of {@link Tokenizer};
 * encode options are transformers' (addSpecialTokens, splitSpecialTokens), not tiktoken's.
 */
export class HfTokenizer extends Tokenizer {
  /**
   * 'tokenizer.json': a Hugging Face tokenizer splits text with its file's own pre-tokenizer.
   * @returns {string}
   */
  get pattern() {
    return 'tokenizer.json';
  }

  /**
   * Every added token of the file, special or not, in its order: [{text, id, special}].
   * @returns {ReadonlyArray<{ text: string; id: number; special: boolean }>}
   */
  get addedTokens() {
    return this.raw().addedTokens();
  }

  /**
   * Empty: a tokenizer.json's merges stay inside its vocabulary.
   * @returns {ReadonlyArray<{ left: number; right: number; id: number; count: number }>}
   */
  get merges() {
    this.raw();
    return [];
  }

  /**
   * The cache of pieces the BPE model has encoded (never changing results): {pieces, bytes} it holds now, at most
   * 65,536 pieces in 4 MiB.
   * @returns {{ pieces: number; bytes: number }}
   */
  get cacheSize() {
    return this.raw().cacheSize();
  }

  /**
   * Empties the piece cache and frees its memory.
   * @returns {void}
   */
  clearCache() {
    this.raw().clearCache();
  }

  /**
   * The tokenizer in a compact binary form (no JSON to parse), which lab.tokenizerFromHuggingFace() reads back. There is no
   * text form: the tokenizer.json itself is that.
   * @param {{ binary?: true }} [options]
   * @returns {Uint8Array}
   */
  save(options = {}) {
    const raw = this.raw();
    const { binary = true } = requireOptions('options', options, ['binary']);
    if (binary !== true) {
      throw new TypeError(
        `options.binary must be true (a Hugging Face tokenizer saves in binary form only; its text form is the ` +
          `tokenizer.json), got ${describe(binary)}`,
      );
    }
    return this.lab.call(() => raw.save());
  }

  /**
   * Token ids of `text` (a string, or a Uint8Array of UTF-8), as transformers' `encode(text)`: the post-processor's
   * template tokens (e.g. BOS) unless addSpecialTokens is false; added tokens matched in the text (special ones
   * read as text when splitSpecialTokens is true).
   * @overload
   * @param {string | Uint8Array} text
   * @param {HfEncodeOptions} [options]
   * @returns {Uint32Array}
   */
  /**
   * tiktoken's positional form encode(text, allowedSpecial, disallowedSpecial): a TypeError for a Hugging Face
   * tokenizer, whose special added tokens are always matched (unless options.splitSpecialTokens).
   * @overload
   * @param {string | Uint8Array} text
   * @param {'all' | Iterable<string>} allowedSpecial
   * @param {'all' | Iterable<string>} [disallowedSpecial]
   * @returns {never}
   */
  /**
   * @param {string | Uint8Array} text
   * @param {HfEncodeOptions | 'all' | Iterable<string>} [options]
   * @param {unknown} [disallowedSpecial]
   * @returns {Uint32Array}
   */
  encode(text, options, disallowedSpecial) {
    refuseThirdArgument(disallowedSpecial);
    return this.encodeText(text, false, false, options).ids;
  }

  /**
   * Token ids of `text` with no template tokens and special added tokens read as text: encode(text,
   * {addSpecialTokens: false, splitSpecialTokens: true}). Non-special added tokens still match, as in Rust.
   * @param {string | Uint8Array} text
   * @returns {Uint32Array}
   */
  encodeOrdinary(text) {
    return this.encodeText(text, true, false, undefined).ids;
  }

  /**
   * How many ids `encode(text, options)` would return.
   * @overload
   * @param {string | Uint8Array} text
   * @param {HfEncodeOptions} [options]
   * @returns {number}
   */
  /**
   * tiktoken's positional form encode(text, allowedSpecial, disallowedSpecial): a TypeError for a Hugging Face
   * tokenizer, whose special added tokens are always matched (unless options.splitSpecialTokens).
   * @overload
   * @param {string | Uint8Array} text
   * @param {'all' | Iterable<string>} allowedSpecial
   * @param {'all' | Iterable<string>} [disallowedSpecial]
   * @returns {never}
   */
  /**
   * @param {string | Uint8Array} text
   * @param {HfEncodeOptions | 'all' | Iterable<string>} [options]
   * @param {unknown} [disallowedSpecial]
   * @returns {number}
   */
  count(text, options, disallowedSpecial) {
    refuseThirdArgument(disallowedSpecial);
    return this.encodeText(text, false, false, options, false).count;
  }

  /**
   * Tokens with their spans: [{id, token, start, end, bytes, text}]: the vocabulary's string of the token ("ĠHello",
   * "▁the", "<0x0A>"), and the span [start, end) in the UTF-8 input it came from, with those input bytes and their
   * text. A byte-level token spans exactly its bytes (even part of a character); byte_fallback's <0xNN> tokens of one
   * character all span that character, so spans may repeat; template tokens have an empty span.
   * @overload
   * @param {string | Uint8Array} text
   * @param {HfEncodeOptions} [options]
   * @returns {HfTokenSpan[]}
   */
  /**
   * tiktoken's positional form encode(text, allowedSpecial, disallowedSpecial): a TypeError for a Hugging Face
   * tokenizer, whose special added tokens are always matched (unless options.splitSpecialTokens).
   * @overload
   * @param {string | Uint8Array} text
   * @param {'all' | Iterable<string>} allowedSpecial
   * @param {'all' | Iterable<string>} [disallowedSpecial]
   * @returns {never}
   */
  /**
   * @param {string | Uint8Array} text
   * @param {HfEncodeOptions | 'all' | Iterable<string>} [options]
   * @param {unknown} [disallowedSpecial]
   * @returns {HfTokenSpan[]}
   */
  tokens(text, options, disallowedSpecial) {
    refuseThirdArgument(disallowedSpecial);
    const spans = /** @type {HfTokenSpan[]} */ (tokenSpansOf(this.encodeText(text, false, true, options)));
    const strings = this.raw().encodedTokenStrings();
    spans.forEach((span, i) => {
      span.token = strings[i];
    });
    return spans;
  }

  /**
   * The vocabulary's string of one token ("ĠHello", "▁the", "<0x0A>", "<|begin_of_text|>").
   * @param {number} id
   * @returns {string}
   */
  tokenString(id) {
    const raw = this.raw();
    requireInteger('id', id, 0, this.vocabSize - 1);
    return this.lab.call(() => raw.tokenString(id));
  }

  /**
   * The text of `ids` through the file's decoder, as transformers' `decode(ids, options)`: special tokens kept
   * unless skipSpecialTokens; transformers' clean-up (" ." → ".", " n't" → "n't", …) as tokenizer_config.json's
   * clean_up_tokenization_spaces says (false without a config) unless cleanUpTokenizationSpaces is given.
   * @param {ArrayLike<number>} ids
   * @param {HfDecodeOptions} [options]
   * @returns {string}
   */
  decode(ids, options) {
    return this.decodeText(ids, this.#decodeArguments(options));
  }

  /**
   * The UTF-8 bytes of decode(ids, options): a new Uint8Array.
   * @param {ArrayLike<number>} ids
   * @param {HfDecodeOptions} [options]
   * @returns {Uint8Array}
   */
  decodeBytes(ids, options) {
    return this.decodeView(ids, this.#decodeArguments(options)).slice();
  }

  /**
   * A streaming decoder, as the Rust crate's DecodeStream: write(ids) returns the text the ids complete. Each write
   * decodes the ids since the last completed text together with the new ones and returns what was added, holding it
   * back while it ends in U+FFFD (an incomplete character); decoders that look at neighbours (Strip, Fuse) thus see
   * them. The clean-up of decode() is not applied (it could change text already returned).
   * @param {{ skipSpecialTokens?: boolean }} [options]
   * @returns {StreamingDecoder}
   */
  decoder(options) {
    const { skipSpecialTokens = false } = requireOptions('options', options, ['skipSpecialTokens']);
    requireBoolean('options.skipSpecialTokens', skipSpecialTokens);
    const decodeArguments = [skipSpecialTokens, 0];
    /** @type {number[]} */
    let window = []; // the ids from the start of the text returned last
    let prefix = ''; // decode(window) when the last text was returned
    let prefixIndex = 0; // where the window starts next time text is returned
    const decodeWindow = () => (window.length === 0 ? '' : this.decodeText(window, decodeArguments));
    return {
      write: (ids) => {
        let out = '';
        for (const id of Array.from(requireTokenIds(ids))) {
          window.push(id);
          const text = decodeWindow();
          if (text.length > prefix.length && !text.endsWith(REPLACEMENT)) {
            if (!text.startsWith(prefix)) {
              // Rust's DecodeStream fails here too (InvalidPrefix): the decoder rewrote text already returned.
              throw new Error(`decoder: id ${id} changes text already returned (${JSON.stringify(prefix)})`);
            }
            out += text.slice(prefix.length);
            const nextPrefixIndex = window.length - prefixIndex;
            window = window.slice(prefixIndex);
            prefix = decodeWindow();
            prefixIndex = nextPrefixIndex;
          }
        }
        return out;
      },
      end: () => {
        const text = decodeWindow();
        const rest = text.startsWith(prefix) ? text.slice(prefix.length) : '';
        window = [];
        prefix = '';
        prefixIndex = 0;
        return rest;
      },
    };
  }

  /**
   * Ids of a streamed text (strings or bytes) as Uint32Array chunks: together exactly encode() of the whole text,
   * template tokens once. The text is encoded in parts cut where the core proves the ids are kept (safeCut), so
   * memory holds about one chunk plus the text since the last such cut; a pipeline with no proven cut (or a text
   * with none, e.g. one long run of letters) is held whole, up to options.maxBufferBytes (default 64 MiB).
   * @param {TextSource} source
   * @param {HfStreamOptions} [options]
   * @returns {AsyncGenerator<Uint32Array, void, undefined>}
   */
  encodeStream(source, options) {
    return super.encodeStream(source, options);
  }

  /**
   * Token count of a streamed text: a Promise of what count() of the whole text gives (in parts, as encodeStream).
   * @param {TextSource} source
   * @param {HfStreamOptions} [options]
   * @returns {Promise<number>}
   */
  countStream(source, options) {
    return super.countStream(source, options);
  }

  /**
   * false when `text` has more than `limit` tokens, else its token count; encodes in parts cut as encodeStream's
   * and stops once the count passes the limit.
   * @param {string | Uint8Array} text
   * @param {number} limit
   * @param {HfEncodeOptions} [options]
   * @returns {false | number}
   */
  isWithinTokenLimit(text, limit, options) {
    this.raw();
    return super.isWithinTokenLimit(text, limit, options);
  }

  /**
   * The largest cut in [from, to] of `bytes` (UTF-8; bytes after them unknown) that keeps the ids, or -1: the
   * core's HfTokenizer::SafeCut. Parts are then encoded with the options' CUT_PART flags (safe_cut.js).
   * @internal
   * @param {Uint8Array} bytes
   * @param {number} from
   * @param {number} to
   * @returns {number}
   */
  safeCut(bytes, from, to) {
    const raw = this.raw();
    return this.lab.call(() => raw.safeCut(bytes, from, to));
  }

  /**
   * @internal
   * @returns {readonly string[]}
   */
  get encodeOptionNames() {
    return ENCODE_OPTIONS;
  }

  /**
   * @internal
   * @returns {boolean}
   */
  get cutsSafely() {
    return false;
  }

  /**
   * [addSpecialTokens, splitSpecialTokens] for the raw encode; tiktoken's options are refused by name.
   * @internal
   * @param {any} options
   * @returns {any[]}
   */
  encodeArguments(options) {
    if (options === undefined) {
      return [true, false, false, false];
    }
    if (typeof options === 'string' || (options !== null && typeof options[Symbol.iterator] === 'function')) {
      throw new TypeError(
        `options must be an options object {addSpecialTokens, splitSpecialTokens}, got ${describe(options)} ` +
          "(tiktoken's allowedSpecial as a second argument does not apply to a Hugging Face tokenizer)",
      );
    }
    if (options !== null && typeof options === 'object') {
      const tiktokenOption = TIKTOKEN_ONLY.find((name) => name in options);
      if (tiktokenOption !== undefined) {
        throw new TypeError(
          `options.${tiktokenOption} is an option of tiktoken encodings, not of a Hugging Face tokenizer: its ` +
            'special added tokens are always matched in the text, unless options.splitSpecialTokens is true',
        );
      }
    }
    const { addSpecialTokens = true, splitSpecialTokens = false } = requireOptions('options', options, ENCODE_OPTIONS);
    requireBoolean('options.addSpecialTokens', addSpecialTokens);
    requireBoolean('options.splitSpecialTokens', splitSpecialTokens);
    const part = options[CUT_PART]; // a part of a text cut at safeCut positions (streams)
    return [addSpecialTokens, splitSpecialTokens, part?.startsAfterCut === true, part?.endsAtCut === true];
  }

  /**
   * @param {HfDecodeOptions | undefined} options
   * @returns {any[]} [skipSpecialTokens, clean-up: -1 the config's, 0 no, 1 yes]
   */
  #decodeArguments(options) {
    const { skipSpecialTokens = false, cleanUpTokenizationSpaces } = requireOptions('options', options, DECODE_OPTIONS);
    requireBoolean('options.skipSpecialTokens', skipSpecialTokens);
    if (cleanUpTokenizationSpaces !== undefined) {
      requireBoolean('options.cleanUpTokenizationSpaces', cleanUpTokenizationSpaces);
    }
    return [skipSpecialTokens, cleanUpTokenizationSpaces === undefined ? -1 : Number(cleanUpTokenizationSpaces)];
  }
}
