// RoPE scaling options ({type, factor, originalContextLength, ...}) completed with the C++ core's defaults
// (lab.ropeScalingDefaults, read from model/rope_scaling.h at start-up), for lab.ropeFrequencies,
// createModel({ropeScaling}) and model.setRopeScaling. Here only what the core cannot see: option names, the
// type's name, JS types and integer-ness (Embind would coerce a string to NaN and truncate 1.5). Ranges and the
// relations between fields (betaFast > betaSlow, ...) are the core's ValidateRopeScaling alone, whose messages
// name the field as the caller's argument: config.ropeScaling.factor (createModel), scaling.factor (ropeFrequencies,
// setRopeScaling).
import { describe, requireBoolean, requireOptions } from '../runtime/checks.js';
/** @import { EmbedLab } from '../lab.js' */
/** @import { RopeScaling } from './types.js' */

/**
 * The scaling with every field present (type as a name); `name` prefixes the messages ('scaling' or
 * 'config.ropeScaling'). Fields a type does not use keep their defaults and are ignored, as in transformers.
 * An attentionFactor of 0, as when it is left out, means the default 0.1 ln(factor) + 1 (the core's convention).
 * @param {string} name
 * @param {RopeScaling | undefined} scaling
 * @param {EmbedLab} lab
 * @returns {Required<RopeScaling>}
 */
export function normalizeRopeScaling(name, scaling, lab) {
  const defaults = lab.ropeScalingDefaults;
  const options = requireOptions(name, scaling, Object.keys(defaults));
  const normalized = { ...defaults };
  for (const [key, value] of Object.entries(options)) {
    if (value !== undefined) {
      normalized[key] = value;
    }
  }
  const { type } = normalized;
  if (!lab.ropeScalingTypes.includes(type)) {
    throw new TypeError(`${name}.type must be one of ${lab.ropeScalingTypes.join(', ')}, got ${describe(type)}`);
  }
  for (const [key, value] of Object.entries(normalized)) {
    if (key === 'type' || key === 'truncate') {
      continue;
    }
    if (typeof value !== 'number') {
      throw new TypeError(`${name}.${key} must be a number, got ${describe(value)}`);
    }
  }
  if (!Number.isInteger(normalized.originalContextLength)) {
    const { maxSequenceLength } = lab.limits;
    throw new RangeError(
      `${name}.originalContextLength must be an integer in [1, ${maxSequenceLength}], got ${normalized.originalContextLength}`,
    );
  }
  requireBoolean(`${name}.truncate`, normalized.truncate);
  return normalized;
}
