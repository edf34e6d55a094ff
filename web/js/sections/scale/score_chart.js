// Section 8's score against distance: (R_m q)·(R_n k) for q = k = (1, …, 1)/√d at each distance, from the
// library's θ′ᵢ, attention factor and kernels, for unscaled RoPE and the chosen method; and the table of every
// method's score at the farthest offsets of the trained and the long window.
import { showKey } from '../../draw/legend.js';
import { readoutNumber } from '../../draw/readout.js';
import { $ } from '../../ui/dom.js';
import { drawLogChart } from './log_chart.js';
import { METHODS, UNSCALED, number } from './settings.js';

/** Distances of the score plot: this many whole distances, evenly spaced on a log scale (fewer when they repeat). */
export const SCORE_DISTANCES = 400;

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
function scores(lab, f, headDim, distances) {
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

export function drawScores(lab, s, unscaled, scaled) {
  const method = METHODS.find((m) => m.type === $('scale-method').value);
  const far = s.length - 1;
  const distances = scoreDistances(far);
  const base = scores(lab, unscaled, s.headDim, distances);
  const mine = scores(lab, scaled.get(method.type), s.headDim, distances);
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
  const canvas = $('scale-scores');
  canvas.dataset.method = method.type;
  canvas.dataset.distances = JSON.stringify(distances);
  canvas.dataset.scores = JSON.stringify(mine);
  canvas.dataset.unscaled = JSON.stringify(base);
  // The table: every method at the farthest offset of a training window, T − 1, and of the long one, s·T − 1.
  const columns = [s.window - 1, far];
  $('scale-scores-near').textContent = `Δ = T − 1 = ${number(columns[0])}`;
  $('scale-scores-far').textContent = `Δ = s·T − 1 = ${number(columns[1])}`;
  // A method whose attention factor a is not 1 (YaRN) gets a second row divided by a²: its frequencies alone.
  const rows = [UNSCALED, ...METHODS].flatMap((m) => {
    const f = m.type === 'none' ? unscaled : scaled.get(m.type);
    const values = scores(lab, f, s.headDim, columns);
    const a2 = f.attentionFactor * f.attentionFactor;
    const row = scoreRow(m.type, m.label, values);
    return a2 === 1
      ? [row]
      : [
          row,
          scoreRow(
            `${m.type}-frequencies`,
            `${m.label} ÷ a²`,
            values.map((v) => v / a2),
          ),
        ];
  });
  $('scale-scores-body').replaceChildren(...rows);
  const factored = METHODS.filter((m) => scaled.get(m.type).attentionFactor !== 1);
  $('scale-scores-factor').textContent = factored
    .map((m) => {
      const a = scaled.get(m.type).attentionFactor;
      return `${m.label}’s scores include its attention factor, a² = ${(a * a).toFixed(3)}; the row “${m.label} ÷ a²” is its frequencies alone.`;
    })
    .join(' ');
}

function scoreRow(type, label, values) {
  const tr = document.createElement('tr');
  tr.dataset.method = type;
  tr.dataset.scores = JSON.stringify(values);
  const th = document.createElement('th');
  th.scope = 'row';
  th.textContent = label;
  tr.append(th, ...values.map((v) => Object.assign(document.createElement('td'), { textContent: readoutNumber(v) })));
  return tr;
}
