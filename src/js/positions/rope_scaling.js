// RoPE scaling options ({type, factor, originalContextLength, ...}) checked and completed with Hugging Face's
// defaults, for lab.ropeFrequencies, createModel({ropeScaling}) and model.setRopeScaling. The C++ core
// (model/rope_scaling.h) checks the same ranges again.
import { describe, requireBoolean, requireInteger, requireNumber, requireOptions } from '../runtime/checks.js';

/** @import { EmbedLab } from '../lab.js' */
/** @import { RopeScaling } from './types.js' */

const MAX_FACTOR = 1e6;

/**
 * @param {string} name
 * @param {unknown} value
 * @param {number} max
 */
function requirePositive(name, value, max) {
  if (typeof value !== 'number' || !(value > 0 && value <= max)) {
    const error = typeof value === 'number' ? RangeError : TypeError;
    throw new error(`${name} must be a finite number in (0, ${max}], got ${describe(value)}`);
  }
}

/**
 * The scaling with every field present (type as a name); `name` prefixes the messages ('scaling' or
 * 'ropeScaling'). Fields a type does not use keep their defaults and are ignored, as in transformers.
 * @param {string} name
 * @param {RopeScaling | undefined} scaling
 * @param {EmbedLab} lab
 */
export function normalizeRopeScaling(name, scaling, lab) {
  const {
    type = 'none',
    factor = 1,
    originalContextLength = 0,
    betaFast = 32,
    betaSlow = 1,
    attentionFactor,
    truncate = true,
    lowFrequencyFactor = 1,
    highFrequencyFactor = 4,
  } = requireOptions(name, scaling, [
    'type',
    'factor',
    'originalContextLength',
    'betaFast',
    'betaSlow',
    'attentionFactor',
    'truncate',
    'lowFrequencyFactor',
    'highFrequencyFactor',
  ]);
  if (!lab.ropeScalingTypes.includes(type)) {
    throw new TypeError(`${name}.type must be one of ${lab.ropeScalingTypes.join(', ')}, got ${describe(type)}`);
  }
  const normalized = {
    type,
    factor,
    originalContextLength,
    betaFast,
    betaSlow,
    attentionFactor: 0, // 0 = the default 0.1 ln(factor) + 1 (the core's convention)
    truncate,
    lowFrequencyFactor,
    highFrequencyFactor,
  };
  if (type === 'none') {
    return normalized;
  }
  requireNumber(`${name}.factor`, factor, 1, MAX_FACTOR);
  if (type === 'dynamic' || type === 'yarn' || type === 'llama3') {
    requireInteger(`${name}.originalContextLength`, originalContextLength, 1, lab.limits.maxSequenceLength);
  }
  if (type === 'yarn') {
    requirePositive(`${name}.betaFast`, betaFast, MAX_FACTOR);
    requirePositive(`${name}.betaSlow`, betaSlow, MAX_FACTOR);
    if (!(betaFast > betaSlow)) {
      throw new RangeError(`${name}.betaFast (${betaFast}) must exceed ${name}.betaSlow (${betaSlow})`);
    }
    if (attentionFactor !== undefined) {
      requirePositive(`${name}.attentionFactor`, attentionFactor, 16);
      normalized.attentionFactor = attentionFactor;
    }
    requireBoolean(`${name}.truncate`, truncate);
  }
  if (type === 'llama3') {
    requirePositive(`${name}.lowFrequencyFactor`, lowFrequencyFactor, MAX_FACTOR);
    requirePositive(`${name}.highFrequencyFactor`, highFrequencyFactor, MAX_FACTOR);
    if (!(highFrequencyFactor > lowFrequencyFactor)) {
      throw new RangeError(
        `${name}.highFrequencyFactor (${highFrequencyFactor}) must exceed ${name}.lowFrequencyFactor (${lowFrequencyFactor})`,
      );
    }
  }
  return normalized;
}
