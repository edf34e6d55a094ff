// The embedding objects of the lab: a token table, a positional encoding and one self-attention layer, each
// holding wasm memory through WasmHandle.
import { requireInteger, requireIds, requireVector } from '../runtime/checks.js';
import { WasmHandle } from '../runtime/wasm_handle.js';
/** @import { TokenIds, Vector } from '../runtime/types.js' */
/** @import { AttentionResult, PositionalKind } from './types.js' */

/** A token embedding table: vocabSize rows of dim floats. */
export class TokenEmbedding extends WasmHandle {
  /** @returns {number} */
  get vocabSize() {
    return this.raw().vocabSize();
  }

  /** @returns {number} */
  get dim() {
    return this.raw().dim();
  }

  /**
   * The rows of `ids`, concatenated: a new Float32Array of ids.length × dim.
   * @param {TokenIds} ids
   * @returns {Float32Array}
   */
  lookup(ids) {
    const raw = this.raw();
    return this.lab.call(() => raw.lookup(requireIds('ids', ids, this.lab.limits.maxSequenceLength)));
  }

  /**
   * The whole table, row-major: a new Float32Array of vocabSize × dim.
   * @returns {Float32Array}
   */
  table() {
    const raw = this.raw();
    return this.lab.call(() => raw.table());
  }
}

/** A positional encoding: one dim-vector per position in [0, maxLength). */
export class PositionalEncoding extends WasmHandle {
  /** @returns {PositionalKind} */
  get kind() {
    return this.raw().kind();
  }

  /** @returns {number} */
  get dim() {
    return this.raw().dim();
  }

  /** @returns {number} */
  get maxLength() {
    return this.raw().maxLength();
  }

  /**
   * The sinusoidal base (10000 by default); `undefined` for other kinds.
   * @returns {number | undefined}
   */
  get base() {
    const raw = this.raw();
    return this.kind === 'sinusoidal' ? raw.base() : undefined;
  }

  /**
   * Vectors of positions [offset, offset + length): a new Float32Array of length × dim.
   * Sinusoidal rows are PE(pos, 2i) = sin(pos / base^(2i/d)), PE(pos, 2i+1) = cos(pos / base^(2i/d)).
   * @param {number} [length] default maxLength
   * @param {number} [offset] default 0
   * @returns {Float32Array}
   */
  table(length = this.maxLength, offset = 0) {
    const raw = this.raw();
    const max = this.lab.limits.maxSequenceLength;
    requireInteger('length', length, 0, max);
    requireInteger('offset', offset, 0, max);
    return this.lab.call(() => raw.table(offset, length));
  }

  /**
   * The vector of one position: a new Float32Array of dim.
   * @param {number} position
   * @returns {Float32Array}
   */
  row(position) {
    requireInteger('position', position, 0, this.maxLength - 1);
    return this.table(1, position);
  }

  /**
   * Learned encodings only: replaces the vector of `position` with `values` (dim finite numbers).
   * @param {number} position
   * @param {Vector} values
   * @returns {void}
   */
  setRow(position, values) {
    const raw = this.raw();
    if (this.kind !== 'learned') {
      throw new TypeError(`setRow() needs a learned encoding; this one is ${this.kind}`);
    }
    requireInteger('position', position, 0, this.maxLength - 1);
    requireVector('values', values, this.dim);
    this.lab.call(() => raw.setRow(position, values));
  }
}

/** One head of scaled dot-product self-attention with seeded Wq, Wk, Wv ~ N(0, 1/dim). */
export class SelfAttention extends WasmHandle {
  /** @returns {number} */
  get dim() {
    return this.raw().dim();
  }

  /** @returns {boolean} */
  get causal() {
    return this.raw().causal();
  }

  /**
   * Runs attention over `vectors` (length × dim floats).
   * @param {Vector} vectors
   * @returns {AttentionResult}
   */
  forward(vectors) {
    const raw = this.raw();
    requireVector('vectors', vectors);
    return this.lab.call(() => raw.forward(vectors));
  }
}
