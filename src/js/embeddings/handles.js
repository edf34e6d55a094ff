// The embedding objects of the lab: a token table, a positional encoding and one self-attention layer, each
// holding wasm memory through WasmHandle.
import { requireInteger, requireIds, requireVector } from '../runtime/checks.js';
import { WasmHandle } from '../runtime/wasm_handle.js';

export class TokenEmbedding extends WasmHandle {
  get vocabSize() {
    return this.raw().vocabSize();
  }

  get dim() {
    return this.raw().dim();
  }

  /** Rows for `ids`: a Float32Array of ids.length × dim. */
  lookup(ids) {
    const raw = this.raw();
    return this.lab.call(() => raw.lookup(requireIds('ids', ids, this.lab.limits.maxSequenceLength)));
  }

  /** The whole table: a Float32Array of vocabSize × dim. */
  table() {
    const raw = this.raw();
    return this.lab.call(() => raw.table());
  }
}

export class PositionalEncoding extends WasmHandle {
  /** 'sinusoidal' | 'learned' | 'none' */
  get kind() {
    return this.raw().kind();
  }

  get dim() {
    return this.raw().dim();
  }

  get maxLength() {
    return this.raw().maxLength();
  }

  /** The sinusoidal base (10000 by default); undefined for other kinds. */
  get base() {
    const raw = this.raw();
    return this.kind === 'sinusoidal' ? raw.base() : undefined;
  }

  /** Vectors of positions [offset, offset + length): a Float32Array of length × dim. */
  table(length = this.maxLength, offset = 0) {
    const raw = this.raw();
    const max = this.lab.limits.maxSequenceLength;
    requireInteger('length', length, 0, max);
    requireInteger('offset', offset, 0, max);
    return this.lab.call(() => raw.table(offset, length));
  }

  /** The vector of one position: a Float32Array of dim. */
  row(position) {
    requireInteger('position', position, 0, this.maxLength - 1);
    return this.table(1, position);
  }

  /** Learned encodings only: replaces the vector of one position. */
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

export class SelfAttention extends WasmHandle {
  get dim() {
    return this.raw().dim();
  }

  get causal() {
    return this.raw().causal();
  }

  /** Runs attention over `vectors` (length × dim floats): {outputs, weights (length × length)}. */
  forward(vectors) {
    const raw = this.raw();
    requireVector('vectors', vectors);
    return this.lab.call(() => raw.forward(vectors));
  }
}
