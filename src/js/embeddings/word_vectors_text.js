// EmbedLab's GloVe text writer: a table of word vectors written as the text lab.loadWordVectors reads back,
// by the C++ core (embed/glove_text_writer.h). The function takes the lab's internals ({lab, raw}, see runtime/wasm_instance.js).
import { describe, requireInteger, requireVector } from '../runtime/checks.js';
/** @import { LabInternals, Vector } from '../runtime/types.js' */

/**
 * @param {LabInternals} internals
 * @param {readonly string[]} words
 * @param {Vector} table
 * @param {number} dim
 * @returns {string}
 */
export function wordVectorsText({ lab, raw }, words, table, dim) {
  if (!Array.isArray(words)) {
    throw new TypeError(`words must be an array of strings, got ${describe(words)}`);
  }
  words.forEach((word, i) => {
    if (typeof word !== 'string') {
      throw new TypeError(`words[${i}] must be a string, got ${describe(word)}`);
    }
  });
  requireVector('table', table);
  requireInteger('dim', dim, 1, lab.limits.maxDim);
  if (table.length !== words.length * dim) {
    throw new RangeError(`table.length must be words.length * dim (${words.length * dim}), got ${table.length}`);
  }
  return lab.call(() => raw.gloveText(words, table, dim));
}
