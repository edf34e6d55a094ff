// Section 8: RoPE at longer contexts. Each pair's wavelength against the training window, how each scaling method
// moves each pair's frequency, and the score against distance, all from the library's lab.ropeFrequencies (the
// function the model uses) and its kernels: pair_charts.js and score_chart.js draw them. The token tables' cost at
// scale is in costs.js.
import { $, redrawOnColourScheme, redrawOnResize } from '../../ui/dom.js';
import { nextTask, stepByStep } from '../../ui/tasks.js';
import * as costs from './costs.js';
import { drawRatios, drawWavelengths } from './pair_charts.js';
import { paperYarnFrequencies } from './paper_ramp.js';
import { drawScores } from './score_chart.js';
import { METHODS, number, presetsOf, scalingOf, settingsText } from './settings.js';

const MAX_FACTOR = 32;

let ctx;
let presets;

function settings() {
  const preset = presets[$('scale-preset').value];
  const factor = Number($('scale-factor').value);
  return { ...preset, factor, length: factor * preset.window };
}

/** θ′ and a of one method, from the library, for a sequence of s·T tokens (the length dynamic NTK reads). */
function frequencies(type, s) {
  return ctx.lab.ropeFrequencies({
    headDim: s.headDim,
    base: s.base,
    scaling: scalingOf(type, s.factor, s.window),
    length: s.length,
  });
}

/** Every figure and table names the settings it was computed with. */
function showSettings(s) {
  $('scale-preset-note').textContent =
    `head dimension d = ${s.headDim}, base ${number(s.base)}, T = ${number(s.window)}`;
  for (const id of [
    'scale-ratios-settings',
    'scale-bands-settings',
    'scale-scores-settings',
    'scale-scores-table-settings',
  ]) {
    document.querySelector(`[data-testid="${id}"]`).textContent = `(${settingsText(s)})`;
  }
  document.querySelector('[data-testid="scale-wavelengths-settings"]').textContent = `(${settingsText(s, false)})`;
}

/** The section's figures at the present settings (their notes set here): each a function that draws one. */
function figures() {
  const s = settings();
  $('scale-factor-out').textContent = String(s.factor);
  showSettings(s);
  const unscaled = frequencies('none', s);
  const scaled = new Map(METHODS.map((m) => [m.type, frequencies(m.type, s)]));
  $('scale').dataset.headDim = String(s.headDim);
  $('scale').dataset.base = String(s.base);
  $('scale').dataset.window = String(s.window);
  $('scale').dataset.factor = String(s.factor);
  return [
    () => drawWavelengths(s, unscaled),
    () => drawRatios(s, unscaled, scaled, paperYarnFrequencies(unscaled.inverseFrequencies, s.factor, s.window)),
    () => drawScores(ctx.lab, s, unscaled, scaled),
  ];
}

let drawings = 0; // every drawing of the figures counts: a first drawing in steps stops once a later one began

function update() {
  drawings++;
  figures().forEach((draw) => draw());
}

/** The factor slider stops where s·T reaches the library's longest sequence (dynamic NTK reads L = s·T). */
function fitFactorRange() {
  const slider = $('scale-factor');
  const { window } = presets[$('scale-preset').value];
  const max = Math.min(MAX_FACTOR, Math.floor(ctx.lab.limits.maxSequenceLength / window));
  slider.max = String(max);
  if (Number(slider.value) > max) {
    slider.value = String(max);
  }
}

/** Starts the section: each figure in a task of its own; resolves once the cost table's numbers are shown. */
export async function init(context) {
  ctx = context;
  presets = presetsOf(ctx.lab);
  fitFactorRange();
  $('scale-preset').addEventListener('change', () => {
    fitFactorRange();
    update();
  });
  $('scale-factor').addEventListener('input', update);
  $('scale-method').addEventListener('change', update);
  redrawOnResize('scale', update);
  redrawOnColourScheme(update);
  const first = ++drawings;
  await stepByStep(figures(), () => drawings === first);
  await nextTask();
  return costs.init(context); // the cost table's vocabulary sizes: the page is ready once they are shown
}
