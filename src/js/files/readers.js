// EmbedLab's file readers: GloVe / word2vec text files and safetensors files. Each function takes the lab's
// internals ({lab, raw, stage}, see runtime/wasm_instance.js); the bytes are parsed by the bounds-checked C++
// readers. (Vocabulary files are the tokenizer's: tokenizer/from_vocabulary.js.)
import { describe, refusePathAsText } from '../runtime/checks.js';
import { WordVectors } from '../embeddings/word_vectors.js';
import { openSafetensors } from './safetensors.js';
/** @import { LabInternals } from '../runtime/types.js' */
/** @import { SafetensorsFile } from './safetensors.js' */

/**
 * @param {LabInternals} internals
 * @param {string | Uint8Array | ArrayBuffer | Blob} source
 * @returns {Promise<WordVectors>}
 */
export async function loadWordVectors({ lab, raw, stage }, source) {
  let bytes;
  if (typeof source === 'string') {
    refusePathAsText('source', source);
    bytes = new TextEncoder().encode(source);
  } else if (source instanceof Uint8Array) {
    bytes = source;
  } else if (source instanceof ArrayBuffer) {
    bytes = new Uint8Array(source);
  } else if (source !== null && typeof source === 'object' && typeof source.arrayBuffer === 'function') {
    bytes = new Uint8Array(await source.arrayBuffer());
  } else {
    throw new TypeError(`source must be text, a Uint8Array, an ArrayBuffer or a Blob/File, got ${describe(source)}`);
  }
  stage(bytes);
  const { words, dim, vectors } = lab.call(() => raw.parseGlove());
  return new WordVectors(lab, words, dim, vectors);
}

/**
 * @param {LabInternals} internals
 * @param {Uint8Array | ArrayBuffer | Blob} source (text is refused, naming a path as such)
 * @returns {Promise<SafetensorsFile>}
 */
export async function readSafetensors({ lab, raw, stage }, source) {
  if (typeof source === 'string') {
    refusePathAsText('source', source);
  }
  return openSafetensors(lab, raw, source, stage);
}
