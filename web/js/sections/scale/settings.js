// Section 8's settings: the heads and windows it offers, the methods it compares, how it asks the library for each
// method's frequencies, and how it writes the settings under every figure.
import { PALETTE } from '../../draw/plot.js';
import { RACE_OPTIONS } from '../../race/plan.js';
import { grouped } from '../../ui/format.js';

/**
 * The head and window of each preset. Section 7's race and the native tables of docs/long-contexts.md (the
 * README's tiny GPT) are read from their configurations; neither sets a RoPE base, so both have the library's.
 */
export function presetsOf(lab) {
  const base = lab.modelDefaults.ropeBase;
  const native = lab.longContextDefaults;
  return {
    race: { headDim: RACE_OPTIONS.channels / RACE_OPTIONS.heads, base, window: RACE_OPTIONS.trainLength },
    tiny: { headDim: native.channels / native.heads, base, window: native.trainLength },
    llama2: { headDim: 128, base: 10000, window: 4096 },
    llama3: { headDim: 128, base: 500000, window: 8192 },
  };
}

export const METHODS = [
  { type: 'linear', label: 'PI (linear)', colour: PALETTE[0] },
  { type: 'ntk', label: 'NTK-aware', colour: PALETTE[1] },
  { type: 'dynamic', label: 'Dynamic NTK', colour: PALETTE[2], dash: [6, 4] },
  { type: 'yarn', label: 'YaRN', colour: PALETTE[3] },
  { type: 'llama3', label: 'Llama 3.1', colour: PALETTE[4] },
];
export const UNSCALED = { type: 'none', label: 'Unscaled RoPE', colour: PALETTE[7] };
/** YaRN with the paper's ramp (paper_ramp.js), beside the library's (transformers') YaRN. */
export const YARN_PAPER = { type: 'yarn-paper', label: 'YaRN, paper’s γ(r)', colour: PALETTE[3], dash: [5, 4] };

/**
 * The scaling a method gets at factor s on a window of T tokens. Dynamic NTK takes factor 1, as the library's
 * long-context experiment: its base then follows the length read, base · (L/T)^(d/(d−2)), which for a whole window
 * of L = s·T tokens read in one pass is NTK's with factor s.
 */
export function scalingOf(type, factor, window) {
  if (type === 'none') {
    return { type };
  }
  if (type === 'linear' || type === 'ntk') {
    return { type, factor };
  }
  return { type, factor: type === 'dynamic' ? 1 : factor, originalContextLength: window };
}

/** 10000 → "10 000" (narrow no-break spaces, as the page writes numbers); a fraction to 3 significant digits. */
export function number(x) {
  if (Number.isInteger(x)) {
    return grouped(x);
  }
  return x >= 1000 ? number(Math.round(x)) : x.toPrecision(3);
}

/** The settings a figure was computed with: "d = 8, base 10 000, T = 32, s = 4, L = 128" (withFactor adds s, L). */
export function settingsText(s, withFactor = true) {
  const head = `d = ${s.headDim}, base ${number(s.base)}, T = ${number(s.window)}`;
  return withFactor ? `${head}, s = ${s.factor}, L = ${number(s.length)}` : head;
}
