// T5's bucket settings, checked with the names the caller used (createModel's t5NumBuckets / t5MaxDistance,
// relativePositionBuckets' numBuckets / maxDistance). The rule is the C++ core's
// (model/relative_position_bias.h): bidirectional bucketing gives half the buckets to each sign, and half of
// those again are exact (offsets 0..E-1), so the log-spaced rest needs maxDistance > E.
import { requireInteger } from '../runtime/checks.js';

export const T5_DEFAULT_NUM_BUCKETS = 32;
export const T5_DEFAULT_MAX_DISTANCE = 128;

/**
 * Throws a TypeError (not an integer) or RangeError naming the argument and its range.
 * @param {string} bucketsName
 * @param {number} numBuckets
 * @param {string} distanceName
 * @param {number} maxDistance
 * @param {boolean} bidirectional
 */
export function requireRelativeBuckets(bucketsName, numBuckets, distanceName, maxDistance, bidirectional) {
  requireInteger(
    `${bucketsName} (${bidirectional ? 'bidirectional' : 'causal'})`,
    numBuckets,
    bidirectional ? 4 : 2,
    4096,
  );
  const exact = (bidirectional ? Math.floor(numBuckets / 2) : numBuckets) >> 1;
  if (typeof maxDistance !== 'number') {
    requireInteger(distanceName, maxDistance, exact + 1, 2 ** 30);
  }
  if (!Number.isInteger(maxDistance) || maxDistance <= exact || maxDistance > 2 ** 30) {
    throw new RangeError(
      `${distanceName} must be an integer in [${exact + 1}, ${2 ** 30}] (above the ${exact} exact buckets of ` +
        `${numBuckets} ${bidirectional ? 'bidirectional' : 'causal'} buckets), got ${maxDistance}`,
    );
  }
}
