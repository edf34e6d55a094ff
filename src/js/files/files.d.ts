// Files read without a tokenizer: safetensors (by parts) and GloVe / word2vec word vectors.
import type { WasmHandle } from '../runtime/wasm_handle.js';

/** One tensor in a safetensors header. */
export interface TensorInfo {
  name: string;
  dtype: 'F32' | 'F16' | 'BF16' | 'F64' | 'I32' | 'I64';
  shape: number[];
  /** Absolute byte offset in the file. */
  offset: number;
  byteLength: number;
}

/** An open safetensors file; only the header has been read. */
export declare class SafetensorsFile extends WasmHandle {
  readonly tensors: TensorInfo[];
  readonly metadata: Record<string, string>;
  /**
   * Reads one float tensor (F32/F16/BF16/F64) as float32; only its bytes are read. Tensors of other dtypes (U8,
   * I8, BOOL, F8_E4M3, ...) are listed in `tensors`, and only `get` of such a tensor rejects.
   */
  get(name: string): Promise<Float32Array>;
}

/** Frozen pretrained word vectors from a GloVe / word2vec text file. */
export declare class WordVectors {
  /** Words in file order. */
  readonly words: string[];
  readonly dim: number;
  /** words.length × dim, row-major. */
  readonly vectors: Float32Array;
  /** Row of word, or -1. */
  indexOf(word: string): number;
  /** A view of the word's vector, or undefined. */
  vector(word: string): Float32Array | undefined;
  /**
   * The k most cosine-similar words to a word of the file (itself excluded) or to a vector. k defaults to 10, or to
   * every other word of a smaller file; a word not in the file throws a RangeError.
   */
  nearest(query: string | ArrayLike<number>, k?: number): { word: string; cosine: number }[];
}
