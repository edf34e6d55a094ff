// EmbedLab's nearest-neighbour search: the rows of any table (a model's token embeddings, a GloVe file's
// vectors) most cosine-similar to a query row or vector, found by the C++ core (compare/nearest_rows.h).
// The function takes the lab's internals ({lab, raw}, see runtime/wasm_instance.js).
import { describe, requireInteger, requireOptions, requireVector } from '../runtime/checks.js';
/** @import { LabInternals, Vector } from '../runtime/types.js' */
/** @import { NearestRowsOptions, RowCosine } from './types.js' */

/**
 * @param {LabInternals} internals
 * @param {Vector} table
 * @param {number} dim
 * @param {number | Vector} query
 * @param {NearestRowsOptions} [options]
 * @returns {RowCosine[]}
 */
export function nearestRows({ lab, raw }, table, dim, query, options) {
  requireVector('table', table);
  requireInteger('dim', dim, 1, lab.limits.maxDim);
  if (table.length % dim !== 0) {
    throw new RangeError(`table.length must be a multiple of dim (${dim}), got ${table.length}`);
  }
  const rows = table.length / dim;
  const { k = 10, skip = [] } = requireOptions('options', options, ['k', 'skip']);
  requireInteger('k', k, 1, 0x7fffffff); // fewer come back when fewer rows remain
  if (!Array.isArray(skip) && !ArrayBuffer.isView(skip)) {
    throw new TypeError(`skip must be an array of row indices, got ${describe(skip)}`);
  }
  const skipped = Array.from(skip, (row, i) => requireInteger(`skip[${i}]`, row, 0, rows - 1));
  let vector = query;
  if (typeof query === 'number') {
    requireInteger('query', query, 0, rows - 1);
    vector = /** @type {Float32Array | number[]} */ (table).slice(query * dim, (query + 1) * dim); // an array or typed array, as checked
    skipped.push(query); // a row is always its own nearest neighbour
  } else if (Array.isArray(query) || ArrayBuffer.isView(query)) {
    requireVector('query', query, dim);
  } else {
    throw new TypeError(`query must be a row index or a vector of ${dim} numbers, got ${describe(query)}`);
  }
  return lab.call(() => raw.nearestRows(table, dim, vector, k, skipped));
}
