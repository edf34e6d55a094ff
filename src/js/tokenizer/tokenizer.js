// The BPE tokenizer as JS users expect it (tiktoken's API shape): text in, Uint32Array of ids out.
// Text is written straight into the wasm heap with TextEncoder.encodeInto; ids are copied out of HEAPU32.
import { describe, requireInteger } from '../runtime/checks.js';
import { WasmHandle } from '../runtime/wasm_handle.js';
import { decodeInParts, encodeInParts, LARGE_IDS, LARGE_INPUT } from './parts.js';
import { countStream, decodeStream, encodeStream, isWithinTokenLimit } from './stream.js';
import { specialList, specialTokenOptions } from './special_tokens.js';
import { textOfBytes } from './text_of_bytes.js';
import { decodeIntoView, requireIdArray, writeInput } from './wasm_text.js';
/** @import { WasmInstance } from '../runtime/wasm_instance.js' */
/** @import { IdsSource, SpecialTokenOptions, StreamingDecoder, StreamOptions, TextSource, TokenSpan } from './types.js' */

/**
 * The tokens of an encodeText result with spans: [{id, start, end, bytes, text}].
 * @param {{ count: number; ids: Uint32Array; starts: Uint32Array; ends: Uint32Array; input: Uint8Array }} encoded
 * @returns {TokenSpan[]}
 */
export function tokenSpansOf({ count, ids, starts, ends, input }) {
  const decoder = new TextDecoder('utf-8');
  return Array.from({ length: count }, (_, i) => {
    const bytes = input.slice(starts[i], ends[i]);
    return { id: ids[i], start: starts[i], end: ends[i], bytes, text: decoder.decode(bytes) };
  });
}

/** Byte-level BPE, byte-exact with tiktoken. Text is a string (encoded as UTF-8) or a Uint8Array of any bytes. */
export class Tokenizer extends WasmHandle {
  /** @type {any} */
  #module;

  /**
   * @internal
   * @param {WasmInstance} lab
   * @param {any} raw
   * @param {any} module the Embind module, whose heap the text is written into
   */
  constructor(lab, raw, module) {
    super(lab, raw);
    this.#module = module;
  }

  /**
   * The encoding's name, e.g. 'cl100k_base'.
   * @returns {string}
   */
  get name() {
    return this.raw().encodingName();
  }

  /**
   * The pre-tokenizer pattern: 'gpt2', 'cl100k' or 'o200k'.
   * @returns {string}
   */
  get pattern() {
    return this.raw().patternName();
  }

  /**
   * One past the largest id, special tokens included (tiktoken's n_vocab).
   * @returns {number}
   */
  get vocabSize() {
    return this.raw().vocabSize();
  }

  /**
   * [{text, id}] of the special tokens.
   * @returns {ReadonlyArray<{ text: string; id: number }>}
   */
  get specialTokens() {
    return this.raw().specialTokens();
  }

  /**
   * The cache of pieces this tokenizer has split with BPE (shared by every handle on the same tokenizer, and
   * never changing results): {pieces, bytes} it holds now, at most 65,536 pieces in 4 MiB.
   * @returns {{ pieces: number; bytes: number }}
   */
  get cacheSize() {
    return this.raw().cacheSize();
  }

  /**
   * Empties the piece cache and frees its memory (disposing the last handle on the tokenizer frees it too).
   * @returns {void}
   */
  clearCache() {
    this.raw().clearCache();
  }

  /**
   * Trained tokenizers: the merges in the order they were learned (id = rank), [{left, right, id, count}]; empty
   * for OpenAI's vocabularies.
   * @returns {ReadonlyArray<{ left: number; right: number; id: number; count: number }>}
   */
  get merges() {
    return this.raw().merges();
  }

  /**
   * The tokenizer as a file: a header line (name, pattern, special tokens) plus .tiktoken lines, or with
   * {binary: true} a compact form that loads ~8x faster. lab.loadTokenizer() reads either.
   * @param {{ binary?: boolean }} [options]
   * @returns {Uint8Array}
   */
  save(options = {}) {
    const raw = this.raw();
    if (options === null || typeof options !== 'object') {
      throw new TypeError(`options must be an object, got ${describe(options)}`);
    }
    const { binary = false } = options;
    if (typeof binary !== 'boolean') {
      throw new TypeError(`binary must be true or false, got ${describe(binary)}`);
    }
    return this.lab.call(() => raw.save(binary));
  }

  /**
   * Token ids of `text` (a string, or a Uint8Array of any bytes). Special-token text raises an error unless
   * allowed: options.allowedSpecial ('all' or a list), options.disallowedSpecial ('all', the default, or a list).
   * @overload
   * @param {string | Uint8Array} text
   * @param {SpecialTokenOptions} [options]
   * @returns {Uint32Array}
   */
  /**
   * tiktoken's positional form: (text, 'all'), (text, ['<|endoftext|>'], 'all').
   * @overload
   * @param {string | Uint8Array} text
   * @param {'all' | Iterable<string>} allowedSpecial
   * @param {'all' | Iterable<string>} [disallowedSpecial]
   * @returns {Uint32Array}
   */
  /**
   * @param {string | Uint8Array} text
   * @param {SpecialTokenOptions | 'all' | Iterable<string>} [options]
   * @param {'all' | Iterable<string>} [disallowedSpecial]
   * @returns {Uint32Array}
   */
  encode(text, options, disallowedSpecial) {
    return this.encodeText(text, false, false, specialTokenOptions(options, disallowedSpecial)).ids;
  }

  /**
   * Token ids of `text`, with special-token text encoded as ordinary text.
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
   * @param {SpecialTokenOptions} [options]
   * @returns {number}
   */
  /**
   * tiktoken's positional form: (text, 'all'), (text, ['<|endoftext|>'], 'all').
   * @overload
   * @param {string | Uint8Array} text
   * @param {'all' | Iterable<string>} allowedSpecial
   * @param {'all' | Iterable<string>} [disallowedSpecial]
   * @returns {number}
   */
  /**
   * @param {string | Uint8Array} text
   * @param {SpecialTokenOptions | 'all' | Iterable<string>} [options]
   * @param {'all' | Iterable<string>} [disallowedSpecial]
   * @returns {number}
   */
  count(text, options, disallowedSpecial) {
    return this.encodeText(text, false, false, specialTokenOptions(options, disallowedSpecial), false).count;
  }

  /**
   * Tokens with their byte spans: [{id, start, end, bytes, text}], the span [start, end) in the UTF-8 input, the
   * token's bytes and their text.
   * @overload
   * @param {string | Uint8Array} text
   * @param {SpecialTokenOptions} [options]
   * @returns {TokenSpan[]}
   */
  /**
   * tiktoken's positional form: (text, 'all'), (text, ['<|endoftext|>'], 'all').
   * @overload
   * @param {string | Uint8Array} text
   * @param {'all' | Iterable<string>} allowedSpecial
   * @param {'all' | Iterable<string>} [disallowedSpecial]
   * @returns {TokenSpan[]}
   */
  /**
   * @param {string | Uint8Array} text
   * @param {SpecialTokenOptions | 'all' | Iterable<string>} [options]
   * @param {'all' | Iterable<string>} [disallowedSpecial]
   * @returns {TokenSpan[]}
   */
  tokens(text, options, disallowedSpecial) {
    return tokenSpansOf(this.encodeText(text, false, true, specialTokenOptions(options, disallowedSpecial)));
  }

  /**
   * The text of `ids` (invalid UTF-8 from partial tokens becomes U+FFFD, as TextDecoder does).
   * @param {ArrayLike<number>} ids
   * @returns {string}
   */
  decode(ids) {
    return this.decodeText(ids, []);
  }

  /**
   * The exact bytes of `ids`: a new Uint8Array.
   * @param {ArrayLike<number>} ids
   * @returns {Uint8Array}
   */
  decodeBytes(ids) {
    const count = requireIdArray(ids).length;
    if (count > LARGE_IDS) {
      const bytes = decodeInParts(count, (start, end) => this.decodeView(ids, [], start, end));
      return bytes.length === bytes.buffer.byteLength ? bytes : bytes.slice();
    }
    return this.decodeView(ids, []).slice();
  }

  /**
   * The bytes of one token: a new Uint8Array.
   * @param {number} id
   * @returns {Uint8Array}
   */
  tokenBytes(id) {
    const raw = this.raw();
    requireInteger('id', id, 0, this.vocabSize - 1);
    return this.lab.call(() => raw.tokenBytes(id));
  }

  /**
   * A streaming decoder: write(ids) returns the text completed so far, holding back incomplete UTF-8.
   * @returns {StreamingDecoder}
   */
  decoder() {
    const textDecoder = new TextDecoder('utf-8');
    return {
      write: (ids) => textDecoder.decode(this.decodeView(ids, []), { stream: true }),
      end: () => textDecoder.decode(),
    };
  }

  /**
   * Ids of a streamed text (strings or bytes), as Uint32Array chunks: together, exactly encode() of the whole text.
   * The text is cut only where the ids cannot change, so memory holds about one chunk plus the text since the last
   * cut.
   * @param {TextSource} source
   * @param {StreamOptions} [options]
   * @returns {AsyncGenerator<Uint32Array, void, undefined>}
   */
  encodeStream(source, options) {
    return encodeStream(this, source, options);
  }

  /**
   * Token count of a streamed text (strings or bytes): a Promise of what count() of the whole text gives, in the
   * memory of encodeStream.
   * @param {TextSource} source
   * @param {StreamOptions} [options]
   * @returns {Promise<number>}
   */
  countStream(source, options) {
    return countStream(this, source, options);
  }

  /**
   * The text of streamed ids as it completes: strings that never split a character (non-empty strings only).
   * @param {IdsSource} idsSource
   * @returns {AsyncGenerator<string, void, undefined>}
   */
  decodeStream(idsSource) {
    return decodeStream(this, idsSource);
  }

  /**
   * false when `text` has more than `limit` tokens (found without encoding all of it), else its token count.
   * @param {string | Uint8Array} text
   * @param {number} limit
   * @param {SpecialTokenOptions} [options]
   * @returns {false | number}
   */
  isWithinTokenLimit(text, limit, options) {
    return isWithinTokenLimit(this, text, limit, options);
  }

  /**
   * The option names of encode() (streams pass them on).
   * @internal
   * @returns {readonly string[]}
   */
  get encodeOptionNames() {
    return ['allowedSpecial', 'disallowedSpecial'];
  }

  /**
   * Whether texts and ids may be encoded and decoded in parts cut by safe_cut.js (a Hugging Face tokenizer: no).
   * @internal
   * @returns {boolean}
   */
  get cutsSafely() {
    return true;
  }

  /**
   * The raw encode's arguments after (size, ordinary, withSpans) for these options, checked.
   * @internal
   * @param {any} options
   * @returns {any[]}
   */
  encodeArguments(options) {
    if (options === undefined) {
      return [false, [], true, []];
    }
    if (options === null || typeof options !== 'object') {
      throw new TypeError(`options must be an object, got ${describe(options)}`);
    }
    const allowed = specialList('allowedSpecial', options.allowedSpecial);
    const disallowed = specialList('disallowedSpecial', options.disallowedSpecial ?? 'all');
    return [allowed.all, allowed.list, disallowed.all, disallowed.list];
  }

  /**
   * Encodes `text` through the raw handle: {count, ids, starts, ends, input} (ids only when copyIds; spans and the
   * input's bytes only when withSpans).
   * @internal
   * @param {unknown} text
   * @param {boolean} ordinary
   * @param {boolean} withSpans
   * @param {any} options checked by encodeArguments
   * @param {boolean} [copyIds]
   * @returns {any}
   */
  encodeText(text, ordinary, withSpans, options, copyIds = true) {
    const raw = this.raw();
    const rawArguments = this.encodeArguments(options);
    if ((typeof text === 'string' || text instanceof Uint8Array) && text.length > LARGE_INPUT && this.cutsSafely) {
      // In parts, so the wasm heap grows by one part's buffers, not the whole text's (tokenizer/parts.js).
      return encodeInParts(this, text, (part) => this.encodeText(part, ordinary, withSpans, options, copyIds));
    }
    const size = writeInput(this.lab, raw, this.#module, text);
    const count = this.lab.call(() => raw.encode(size, ordinary, withSpans, ...rawArguments));
    if (!copyIds) {
      return { count };
    }
    const heap32 = this.#module.HEAPU32;
    const copy = (pointer) => heap32.slice(pointer >>> 2, (pointer >>> 2) + count);
    const result = { count, ids: copy(raw.idsPointer()) };
    if (withSpans) {
      result.starts = copy(raw.startsPointer());
      result.ends = copy(raw.endsPointer());
      const input = raw.inputPointer();
      result.input = this.#module.HEAPU8.slice(input, input + size);
    }
    return result;
  }

  /**
   * The text of `ids`, decoded with the raw decode's arguments after the id count.
   * @internal
   * @param {ArrayLike<number>} ids
   * @param {any[]} rawArguments
   * @returns {string}
   */
  decodeText(ids, rawArguments) {
    const count = requireIdArray(ids).length;
    if (count > LARGE_IDS && this.cutsSafely) {
      // The bytes in parts (bounded wasm memory, tokenizer/parts.js), then one string: what decoding at once gives.
      let ascii = true;
      const bytes = decodeInParts(count, (start, end) => {
        const view = this.decodeView(ids, rawArguments, start, end);
        ascii &&= this.raw().decodedAscii();
        return view;
      });
      return textOfBytes(bytes, ascii);
    }
    return textOfBytes(this.decodeView(ids, rawArguments), this.raw().decodedAscii());
  }

  /**
   * A view of the bytes of ids[start, end) in the wasm heap, valid until the next call.
   * @internal
   * @param {ArrayLike<number>} ids
   * @param {any[]} rawArguments
   * @param {number} [start]
   * @param {number} [end]
   * @returns {Uint8Array}
   */
  decodeView(ids, rawArguments, start = 0, end = requireIdArray(ids).length) {
    return decodeIntoView(this.lab, this.raw(), this.#module, ids, start, end, rawArguments);
  }
}
