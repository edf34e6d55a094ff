// The byte-level BPE tokenizer, its training options and the vocabulary files it is built from.
import type { WasmHandle } from '../runtime/wasm_handle.js';
import type { EmbedLab } from '../lab.js';

/** Names of OpenAI's encodings that {@link EmbedLab.getTokenizer} loads. */
export type EncodingName =
  'gpt2' | 'r50k_base' | 'p50k_base' | 'p50k_edit' | 'cl100k_base' | 'o200k_base' | 'o200k_harmony';

/** Pre-tokenizer patterns ({@link EmbedLab.patternNames} lists them at run time). */
export type PatternName = 'gpt2' | 'cl100k' | 'o200k';

/** tiktoken's special-token rules for {@link Tokenizer.encode}. */
export interface SpecialTokenOptions {
  /** Special tokens encoded as their id where they appear: 'all' or a list. Default: none. */
  allowedSpecial?: 'all' | Iterable<string>;
  /** Special tokens whose appearance is an error: 'all' (default: every one not allowed) or a list. */
  disallowedSpecial?: 'all' | Iterable<string>;
}

/** One token of {@link Tokenizer.tokens}. */
export interface TokenSpan {
  id: number;
  /** Byte offset of the token's first byte in the UTF-8 input. */
  start: number;
  /** Byte offset one past its last byte; spans tile the input. */
  end: number;
  /** The token's bytes (a token may hold part of a UTF-8 character). */
  bytes: Uint8Array;
  /** The bytes as text; incomplete UTF-8 shows as U+FFFD. */
  text: string;
}

/** Incremental decoding for streamed ids. */
export interface StreamingDecoder {
  /** Text completed by these ids; incomplete UTF-8 is held back for the next call. */
  write(ids: ArrayLike<number>): string;
  /** Flushes what is held back (as U+FFFD if it never completed). */
  end(): string;
}

/** Options of {@link Tokenizer.encodeStream} and {@link Tokenizer.countStream}. */
export interface StreamOptions extends SpecialTokenOptions {
  /** About how many bytes each encode call takes (the last place to cut within them). Default 1048576. */
  chunkSize?: number;
  /**
   * Most bytes held while waiting for a place to cut (a single pre-tokenizer piece, e.g. a long run of one letter
   * or of spaces, has none); beyond it the stream fails with a RangeError. Default 67108864 (64 MiB).
   */
  maxBufferBytes?: number;
}

/** A WHATWG ReadableStream, typed by its shape so that no DOM types are needed. */
export interface ReadableStreamLike<T> {
  getReader(): {
    read(): Promise<{ done: boolean; value?: T }>;
    cancel(reason?: unknown): Promise<void>;
    releaseLock(): void;
  };
}

/** A streamed text: its chunks may be strings or UTF-8 bytes, and bytes may end inside a character. */
export type TextSource =
  | AsyncIterable<string | Uint8Array | ArrayBuffer>
  | Iterable<string | Uint8Array | ArrayBuffer>
  | ReadableStreamLike<string | Uint8Array>;

/** Streamed ids: single ids or arrays of ids, as encodeStream yields them. */
export type IdsSource =
  | AsyncIterable<number | ArrayLike<number>>
  | Iterable<number | ArrayLike<number>>
  | ReadableStreamLike<number | ArrayLike<number>>;

/** Byte-level BPE, byte-exact with tiktoken. Text is a string (encoded as UTF-8) or a Uint8Array of any bytes. */
export declare class Tokenizer extends WasmHandle {
  /** The encoding's name, e.g. 'cl100k_base'. */
  readonly name: string;
  /** The pre-tokenizer pattern: 'gpt2', 'cl100k' or 'o200k'. */
  readonly pattern: string;
  /** One past the largest id, special tokens included (tiktoken's n_vocab). */
  readonly vocabSize: number;
  readonly specialTokens: ReadonlyArray<{ text: string; id: number }>;
  /** Token ids; throws if disallowed special-token text appears (by default every special token). */
  encode(text: string | Uint8Array, options?: SpecialTokenOptions): Uint32Array;
  /** tiktoken's positional form: encode(text, 'all'), encode(text, ['<|endoftext|>'], 'all'). */
  encode(
    text: string | Uint8Array,
    allowedSpecial: 'all' | Iterable<string>,
    disallowedSpecial?: 'all' | Iterable<string>,
  ): Uint32Array;
  /** Token ids, with special-token text encoded as ordinary text. */
  encodeOrdinary(text: string | Uint8Array): Uint32Array;
  /** How many ids encode() would return. */
  count(text: string | Uint8Array, options?: SpecialTokenOptions): number;
  count(
    text: string | Uint8Array,
    allowedSpecial: 'all' | Iterable<string>,
    disallowedSpecial?: 'all' | Iterable<string>,
  ): number;
  /** Tokens with their byte spans. */
  tokens(text: string | Uint8Array, options?: SpecialTokenOptions): TokenSpan[];
  tokens(
    text: string | Uint8Array,
    allowedSpecial: 'all' | Iterable<string>,
    disallowedSpecial?: 'all' | Iterable<string>,
  ): TokenSpan[];
  /** Text of the ids; invalid UTF-8 becomes U+FFFD. */
  decode(ids: ArrayLike<number>): string;
  /** Exact bytes of the ids. */
  decodeBytes(ids: ArrayLike<number>): Uint8Array;
  /** Bytes of one token. */
  tokenBytes(id: number): Uint8Array;
  decoder(): StreamingDecoder;
  /**
   * Ids of a streamed text as chunks: together, exactly encode() of the whole text. The text is cut only where the
   * ids cannot change, so memory holds about one chunk plus the text since the last cut.
   */
  encodeStream(source: TextSource, options?: StreamOptions): AsyncGenerator<Uint32Array, void, undefined>;
  /** count() of the whole streamed text, in the memory of encodeStream. */
  countStream(source: TextSource, options?: StreamOptions): Promise<number>;
  /** The text of streamed ids as it completes: no string splits a character (non-empty strings only). */
  decodeStream(idsSource: IdsSource): AsyncGenerator<string, void, undefined>;
  /** false when `text` has more than `limit` tokens (found without encoding all of it), else its token count. */
  isWithinTokenLimit(text: string | Uint8Array, limit: number, options?: SpecialTokenOptions): false | number;
  /**
   * The cache of pieces this tokenizer has split with BPE, kept between calls (shared by the handles on the same
   * tokenizer; results never depend on it): the pieces and bytes it holds now, at most 65,536 pieces in 4 MiB.
   */
  readonly cacheSize: { pieces: number; bytes: number };
  /** Empties the piece cache and frees its memory. */
  clearCache(): void;
  /** Trained tokenizers: the merges in the order they were learned (id = rank); empty for OpenAI's. */
  readonly merges: ReadonlyArray<{ left: number; right: number; id: number; count: number }>;
  /** A file lab.loadTokenizer() reads back: a JSON header line plus .tiktoken lines, or {binary: true} for the binary form, which loads ~8x faster. */
  save(options?: { binary?: boolean }): Uint8Array;
}

/** Progress of {@link EmbedLab.trainTokenizer}. */
export interface TokenizerTrainingProgress {
  /** Merges done so far. */
  merges: number;
  /** Merges wanted (vocabSize − 256). */
  wanted: number;
  /** Bytes of the token just made. */
  token: Uint8Array;
  /** Occurrences of its pair when it was merged. */
  count: number;
}

/** Options of {@link EmbedLab.trainTokenizer}. */
export interface TrainTokenizerOptions {
  /** Ordinary tokens wanted, the 256 single bytes included, in [256, 2^21]. */
  vocabSize: number;
  /** Pre-tokenizer: merges never cross its pieces. Default 'o200k'. */
  pattern?: PatternName;
  /** Special tokens, given ids vocabSize, vocabSize + 1, …; their text in the corpus is not learned. */
  specialTokens?: string[];
  /** Default 'trained'. */
  name?: string;
  /** Called after each slice of merges (~16 ms of work); return false to stop early. */
  onProgress?: (progress: TokenizerTrainingProgress) => boolean | void;
  /** At most this many merges per slice. Default: as many as fit in ~16 ms. */
  progressInterval?: number;
  /**
   * Aborting it stops training after the current slice and resolves with the merges made so far: none when it was
   * aborted before the call (the 256 single bytes and the special tokens only). It never rejects for an abort.
   */
  signal?: AbortSignal;
}
