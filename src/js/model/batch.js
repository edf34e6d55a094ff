// The batches Model takes ({ids, targets}: sequences of equal length, or flat arrays with batch and length),
// checked and flattened into the Int32Arrays the raw model reads.
import { describe, requireInteger } from '../runtime/checks.js';
/** @import { Batch } from './types.js' */

// ids: number[][] (equal lengths) or a flat array/typed array with options.batch and options.length.
/**
 * @param {string} name
 * @param {Batch["ids"]} rows
 * @param {number | undefined} batch
 * @param {number | undefined} length
 * @param {number} maxLength
 * @returns {{ flat: Int32Array, batch: number, length: number }}
 */
function flatten(name, rows, batch, length, maxLength) {
  if (Array.isArray(rows) && rows.length > 0 && (Array.isArray(rows[0]) || ArrayBuffer.isView(rows[0]))) {
    const width = rows[0].length;
    const flat = new Int32Array(rows.length * width);
    rows.forEach((row, r) => {
      if (!Array.isArray(row) && !ArrayBuffer.isView(row)) {
        throw new TypeError(`${name}[${r}] must be an array of ids, got ${describe(row)}`);
      }
      if (row.length !== width) {
        throw new RangeError(`${name}[${r}].length must be ${width} like ${name}[0], got ${row.length}`);
      }
      for (let t = 0; t < width; t++) {
        const value = row[t];
        if (typeof value !== 'number' || !Number.isInteger(value)) {
          throw new TypeError(`${name}[${r}][${t}] must be an integer, got ${describe(value)}`);
        }
        flat[r * width + t] = value;
      }
    });
    return { flat, batch: rows.length, length: width };
  }
  if (!Array.isArray(rows) && !(ArrayBuffer.isView(rows) && !(rows instanceof DataView))) {
    throw new TypeError(
      `${name} must be an array of sequences (number[][]) or a flat typed array, got ${describe(rows)}`,
    );
  }
  if (batch === undefined || length === undefined) {
    throw new TypeError(`a flat ${name} needs batch.batch and batch.length`);
  }
  requireInteger('batch.batch', batch, 1, 1 << 20);
  requireInteger('batch.length', length, 1, maxLength);
  if (rows.length !== batch * length) {
    throw new RangeError(`${name}.length must be batch × length = ${batch * length}, got ${rows.length}`);
  }
  const flat = Int32Array.from(/** @type {ArrayLike<unknown>} */ (rows), (value, i) => {
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      throw new TypeError(`${name}[${i}] must be an integer, got ${describe(value)}`);
    }
    return value;
  });
  return { flat, batch, length };
}

// maxLength: the longest sequence any model accepts (lab.limits.maxSequenceLength).
/**
 * @param {Batch} batch
 * @param {boolean} needTargets
 * @param {number} maxLength
 * @internal
 */
export function normalizeBatch(batch, needTargets, maxLength) {
  if (batch === null || typeof batch !== 'object' || Array.isArray(batch)) {
    throw new TypeError(`batch must be an object {ids, targets}, got ${describe(batch)}`);
  }
  const ids = flatten('batch.ids', batch.ids, batch.batch, batch.length, maxLength);
  if (batch.targets === undefined) {
    if (needTargets) {
      throw new TypeError('batch.targets is required (same shape as batch.ids; -1 ignores a position)');
    }
    return { ids: ids.flat, targets: null, batch: ids.batch, length: ids.length };
  }
  const targets = flatten('batch.targets', batch.targets, batch.batch, batch.length, maxLength);
  if (targets.batch !== ids.batch || targets.length !== ids.length) {
    throw new RangeError(
      `batch.targets must have the shape of batch.ids (${ids.batch} × ${ids.length}), got ${targets.batch} × ${targets.length}`,
    );
  }
  return { ids: ids.flat, targets: targets.flat, batch: ids.batch, length: ids.length };
}
