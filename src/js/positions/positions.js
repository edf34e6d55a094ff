// EmbedLab's positional schemes that act inside attention, exposed one piece at a time: the RoPE rotation of
// one vector at one position, RoPE's (scaled) frequencies, the ALiBi slope of each head and T5's offset buckets, as
// the tiny GPT computes them (C++ core: model/rotary_embedding.h, model/rope_scaling.h, model/attention.h,
// model/relative_position_bias.h). The functions take the lab's internals ({lab, raw}, see runtime/wasm_instance.js).
// Here only option names, layout and scaling names and JS types; sizes and ranges are the core's, whose messages
// name these arguments.
import {
  describe,
  requireBoolean,
  requireInteger,
  requireIntegerType,
  requireNumber,
  requireNumberType,
  requireOptions,
  requireVector,
} from '../runtime/checks.js';
import { normalizeRopeScaling } from './rope_scaling.js';
/** @import { LabInternals, Vector } from '../runtime/types.js' */
/** @import * as types from './types.js' */

/**
 * @param {LabInternals} internals
 * @param {Vector} vector
 * @param {number} position
 * @param {types.RopeRotateOptions} [options]
 * @returns {Float32Array}
 */
export function ropeRotate({ lab, raw }, vector, position, options) {
  requireVector('vector', vector);
  requireIntegerType('position', position);
  const { base = 10000, layout = 'interleaved' } = requireOptions('options', options, ['base', 'layout']);
  requireNumberType('base', base);
  if (!lab.ropeLayouts.includes(layout)) {
    throw new TypeError(`layout must be one of ${lab.ropeLayouts.join(', ')}, got ${describe(layout)}`);
  }
  return lab.call(() => raw.ropeRotate(vector, position, base, layout));
}

/**
 * @param {LabInternals} internals
 * @param {number} heads
 * @returns {Float32Array}
 */
export function alibiSlopes({ lab, raw }, heads) {
  requireIntegerType('heads', heads);
  return lab.call(() => raw.alibiSlopes(heads));
}

/**
 * @param {LabInternals} internals
 * @param {types.RopeFrequenciesOptions} options
 * @returns {types.RopeFrequencies}
 */
export function ropeFrequencies({ lab, raw }, options) {
  const {
    headDim,
    base = 10000,
    scaling,
    length,
  } = requireOptions('options', options, ['headDim', 'base', 'scaling', 'length']);
  const minimum = scaling?.type === 'ntk' || scaling?.type === 'dynamic' ? 4 : 2;
  requireInteger('headDim', headDim, minimum, lab.limits.maxDim);
  if (headDim % 2 !== 0) {
    throw new RangeError(`RoPE rotates pairs, so headDim must be even, got ${headDim}`);
  }
  requireNumber('base', base, 1, 1e12);
  // Only dynamic NTK reads the length; there it is required, so a forgotten length cannot silently mean "unscaled".
  if (length !== undefined || scaling?.type === 'dynamic') {
    requireInteger('length', length, 1, lab.limits.maxSequenceLength);
  }
  const normalized = normalizeRopeScaling('scaling', scaling, lab);
  return lab.call(() => raw.ropeFrequencies(headDim, base, normalized, length ?? 1));
}

/**
 * @param {LabInternals} internals
 * @param {types.RelativePositionBucketsOptions} options
 * @returns {Int32Array}
 */
export function relativePositionBuckets({ lab, raw }, options) {
  // The defaults are those of createModel's t5NumBuckets and t5MaxDistance, as the core defines them.
  const {
    length,
    numBuckets = lab.modelDefaults.t5NumBuckets,
    maxDistance = lab.modelDefaults.t5MaxDistance,
    bidirectional = false,
  } = requireOptions('options', options, ['length', 'numBuckets', 'maxDistance', 'bidirectional']);
  requireIntegerType('length', length);
  requireBoolean('bidirectional', bidirectional);
  requireIntegerType('numBuckets', numBuckets);
  requireIntegerType('maxDistance', maxDistance);
  return lab.call(() => raw.relativePositionBuckets(length, numBuckets, maxDistance, bidirectional));
}
