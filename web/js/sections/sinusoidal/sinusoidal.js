// Section 4: the sinusoidal formula with sliders; heatmap, waves, PE·PE matrix, the rotation property.
import { drawHeatmap, drawMatrix } from '../../draw/grids.js';
import { drawRows } from '../../draw/strips.js';
import { ownScale } from '../../draw/colour.js';
import { $, redrawOnColourScheme, redrawOnResize } from '../../ui/dom.js';
import { fixed3, scientific } from '../../ui/format.js';
import { nextTask, stepByStep } from '../../ui/tasks.js';
import { drawLines, PALETTE } from '../../draw/plot.js';
import { readoutNumber } from '../../draw/readout.js';
import { updateTerms } from './terms.js';
import { updateDerivation } from './derivation.js';
import { positionsText, updateWavelengths } from './wavelengths.js';

const ROWS = 64;
const DOTS = 32;
const CURVE_STEPS = 8; // samples per position of the waves' curves: about 50 a turn for the fastest pair
let ctx;
let last = null;
let encoding = null;
let encodingKey = '';

function readState() {
  return {
    dim: Number($('sinusoidal-dim').value),
    base: Math.round(10 ** Number($('sinusoidal-base').value)),
    p: Number($('sinusoidal-pos').value),
    k: Number($('sinusoidal-k').value),
  };
}

/** R_k · v for a sinusoidal vector v: each (sin, cos) pair turned by k·θ_i, from the formula alone. */
export function rotate(v, k, dim, base) {
  const out = new Float64Array(dim);
  for (let i = 0; i < dim / 2; i++) {
    const angle = k / base ** ((2 * i) / dim);
    const c = Math.cos(angle);
    const s = Math.sin(angle);
    const sinP = v[2 * i];
    const cosP = v[2 * i + 1];
    out[2 * i] = sinP * c + cosP * s; // sin(a + b)
    out[2 * i + 1] = cosP * c - sinP * s; // cos(a + b)
  }
  return out;
}

/** Computes what the figures show for the sliders' state, then shows it. */
function update() {
  compute();
  show();
}

/** The table, PE(p)·PE(q) and the rotation for the sliders' state, kept in `last`. */
function compute() {
  const state = readState();
  const { dim, base, p, k } = state;
  const key = `${dim}/${base}`;
  if (key !== encodingKey) {
    encoding?.dispose();
    encoding = ctx.lab.positionalEncoding('sinusoidal', { dim, base, maxLength: 128 });
    encodingKey = key;
  }
  const table = encoding.table(ROWS, 0);
  // PE(p)·PE(q): a dot kernel call per cell.
  const rowsPE = Array.from({ length: DOTS }, (_, q) => table.subarray(q * dim, (q + 1) * dim));
  const dots = new Float32Array(DOTS * DOTS);
  for (let a = 0; a < DOTS; a++) {
    for (let b = a; b < DOTS; b++) {
      // The kernel multiplies the same pairs in the same order either way: PE(q)·PE(p) is the same float.
      dots[a * DOTS + b] = dots[b * DOTS + a] = ctx.lab.kernels.dot(rowsPE[a], rowsPE[b]);
    }
  }
  let toeplitz = 0;
  for (let a = 0; a < DOTS; a++) {
    for (let b = 0; b < DOTS; b++) {
      toeplitz = Math.max(toeplitz, Math.abs(dots[a * DOTS + b] - dots[Math.abs(a - b)]));
    }
  }
  const pe = encoding.row(p);
  const target = encoding.row(p + k);
  const rotated = rotate(pe, k, dim, base);
  let residual = 0;
  for (let c = 0; c < dim; c++) {
    residual = Math.max(residual, Math.abs(rotated[c] - target[c]));
  }
  last = { state, table, dots, toeplitz, pe, target, rotated, residual };
}

/** The figures and notes of the last computation. */
function show() {
  draw();
  showNotes();
}

/** The notes and labels of the last computation. */
function showNotes() {
  const { state, toeplitz, pe, target, residual } = last;
  const { dim, base, p, k } = state;
  $('sinusoidal-dim-out').textContent = String(dim);
  $('sinusoidal-base-out').textContent = String(base);
  $('sinusoidal-pos-out').textContent = String(p);
  $('sinusoidal-k-out').textContent = String(k);
  $('sinusoidal-heatmap-dim').textContent = String(dim);
  $('sinusoidal-heatmap-base').textContent = String(base);
  $('sinusoidal-dots-note').textContent =
    `Each cell depends only on |p − q|: the largest difference between a cell and the cell of the first row at the same distance is ${toeplitz === 0 ? '0' : scientific(toeplitz)}. PE(p)·PE(p) = d/2 = ${dim / 2} (d = ${dim}, base ${base}).`;
  const out = $('sinusoidal-residual');
  out.textContent = `max |R${k}·PE(${p}) − PE(${p + k})| = ${residual === 0 ? '0' : scientific(residual)} over d = ${dim} dimensions, base ${base} (float32 rounding). PE(${p})·PE(${p + k}) = ${fixed3(ctx.lab.kernels.dot(pe, target))}.`;
  out.dataset.residual = String(residual);
  out.dataset.state = `${dim}/${base}/${p}/${k}`;
  updateTerms(ctx.lab, encoding, rotate, state);
  updateDerivation(encoding, state, textLength(p));
  updateWavelengths(encoding, state);
  $('sinusoidal-dots').setAttribute(
    'aria-label',
    `Matrix of dot products PE(p)·PE(q) for positions 0 to ${DOTS - 1}, d = ${dim}, base ${base}`,
  );
  $('sinusoidal-heatmap').setAttribute(
    'aria-label',
    `Heatmap of the sinusoidal encoding: ${ROWS} positions by ${dim} dimensions, base ${base}`,
  );
}

/**
 * The text length T of the share p / T, at least p + 1 (position p lies in a text of T tokens): the slider's low end
 * moves up with p, in its steps of 8, and a T below it is raised to it.
 */
function textLength(p) {
  const slider = $('sinusoidal-length');
  const lowest = 8 * Math.ceil((p + 1) / 8);
  slider.min = String(lowest);
  if (Number(slider.value) < lowest) {
    slider.value = String(lowest);
  }
  return Number(slider.value);
}

/** Sines of a fast pair, two in between and the slowest pair (every pair's wavelength: the table beside). */
function waveDims(dim) {
  return [...new Set([0, 2, 2 * Math.floor(dim / 4), dim - 2])].filter((c) => c >= 0 && c < dim);
}

function draw() {
  figures().forEach((drawFigure) => drawFigure());
}

/** The four figures of the last computation, each a function that draws one (none before the first). */
function figures() {
  if (!last) {
    return [];
  }
  const { state, table, dots, pe, target, rotated } = last;
  const { dim, p, k } = state;
  const heatmap = () =>
    drawHeatmap($('sinusoidal-heatmap'), {
      values: table,
      rows: ROWS,
      cols: dim,
      range: 1,
      marks: [{ from: p, to: p }],
      readout: $('sinusoidal-readout'), // the arrow keys and the pointer move its cursor (draw/readout.js)
      describe: (row, col, value) => peFormula(row, col, value, state),
      legend: 'Blue for negative, white for zero, orange for positive (readable with colour-blindness).',
    });
  const waves = () => {
    const cols = waveDims(dim);
    const fine = Array.from({ length: (ROWS - 1) * CURVE_STEPS + 1 }, (_, n) => n / CURVE_STEPS);
    drawLines(
      $('sinusoidal-waves'),
      cols.flatMap((c, n) => [
        // Between the integers, the formula (a position is an integer; the curve shows the wave it samples) ...
        { values: fine.map((x) => Math.sin(x / state.base ** (c / dim))), dx: 1 / CURVE_STEPS, colour: PALETTE[n] },
        // ... and at each integer position the library's value.
        {
          values: Array.from({ length: ROWS }, (_, r) => table[r * dim + c]),
          colour: PALETTE[n],
          line: false,
          dots: 2,
        },
      ]),
      { yMin: -1.05, yMax: 1.05, xLabel: 'position', markX: p },
    );
    $('sinusoidal-waves-note').textContent =
      `Dimensions ${cols.join(', ')} (sines; colours blue, orange, green, purple${cols.length < 4 ? ' as far as shown' : ''}): wavelengths ${cols
        .map((c) => positionsText(2 * Math.PI * state.base ** (c / dim)))
        .join(', ')} positions, the last the slowest pair’s. Dots: the library’s PE at each position; curves: the ` +
      `formula between them (d = ${dim}, base ${state.base}). The vertical dotted line marks p = ${p}.`;
  };
  const matrix = () => {
    const labels = Array.from({ length: DOTS }, (_, i) => String(i));
    drawMatrix($('sinusoidal-dots'), {
      values: dots,
      rows: DOTS,
      cols: DOTS,
      rowLabels: labels,
      colLabels: labels,
      rowTitle: 'p',
      colTitle: 'q',
      // Its own range: on ±d/2 the off-diagonal structure would fade into one colour.
      scale: ownScale(dots),
      legend: 'On ±d/2 the cells off the diagonal would fade into one colour: this matrix has a scale of its own.',
    });
  };
  const rotation = () =>
    drawRows(
      $('sinusoidal-rotation'),
      [
        { label: `PE(${p})`, values: pe },
        { label: `R${k} · PE(${p})`, values: Float32Array.from(rotated) },
        { label: `PE(${p + k})`, values: target },
        { label: 'residual ×10⁵', values: Float32Array.from(rotated, (v, c) => (v - target[c]) * 1e5) },
      ],
      dim,
      1,
    );
  return [heatmap, waves, matrix, rotation];
}

/** Readout of one heatmap cell: the formula with its numbers, the value and the wavelength of its pair. */
function peFormula(row, col, value, { dim, base }) {
  const i = Math.floor(col / 2);
  const fn = col % 2 === 0 ? 'sin' : 'cos';
  const wavelength = 2 * Math.PI * base ** ((2 * i) / dim);
  return `PE(${row}, ${col}) = ${fn}(${row} / ${base}^(${2 * i}/${dim})) = ${readoutNumber(value)}   · position ${row}, dimension ${col}, wavelength ${positionsText(wavelength)} positions`;
}

/** Starts the section; resolves once its figures are drawn, a task after their numbers are computed. */
export async function init(context) {
  ctx = context;
  document.querySelector('#sinusoidal .sliders').addEventListener('input', update);
  $('sinusoidal-length').addEventListener('input', update);
  redrawOnResize('sinusoidal', draw);
  redrawOnColourScheme(draw);
  compute();
  await nextTask();
  // Each figure in a task of its own; once the sliders moved, update() has shown everything anew.
  const first = last;
  await stepByStep([...figures(), showNotes], () => last === first);
}
