// EmbedLab's principal components: the directions along which a table's rows vary most and each row's
// coordinates along them, computed by the C++ core in double precision (compare/principal_components.h).
// The function takes the lab's internals ({lab, raw}, see runtime/wasm_instance.js).
import { requireInteger, requireOptions, requireVector } from '../runtime/checks.js';
/** @import { LabInternals, Vector } from '../runtime/types.js' */
/** @import { PrincipalComponents, PrincipalComponentsOptions } from './types.js' */

/**
 * @param {LabInternals} internals
 * @param {Vector} values
 * @param {number} rows
 * @param {number} cols
 * @param {PrincipalComponentsOptions} [options]
 * @returns {PrincipalComponents}
 */
export function principalComponents({ lab, raw }, values, rows, cols, options) {
  requireVector('values', values);
  requireInteger('rows', rows, 1, 0x7fffffff);
  requireInteger('cols', cols, 1, lab.limits.maxDim);
  if (values.length !== rows * cols) {
    throw new RangeError(`values.length must be rows * cols (${rows * cols}), got ${values.length}`);
  }
  const { count = 2 } = requireOptions('options', options, ['count']);
  requireInteger('count', count, 1, cols);
  return lab.call(() => raw.principalComponents(values, rows, cols, count));
}
