// Pretrained word vectors from a GloVe / word2vec text file: looked up by word and searched with the
// library's nearest-rows search (cosine). They are frozen: nothing here trains them.
import { describe, requireInteger } from '../runtime/checks.js';

export class WordVectors {
  #index;

  constructor(lab, words, dim, vectors) {
    this.lab = lab;
    /** Words in file order. */
    this.words = words;
    /** Floats per vector. */
    this.dim = dim;
    /** words.length × dim, row-major. */
    this.vectors = vectors;
    this.#index = new Map();
    words.forEach((word, i) => {
      if (!this.#index.has(word)) {
        this.#index.set(word, i);
      }
    });
  }

  /** Row of `word`, or -1. */
  indexOf(word) {
    return this.#index.get(word) ?? -1;
  }

  /** The vector of `word` (a view into .vectors), or undefined when the file has no such word. */
  vector(word) {
    const i = this.indexOf(word);
    return i < 0 ? undefined : this.vectors.subarray(i * this.dim, (i + 1) * this.dim);
  }

  /**
   * The k words most cosine-similar to `query` (a word of the file or a vector of dim floats): [{word, cosine}].
   * k defaults to 10, or every other word of a smaller file.
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
