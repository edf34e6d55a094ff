/**
 * embedlab/tokenizer: the BPE tokenizer alone, on its own small wasm module (about 90 KB gzipped with its glue,
 * against about 200 KB for the whole library). The same {@link Tokenizer} as `embedlab`, with the same ids.
 *
 * @example
 * ```ts
 * import { getTokenizer } from 'embedlab/tokenizer';
 * const tokenizer = await getTokenizer('cl100k_base');
 * console.log(tokenizer.encode('hello world')); // Uint32Array(2) [ 15339, 1917 ]
 * ```
 * @packageDocumentation
 */

import type { CreateOptions } from './index.js';
import type { EmbedLab, GetTokenizerOptions, Limits } from './lab.js';
import type { EncodingName, PatternName, Tokenizer, TrainTokenizerOptions } from './tokenizer/tokenizer.js';

export { Tokenizer } from './tokenizer/tokenizer.js';
export type {
  EncodingName,
  PatternName,
  IdsSource,
  SpecialTokenOptions,
  StreamingDecoder,
  StreamOptions,
  TextSource,
  TokenSpan,
  TokenizerTrainingProgress,
  TrainTokenizerOptions,
} from './tokenizer/tokenizer.js';
export type { CreateOptions, WasmModule } from './index.js';
export type { GetTokenizerOptions, Limits } from './lab.js';

/** The vocabulary files {@link Tokenizers.tokenizerFromVocabulary} reads, as `EmbedLab.tokenizerFromVocabulary` does. */
export type VocabularyFiles = Parameters<EmbedLab['tokenizerFromVocabulary']>[0];

/** One instance of the tokenizer module, from {@link createTokenizers}; its methods are EmbedLab's. */
export declare class Tokenizers {
  private constructor();
  /** Package version. */
  readonly version: string;
  /** 'WASM' when the module was built with SIMD128, 'EMU128' without. */
  readonly simdTarget: 'WASM' | 'EMU128';
  /** Which module was loaded. */
  readonly flavour: 'simd' | 'fallback';
  /** Size caps, the same the C++ core enforces. */
  readonly limits: Limits;
  /** The pre-tokenizer patterns of trainTokenizer() and tokenizerFromVocabulary(). */
  readonly patternNames: readonly PatternName[];
  /** The names getTokenizer() accepts. */
  readonly tokenizerNames: EncodingName[];
  /** Wasm memory in use: the memory's size and the bytes malloc has handed out. */
  memory(): { heapBytes: number; allocatedBytes: number };
  /** Loads one of OpenAI's vocabularies (shipped with the package) as a {@link Tokenizer}. */
  getTokenizer(name: EncodingName, options?: GetTokenizerOptions): Promise<Tokenizer>;
  /** The encoding an OpenAI model uses, as tiktoken maps it ('gpt-4o' -> 'o200k_base'); RangeError for others. */
  encodingNameForModel(model: string): EncodingName;
  /** getTokenizer(encodingNameForModel(model), options). */
  encodingForModel(model: string, options?: GetTokenizerOptions): Promise<Tokenizer>;
  /** Trains a byte-level BPE vocabulary, in slices that yield to the event loop. */
  trainTokenizer(corpus: string | Uint8Array, options: TrainTokenizerOptions): Promise<Tokenizer>;
  /** A tokenizer from vocabulary files (.tiktoken, npm tiktoken's JSON, GPT-2's encoder.json + vocab.bpe). */
  tokenizerFromVocabulary(files: VocabularyFiles): Tokenizer;
  /** A tokenizer file from {@link Tokenizer.save}. */
  loadTokenizer(bytes: Uint8Array | ArrayBuffer | string): Tokenizer;
}

/**
 * Loads the tokenizer module. Options as createEmbedLab's: `simd` picks the flavour; `wasm` gives the module
 * (`embedlab-tokenizer-simd.wasm` or `-fallback.wasm`: a WebAssembly.Module, its bytes or its URL).
 */
export declare function createTokenizers(options?: CreateOptions): Promise<Tokenizers>;
export default createTokenizers;

/** getTokenizer on an instance loaded by the first of these module-level calls. */
export declare function getTokenizer(name: EncodingName, options?: GetTokenizerOptions): Promise<Tokenizer>;
/** The encoding an OpenAI model uses, as tiktoken maps it ('gpt-4o' -> 'o200k_base'); RangeError for others. */
export declare function encodingNameForModel(model: string): EncodingName;
/** getTokenizer(encodingNameForModel(model), options) on the shared instance. */
export declare function encodingForModel(model: string, options?: GetTokenizerOptions): Promise<Tokenizer>;
/** trainTokenizer on the shared instance. */
export declare function trainTokenizer(corpus: string | Uint8Array, options: TrainTokenizerOptions): Promise<Tokenizer>;
/** tokenizerFromVocabulary on the shared instance: a Promise, as the module may still have to load. */
export declare function tokenizerFromVocabulary(files: VocabularyFiles): Promise<Tokenizer>;
/** loadTokenizer on the shared instance: a Promise, as the module may still have to load. */
export declare function loadTokenizer(bytes: Uint8Array | ArrayBuffer | string): Promise<Tokenizer>;

/** True when this engine runs WebAssembly SIMD128. */
export declare function simdSupported(): boolean;
