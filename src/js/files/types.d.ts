// Files read without a tokenizer: safetensors (by parts) and GloVe / word2vec word vectors; and the fields of the
// vocabulary files a tokenizer is read from.
import type { EncodingName, PatternName, VocabularyFiles } from '../tokenizer/types.js';

/** One tensor in a safetensors header. */
export interface TensorInfo {
  name: string;
  dtype: 'F32' | 'F16' | 'BF16' | 'F64' | 'I32' | 'I64';
  shape: number[];
  /** Absolute byte offset in the file. */
  offset: number;
  byteLength: number;
}

/**
 * Every field of {@link VocabularyFiles}, each optional: what tokenizerFromVocabulary reads before it knows which
 * form it was given.
 * @internal
 */
export interface VocabularyFields {
  tiktoken?: string | Uint8Array | ArrayBuffer;
  encoding?: EncodingName;
  pattern?: PatternName;
  specialTokens?: Record<string, number>;
  name?: string;
  tiktokenJson?: string | { pat_str: string; special_tokens: Record<string, number>; bpe_ranks: string };
  encoderJson?: string | Uint8Array | ArrayBuffer;
  vocabBpe?: string | Uint8Array | ArrayBuffer;
}
