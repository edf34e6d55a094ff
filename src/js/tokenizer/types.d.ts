// The byte-level BPE tokenizer, its training options and the vocabulary files it is built from.
import type { Tokenizer } from './tokenizer.js';
import type { EmbedLab } from '../lab.js';

/** Names of OpenAI's encodings that {@link EmbedLab.getTokenizer} loads. */
export type EncodingName =
  'gpt2' | 'r50k_base' | 'p50k_base' | 'p50k_edit' | 'cl100k_base' | 'o200k_base' | 'o200k_harmony';

/** Pre-tokenizer patterns ({@link EmbedLab.patternNames} lists them at run time). */
export type PatternName = 'gpt2' | 'cl100k' | 'o200k';

/**
 * The vocabulary files {@link EmbedLab.tokenizerFromVocabulary} reads: a .tiktoken file with a named encoding (or a
 * pattern and special tokens), npm tiktoken's encoder JSON, or GPT-2's encoder.json + vocab.bpe.
 */
export type VocabularyFiles =
  | { tiktoken: string | Uint8Array | ArrayBuffer; encoding: EncodingName }
  | {
      tiktoken: string | Uint8Array | ArrayBuffer;
      pattern?: PatternName;
      specialTokens?: Record<string, number>;
      name?: string;
    }
  | { tiktokenJson: string | { pat_str: string; special_tokens: Record<string, number>; bpe_ranks: string } }
  | { encoderJson: string | Uint8Array | ArrayBuffer; vocabBpe: string | Uint8Array | ArrayBuffer };

/** Options of {@link EmbedLab.getTokenizer}. */
export interface GetTokenizerOptions {
  /**
   * The encoding's vocabulary from the caller instead of the package's file (runtimes without a file system or
   * fetch, e.g. Cloudflare Workers): the package's vocab/NAME.emblvoc or OpenAI's .tiktoken file. Checked to be
   * that encoding's (its token count and the rank of " the").
   */
  vocabulary?: Uint8Array | ArrayBuffer;
  /**
   * Extra special tokens {text: id} (tiktoken's extend_special_tokens), e.g. ChatML's {'<|im_start|>': 100264}.
   * Ids are integers below limits.maxVocabSize that are neither an ordinary token's rank nor another special
   * token's id; a text that is already special keeps only the id it has.
   */
  specialTokens?: Record<string, number>;
}

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

/** A JSON file as {@link EmbedLab.tokenizerFromHuggingFace} takes it: its text, its bytes or the parsed object. */
export type HuggingFaceJson = string | Uint8Array | ArrayBuffer | Record<string, unknown>;

/** Options of {@link EmbedLab.tokenizerFromHuggingFace}. */
export interface TokenizerFromHuggingFaceOptions {
  /** The tokenizer's name (its `name`). Default 'tokenizer.json'. */
  name?: string;
  /**
   * tokenizer_config.json (text, bytes or object), read for clean_up_tokenization_spaces, decode()'s default
   * (false without a config).
   */
  config?: HuggingFaceJson;
}

/** Options of a Hugging Face tokenizer's encode(), count() and tokens(): transformers' encode options. */
export interface HfEncodeOptions {
  /** The post-processor's template tokens (e.g. Llama 3's <|begin_of_text|>). Default true. */
  addSpecialTokens?: boolean;
  /**
   * Special added tokens in the text are read as ordinary text (non-special added tokens still match), as
   * transformers' split_special_tokens. Default false.
   */
  splitSpecialTokens?: boolean;
  /**
   * tiktoken's option, typed only so that a Hugging Face tokenizer is a {@link Tokenizer}: given, it throws a
   * TypeError naming it (special added tokens are always matched, unless splitSpecialTokens).
   */
  allowedSpecial?: 'all' | Iterable<string>;
  /** tiktoken's option, likewise refused with a TypeError naming it. */
  disallowedSpecial?: 'all' | Iterable<string>;
}

/** Options of a Hugging Face tokenizer's decode() and decodeBytes(). */
export interface HfDecodeOptions {
  /** Leave out special added tokens. Default false. */
  skipSpecialTokens?: boolean;
  /**
   * transformers' clean-up of spaces before punctuation and contractions (" ." → ".", " 's" → "'s", …). Default:
   * tokenizer_config.json's clean_up_tokenization_spaces, false without a config.
   */
  cleanUpTokenizationSpaces?: boolean;
}

/** One token of a Hugging Face tokenizer's tokens(). */
export interface HfTokenSpan extends TokenSpan {
  /** The vocabulary's string of the token ("ĠHello", "▁the", "<0x0A>"). */
  token: string;
}

/** Options of a Hugging Face tokenizer's encodeStream() and countStream(). */
export interface HfStreamOptions extends HfEncodeOptions {
  /** Bytes per encode call: the text is cut where the core proves the ids are kept. Default 1 MiB. */
  chunkSize?: number;
  /**
   * Most bytes of a stream held when no such cut comes (e.g. one long run of letters, or a pipeline with no proven
   * cut); beyond it the stream fails with a RangeError. Default 64 MiB.
   */
  maxBufferBytes?: number;
}
