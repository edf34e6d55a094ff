// Pretrained word vectors from a GloVe / word2vec text file: looked up by word and searched with the
// library's nearest-rows search (cosine). They are frozen: nothing here trains them.
import { describe, requireInteger } from '../runtime/checks.js';
/** @import { EmbedLab } from '../lab.js' */

/** Frozen pretrained word vectors from a GloVe / word2vec text file. */
export class WordVectors {
  /** @type {Map<string, number>} */
  #index;

  /**
   * @internal
   * @param {EmbedLab} lab
   * @param {string[]} words
   * @param {number} dim
   * @param {Float32Array} vectors
   */
  constructor(lab, words, dim, vectors) {
    /** @internal */
    this.lab = lab;
    /**
     * Words in file order.
     * @readonly
     */
    this.words = words;
    /**
     * Floats per vector.
     * @readonly
     */
    this.dim = dim;
    /**
     * words.length × dim, row-major.
     * @readonly
     */
    this.vectors = vectors;
    this.#index = new Map();
    words.forEach((word, i) => {
      if (!this.#index.has(word)) {
        this.#index.set(word, i);
      }
    });
  }

  /**
   * Row of `word`, or -1.
   * @param {string} word
   * @returns {number}
   */
  indexOf(word) {
    return this.#index.get(word) ?? -1;
  }

  /**
   * The vector of `word` (a view into .vectors), or undefined when the file has no such word.
   * @param {string} word
   * @returns {Float32Array | undefined}
   */
  vector(word) {
    const i = this.indexOf(word);
    return i < 0 ? undefined : this.vectors.subarray(i * this.dim, (i + 1) * this.dim);
  }

  /**
   * The k words most cosine-similar to `query` (a word of the file or a vector of dim floats): [{word, cosine}].
   * k defaults to 10, or every other word of a smaller file; a word not in the file throws a RangeError.
   * @param {string | ArrayLike<number>} query
   * @param {number} [k]
   * @returns {{ word: string; cosine: number }[]}
   */
  nearest(query, k = Math.min(10, Math.max(1, this.words.length - (typeof query === 'string' ? 1 : 0)))) {
    const target = typeof query === 'string' ? this.vector(query) : query;
    if (target === undefined) {
      throw new RangeError(
        `query must be a word of the file, got ${describe(query)} (not among its ${this.words.length} words)`,
      );
    }
    requireInteger('k', k, 1, this.words.length);
    if (!ArrayBuffer.isView(target) && !Array.isArray(target)) {
      throw new TypeError(`query must be a word or a vector, got ${describe(query)}`);
    }
    if (target.length !== this.dim) {
      throw new RangeError(`query vector length must be ${this.dim}, got ${target.length}`);
    }
    const skip = typeof query === 'string' ? [...this.words.keys()].filter((i) => this.words[i] === query) : [];
    return this.lab
      .nearestRows(this.vectors, this.dim, target, { k, skip })
      .map(({ row, cosine }) => ({ word: this.words[row], cosine }));
  }
}
