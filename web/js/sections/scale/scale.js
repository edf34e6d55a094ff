// Section 8: RoPE at longer contexts. Each pair's wavelength against the training window, how each scaling method
// moves each pair's frequency, and the score against distance, all from the library's lab.ropeFrequencies (the
// function the model uses) and its kernels. The token tables' cost at scale is in costs.js.
import { showKey } from '../../draw/legend.js';
import { $, redrawOnColourScheme, redrawOnResize } from '../../ui/dom.js';
import { subscript } from '../../ui/format.js';
import { PALETTE } from '../../draw/plot.js';
import { readoutNumber } from '../../draw/readout.js';
import * as costs from './costs.js';
import { drawLogChart } from './log_chart.js';

/**
 * The head and window of each preset: the tiny GPT of the long-context tables (docs/long-contexts.md) (the library's defaults: 64
 * channels, 4 heads, T = 64), Llama 2 7B, Llama 3 8B.
 */
export const PRESETS = {
  tiny: { headDim: 16, base: 10000, window: 64 },
  llama2: { headDim: 128, base: 10000, window: 4096 },
  llama3: { headDim: 128, base: 500000, window: 8192 },
};

export const METHODS = [
  { type: 'linear', label: 'PI (linear)', colour: PALETTE[0] },
  { type: 'ntk', label: 'NTK-aware', colour: PALETTE[1] },
  { type: 'dynamic', label: 'Dynamic NTK', colour: PALETTE[2], dash: [6, 4] },
  { type: 'yarn', label: 'YaRN', colour: PALETTE[3] },
  { type: 'llama3', label: 'Llama 3.1', colour: PALETTE[4] },
];
const UNSCALED = { type: 'none', label: 'Unscaled RoPE', colour: PALETTE[7] };

/** Distances of the score plot: this many whole distances, evenly spaced on a log scale (fewer when they repeat). */
export const SCORE_DISTANCES = 400;
const MAX_FACTOR = 32;
const TWO_PI = 2 * Math.PI;

let ctx;

/**
 * The scaling a method gets at factor s on a window of T tokens. Dynamic NTK takes factor 1, as the library's long-context experiment:
 * its base then follows the length read, base · (L/T)^(d/(d−2)), which at L = s·T is NTK's with factor s.
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

function settings() {
  const preset = PRESETS[$('scale-preset').value];
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

const tokens = (x) => (x >= 100 ? Math.round(x).toLocaleString('en-US').replace(/,/g, '\u202f') : x.toFixed(2));

/** Pair indices to label on a chart of `half` pairs: the first, the middle and the last. */
const pairTicks = (half) => [0, Math.floor(half / 2), half - 1];

// ---- wavelengths ---------------------------------------------------------------------------------------------
function drawWavelengths(s, unscaled) {
  const wavelengths = Array.from(unscaled.inverseFrequencies, (theta) => TWO_PI / theta);
  const half = wavelengths.length;
  const slow = wavelengths.map((_, i) => i).filter((i) => wavelengths[i] > s.window);
  const pairs = wavelengths.map((_, i) => i);
  const fast = pairs.filter((i) => wavelengths[i] <= s.window);
  const yMin = Math.min(wavelengths[0], s.window / 32) / 2;
  const yMax = Math.max(wavelengths[half - 1], s.window) * 2;
  drawLogChart(
    $('scale-wavelengths'),
    [
      { xs: fast, ys: fast.map((i) => wavelengths[i]), colour: PALETTE[0], dots: 3 },
      { xs: slow, ys: slow.map((i) => wavelengths[i]), colour: PALETTE[4], dots: 3 },
    ],
    {
      xMin: -0.5,
      xMax: half - 0.5,
      xTicks: pairTicks(half),
      yMin,
      yMax,
      yLog: true,
      xLabel: `pair i (0 … ${half - 1})`,
      yLabel: 'λᵢ (tokens)',
      levels: [
        { y: s.window, label: 'T' },
        { y: s.window / 4, label: 'T/4' },
        { y: s.window / 32, label: 'T/32' },
      ],
    },
  );
  showKey($('scale-wavelengths'), [
    { label: 'λᵢ ≤ T', colour: PALETTE[0] },
    { label: 'λᵢ > T: never a whole turn inside a window', colour: PALETTE[4] },
  ]);
  const out = $('scale-wavelengths-result');
  const longest = wavelengths[half - 1];
  out.textContent =
    slow.length === 0
      ? `All ${half} pairs have λᵢ ≤ T = ${tokens(s.window)}: each sweeps its whole circle within a window.`
      : `${slow.length} of the ${half} pairs (i = ${slow[0]} … ${half - 1}) have λᵢ > T = ${tokens(s.window)}: they never complete a turn inside a window. The slowest, λ${subscript(half - 1)} = ${tokens(longest)} tokens, turns ${(s.window / longest).toPrecision(3)} times in T; the fastest (λ₀ = 2π) turns ${tokens(s.window / wavelengths[0])} times.`;
  out.dataset.count = String(slow.length);
  out.dataset.pairs = String(half);
  out.dataset.first = String(slow[0] ?? half);
}

// ---- frequency ratios ----------------------------------------------------------------------------------------
/** Runs of consecutive pair indices as text: "0–12 (13)", or "—". */
function runs(indices) {
  if (indices.length === 0) {
    return '—';
  }
  const parts = [];
  let start = indices[0];
  for (let k = 1; k <= indices.length; k++) {
    if (k === indices.length || indices[k] !== indices[k - 1] + 1) {
      const end = indices[k - 1];
      parts.push(end === start ? String(start) : `${start}–${end}`);
      start = indices[k];
    }
  }
  return `${parts.join(', ')} (${indices.length})`;
}

function drawRatios(s, unscaled, scaled) {
  const theta = unscaled.inverseFrequencies;
  const pairs = Array.from(theta, (_, i) => i);
  const series = METHODS.map((m) => ({
    ...m,
    xs: pairs,
    ys: pairs.map((i) => scaled.get(m.type).inverseFrequencies[i] / theta[i]),
    width: m.type === 'dynamic' ? 2 : 2.5,
  }));
  drawLogChart($('scale-ratios'), series, {
    xMin: -0.5,
    xMax: pairs.length - 0.5,
    xTicks: pairTicks(pairs.length),
    yMin: 1 / s.factor / 1.6,
    yMax: 1.6,
    yLog: true,
    xLabel: `pair i (0 … ${pairs.length - 1})`,
    yLabel: 'θ′ᵢ / θᵢ',
    levels: [{ y: 1, label: 'kept' }, ...(s.factor > 1 ? [{ y: 1 / s.factor, label: '÷ s' }] : [])],
  });
  showKey(
    $('scale-ratios'),
    METHODS.map((m) => ({ label: m.type === 'dynamic' ? `${m.label} (dashed; L = s·T)` : m.label, colour: m.colour })),
  );
  const rows = METHODS.map((m) => {
    const f = scaled.get(m.type);
    const ratio = (i) => f.inverseFrequencies[i] / theta[i];
    const kept = pairs.filter((i) => Math.abs(ratio(i) - 1) <= 1e-9);
    const divided = pairs.filter((i) => !kept.includes(i) && Math.abs(ratio(i) * s.factor - 1) <= 1e-9);
    const between = pairs.filter((i) => !kept.includes(i) && !divided.includes(i));
    const tr = document.createElement('tr');
    tr.dataset.method = m.type;
    tr.dataset.kept = String(kept.length);
    tr.dataset.divided = String(divided.length);
    tr.dataset.attentionFactor = String(f.attentionFactor);
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = m.label;
    tr.append(th);
    for (const text of [runs(kept), runs(between), runs(divided), f.attentionFactor.toFixed(4)]) {
      const td = document.createElement('td');
      td.textContent = text;
      tr.append(td);
    }
    return tr;
  });
  $('scale-bands-body').replaceChildren(...rows);
}

// ---- score against distance ----------------------------------------------------------------------------------
/** Whole distances 1 … max, SCORE_DISTANCES of them evenly spaced on a log scale (rounded, without repeats). */
export function scoreDistances(max) {
  const out = new Set();
  for (let k = 0; k < SCORE_DISTANCES; k++) {
    out.add(Math.round(max ** (k / (SCORE_DISTANCES - 1))));
  }
  return [...out].sort((a, b) => a - b);
}

/**
 * (R_m q)·(R_n k) at each distance Δ = m − n for q = k = (1, …, 1)/√d, with the library's frequencies θ′ and
 * attention factor a: the library's sinCos gives [sin Δθ′ᵢ, cos Δθ′ᵢ] per pair, and its dot product weighs them by
 * a²·(q₂ᵢk₂ᵢ₊₁ − q₂ᵢ₊₁k₂ᵢ) and a²·(q₂ᵢk₂ᵢ + q₂ᵢ₊₁k₂ᵢ₊₁).
 */
function scores(f, headDim, distances) {
  const lab = ctx.lab;
  const half = headDim / 2;
  const q = new Float64Array(headDim).fill(1 / Math.sqrt(headDim));
  const k = q;
  const a2 = f.attentionFactor * f.attentionFactor;
  const weights = new Float32Array(headDim);
  for (let i = 0; i < half; i++) {
    weights[2 * i] = a2 * (q[2 * i] * k[2 * i + 1] - q[2 * i + 1] * k[2 * i]);
    weights[2 * i + 1] = a2 * (q[2 * i] * k[2 * i] + q[2 * i + 1] * k[2 * i + 1]);
  }
  const angles = new Float64Array(distances.length * half);
  distances.forEach((d, j) => {
    for (let i = 0; i < half; i++) {
      angles[j * half + i] = d * f.inverseFrequencies[i];
    }
  });
  const sinCos = lab.kernels.sinCos(angles);
  return distances.map((_, j) => lab.kernels.dot(sinCos.subarray(j * headDim, (j + 1) * headDim), weights));
}

function drawScores(s, unscaled, scaled) {
  const method = METHODS.find((m) => m.type === $('scale-method').value);
  const far = s.length - 1;
  const distances = scoreDistances(far);
  const base = scores(unscaled, s.headDim, distances);
  const mine = scores(scaled.get(method.type), s.headDim, distances);
  const all = [...base, ...mine];
  const lo = Math.min(...all);
  const hi = Math.max(...all);
  const pad = (hi - lo) * 0.06 || 0.1;
  drawLogChart(
    $('scale-scores'),
    [
      { ...UNSCALED, xs: distances, ys: base, width: 1.5 },
      { ...method, xs: distances, ys: mine, width: 2, dash: [] },
    ],
    {
      xMin: 1,
      xMax: Math.max(2, far),
      xLog: true,
      yMin: lo - pad,
      yMax: hi + pad,
      xLabel: 'distance Δ = m − n (tokens)',
      yLabel: 'score',
      marks: s.factor > 1 ? [{ x: s.window, label: 'T' }] : [],
      levels: [{ y: 0, label: '' }],
      shadeFrom: s.window,
    },
  );
  showKey($('scale-scores'), [
    { label: UNSCALED.label, colour: UNSCALED.colour },
    { label: method.label, colour: method.colour },
  ]);
  $('scale-scores').dataset.method = method.type;
  $('scale-scores').dataset.distances = JSON.stringify(distances);
  $('scale-scores').dataset.scores = JSON.stringify(mine);
  $('scale-scores').dataset.unscaled = JSON.stringify(base);
  // The table: every method at the farthest offset of a training window, T − 1, and of the long one, s·T − 1.
  const columns = [s.window - 1, far];
  $('scale-scores-near').textContent = `Δ = T − 1 = ${tokens(columns[0])}`;
  $('scale-scores-far').textContent = `Δ = s·T − 1 = ${tokens(columns[1])}`;
  const rows = [UNSCALED, ...METHODS].map((m) => {
    const values = scores(m.type === 'none' ? unscaled : scaled.get(m.type), s.headDim, columns);
    const tr = document.createElement('tr');
    tr.dataset.method = m.type;
    tr.dataset.scores = JSON.stringify(values);
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = m.label;
    tr.append(th, ...values.map((v) => Object.assign(document.createElement('td'), { textContent: readoutNumber(v) })));
    return tr;
  });
  $('scale-scores-body').replaceChildren(...rows);
}

function update() {
  const s = settings();
  $('scale-factor-out').textContent = String(s.factor);
  $('scale-preset-note').textContent =
    `head dimension d = ${s.headDim}, base ${tokens(s.base)}, T = ${tokens(s.window)}`;
  const unscaled = frequencies('none', s);
  const scaled = new Map(METHODS.map((m) => [m.type, frequencies(m.type, s)]));
  drawWavelengths(s, unscaled);
  drawRatios(s, unscaled, scaled);
  drawScores(s, unscaled, scaled);
  $('scale').dataset.headDim = String(s.headDim);
  $('scale').dataset.base = String(s.base);
  $('scale').dataset.window = String(s.window);
  $('scale').dataset.factor = String(s.factor);
}

/** The factor slider stops where s·T reaches the library's longest sequence (dynamic NTK reads L = s·T). */
function fitFactorRange() {
  const slider = $('scale-factor');
  const { window } = PRESETS[$('scale-preset').value];
  const max = Math.min(MAX_FACTOR, Math.floor(ctx.lab.limits.maxSequenceLength / window));
  slider.max = String(max);
  if (Number(slider.value) > max) {
    slider.value = String(max);
  }
}

export function init(context) {
  ctx = context;
  fitFactorRange();
  $('scale-preset').addEventListener('change', () => {
    fitFactorRange();
    update();
  });
  $('scale-factor').addEventListener('input', update);
  $('scale-method').addEventListener('change', update);
  update();
  redrawOnResize('scale', update);
  redrawOnColourScheme(update);
  return costs.init(context); // the cost table's vocabulary sizes: the page is ready once they are shown
}
