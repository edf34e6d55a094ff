// Files read without a tokenizer: safetensors (by parts) and GloVe / word2vec word vectors.

/** One tensor in a safetensors header. */
export interface TensorInfo {
  name: string;
  dtype: 'F32' | 'F16' | 'BF16' | 'F64' | 'I32' | 'I64';
  shape: number[];
  /** Absolute byte offset in the file. */
  offset: number;
  byteLength: number;
}
