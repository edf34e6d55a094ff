// EmbedLab's parameter count of a published transformer configuration (C++ core:
// model/transformer_parameter_count.h): the token tables' share of the model and its memory. The function takes the
// lab's internals ({lab, raw}, see runtime/wasm_instance.js).
import { describe, requireBoolean, requireIntegerType, requireNumber, requireOptions } from '../runtime/checks.js';

/** @import { LabInternals } from '../runtime/types.js' */
/** @import { TransformerConfig, TransformerParameterCount } from './types.js' */

const OPTIONS = [
  'vocabSize',
  'channels',
  'layers',
  'heads',
  'kvHeads',
  'ffnHidden',
  'mlpRatio',
  'gatedMlp',
  'tiedOutput',
  'biases',
  'norm',
  'positionRows',
];

/** The MLP's inner width: ffnHidden, or mlpRatio × channels (default 4, GPT-2's), which must then be whole. */
/**
 * @param {number | undefined} ffnHidden
 * @param {number | undefined} mlpRatio
 * @param {number} channels
 * @returns {number}
 */
function ffnHiddenOf(ffnHidden, mlpRatio, channels) {
  if (ffnHidden !== undefined && mlpRatio !== undefined) {
    throw new TypeError('give ffnHidden or mlpRatio, not both');
  }
  if (ffnHidden !== undefined) {
    return requireIntegerType('ffnHidden', ffnHidden);
  }
  const ratio = requireNumber('mlpRatio', mlpRatio ?? 4, 1e-6, 1e6);
  const width = ratio * channels;
  if (!Number.isInteger(width)) {
    throw new RangeError(`mlpRatio × channels must be a whole number of units, got ${ratio} × ${channels} = ${width}`);
  }
  return width;
}

/**
 * @param {LabInternals} internals
 * @param {TransformerConfig} config
 * @returns {TransformerParameterCount}
 */
export function transformerParameterCount({ lab, raw }, config) {
  if (config === undefined) {
    throw new TypeError('config must be an options object with vocabSize, channels, layers and heads');
  }
  const {
    vocabSize,
    channels,
    layers,
    heads,
    kvHeads = heads,
    ffnHidden,
    mlpRatio,
    gatedMlp = false,
    tiedOutput = true,
    biases = true,
    norm = 'layernorm',
    positionRows = 0,
  } = requireOptions('config', config, OPTIONS);
  // The ranges and the norm's names are the core's (model/transformer_parameter_count.h): only the JS types here.
  for (const [name, value] of Object.entries({ vocabSize, channels, layers, heads, kvHeads, positionRows })) {
    requireIntegerType(name, value);
  }
  const width = ffnHiddenOf(ffnHidden, mlpRatio, channels);
  requireBoolean('gatedMlp', gatedMlp);
  requireBoolean('tiedOutput', tiedOutput);
  requireBoolean('biases', biases);
  if (typeof norm !== 'string') {
    throw new TypeError(`norm must be a string, got ${describe(norm)}`);
  }
  return lab.call(() =>
    raw.transformerParameterCount(
      vocabSize,
      channels,
      layers,
      heads,
      kvHeads,
      width,
      gatedMlp,
      tiedOutput,
      biases,
      norm,
      positionRows,
    ),
  );
}
