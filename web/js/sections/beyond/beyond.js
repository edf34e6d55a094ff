// Section 7: RoPE (scores depend only on the offset), ALiBi biases per head, NoPE with a causal mask,
// and the extrapolation race (race.js: the long-context experiment in parallel workers).
import { drawMatrix } from '../../draw/grids.js';
import { paintScaleBar } from '../../draw/legend.js';
import { sequentialScale } from '../../draw/colour.js';
import { RACE_OPTIONS, RACE_ROPE_BASE } from '../../race/plan.js';
import { showScalings } from './rope_scalings.js';
import { $, headerCell, redrawOnResize } from '../../ui/dom.js';
import { fixed3, scientific, subscript } from '../../ui/format.js';
import { drawLines, PALETTE } from '../../draw/plot.js';
import { showKey } from '../../draw/legend.js';
import { vocabularyNotice } from '../../ui/vocabulary_notice.js';
import { nextTask, stepByStep } from '../../ui/tasks.js';
import * as race from './race.js';

let ctx;

// ---- RoPE ------------------------------------------------------------------------------------------------
const ROPE_DIM = 16;
const ROPE_POSITIONS = 48;
let qk = null;
let sinusoid = null;
const ADDED_COLOUR = '#999999'; // the sinusoids-added score, grey beside RoPE's blue

function updateRope() {
  const lab = ctx.lab;
  const offset = Number($('beyond-rope-offset').value);
  $('beyond-rope-offset-out').textContent = String(offset);
  const q = qk.subarray(0, ROPE_DIM);
  const k = qk.subarray(ROPE_DIM, 2 * ROPE_DIM);
  const ropeScores = [];
  const addScores = [];
  const peScores = []; // PE(m)·PE(n) alone: the part of the grey score that involves no content
  for (let m = 0; m < ROPE_POSITIONS; m++) {
    const n = m - offset;
    if (n < 0) {
      ropeScores.push(NaN);
      addScores.push(NaN);
      continue;
    }
    ropeScores.push(lab.kernels.dot(lab.ropeRotate(q, m), lab.ropeRotate(k, n))); // the model's RoPE
    addScores.push(lab.kernels.dot(lab.kernels.add(q, sinusoid.row(m)), lab.kernels.add(k, sinusoid.row(n))));
    peScores.push(lab.kernels.dot(sinusoid.row(m), sinusoid.row(n)));
  }
  const spreadOf = (values) => {
    const valid = values.filter(Number.isFinite);
    return Math.max(...valid) - Math.min(...valid);
  };
  const valid = ropeScores.filter(Number.isFinite);
  const spread = spreadOf(ropeScores);
  const addSpread = spreadOf(addScores);
  const peSpread = spreadOf(peScores);
  const canvas = $('beyond-rope-plot');
  drawLines(
    canvas,
    [
      { values: addScores, colour: ADDED_COLOUR, dash: [5, 3] },
      { values: ropeScores, colour: PALETTE[0], width: 3 },
    ],
    { xLabel: 'query position m (key at m − offset)' },
  );
  showKey(canvas, [
    { label: 'RoPE: (Rₘq)·(Rₙk)', colour: PALETTE[0] },
    { label: 'sinusoids added (dashed): (q + PE(m))·(k + PE(n))', colour: ADDED_COLOUR },
  ]);
  // (R_m q)·(R_n k) = q·R_{n−m} k = (R_{m−n} q)·k: one rotation by the offset, at no position in particular.
  const relative = lab.kernels.dot(lab.ropeRotate(q, offset), k);
  const out = $('beyond-rope-result');
  const small = (x) => (x === 0 ? '0' : scientific(x));
  out.textContent = `RoPE: (Rₘq)·(Rₙk) = ${fixed3(valid[0])} at every query position ${offset}…${ROPE_POSITIONS - 1} (max − min = ${small(spread)}), and (R${subscript(offset)}q)·k = ${fixed3(relative)}: only the offset matters. Added sinusoids instead: the score ranges over ${addSpread.toFixed(2)}. Not because of PE(m)·PE(n) alone, which depends only on m − n (max − min = ${small(peSpread)} here), but because of the cross terms q·PE(n) + PE(m)·k, which depend on each position.`;
  out.dataset.score = String(valid[0]);
  out.dataset.relative = String(relative);
  out.dataset.spread = String(spread);
  out.dataset.peSpread = String(peSpread);
  out.dataset.offset = String(offset);
}

// ---- ALiBi -----------------------------------------------------------------------------------------------
/**
 * Press et al.'s rule for head h of H, as text: 2^(−8h/n) for the n = 2^⌊log₂ H⌋ first heads, then every other
 * slope of 2n heads. Only the label: the slope itself comes from the library.
 */
export function alibiRule(h, H) {
  const n = 2 ** Math.floor(Math.log2(H));
  return h <= n ? `2^(−8·${h}/${n})` : `2^(−8·${2 * (h - n) - 1}/${2 * n})`;
}

function alibiRuleText(H) {
  const n = 2 ** Math.floor(Math.log2(H));
  if (n === H) {
    return `H = ${H} is a power of two: m_h = 2^(−8h/${H}) for h = 1…${H}.`;
  }
  const odd = Array.from({ length: H - n }, (_, i) => 2 * i + 1).join(', ');
  const rest = n + 1 === H ? `head ${H} takes the first slope` : `heads ${n + 1}–${H} take every other slope`;
  return `H = ${H} is not a power of two: heads 1–${n} take the slopes of ${n} heads, 2^(−8h/${n}); ${rest} of ${2 * n} heads, 2^(−8h/${2 * n}) for h = ${odd}.`;
}

// Every head on one scale: attention weights run from 0 to 1 whatever the slope.
const WEIGHT_SCALE = sequentialScale(0, 1);

/** Head h's attention weights when every key scores alike: row i is softmax over j ≤ i of −m·(i − j). */
function alibiWeights(m, L) {
  const values = new Float32Array(L * L).fill(NaN);
  for (let i = 0; i < L; i++) {
    let sum = 0;
    for (let j = 0; j <= i; j++) {
      sum += Math.exp(-m * (i - j));
    }
    for (let j = 0; j <= i; j++) {
      values[i * L + j] = Math.exp(-m * (i - j)) / sum;
    }
  }
  return values;
}

/** The colour bars of the ALiBi weights and of the race's passkey shares: both 0 to 1 on WEIGHT_SCALE. */
function drawWeightScales() {
  paintScaleBar($('beyond-alibi-scale'), WEIGHT_SCALE);
  paintScaleBar($('beyond-race-passkey-scale'), WEIGHT_SCALE);
}

let alibiDrawings = 0; // every drawing of the heads counts: a first drawing in steps stops once a later one began

function updateAlibi() {
  alibiDrawings++;
  alibiSteps().forEach((draw) => draw());
}

/**
 * The ALiBi heads and table at the sliders' settings: builds them and returns the drawing of each head's figure and of
 * the colour bars, a function each (the grid's data-state says the last one ran).
 */
function alibiSteps() {
  const H = Number($('beyond-alibi-heads').value);
  const L = Number($('beyond-alibi-len').value);
  $('beyond-alibi-heads-out').textContent = String(H);
  $('beyond-alibi-len-out').textContent = String(L);
  const grid = $('beyond-alibi-grid');
  const slopes = ctx.lab.alibiSlopes(H); // the model's slopes, head h at slopes[h − 1]
  const labels = Array.from({ length: L }, (_, i) => String(i));
  const figures = [];
  const head = document.createElement('tr');
  for (const text of ['head h', 'rule', 'slope m_h', ...labels.map((l) => `key ${l}`)]) {
    head.append(headerCell(text, 'col'));
  }
  const body = [];
  for (let h = 1; h <= H; h++) {
    const m = slopes[h - 1];
    const figure = document.createElement('figure');
    figure.className = 'figure alibi-head';
    const caption = document.createElement('figcaption');
    caption.textContent = `head ${h}: m = 1/${(1 / m).toFixed(m > 0.01 ? 2 : 0).replace(/\.00$/, '')}`;
    const canvas = document.createElement('canvas');
    canvas.className = 'matrix small-matrix';
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', `ALiBi attention weights of head ${h}, slope ${m}`);
    canvas.id = `beyond-alibi-head-${h}`;
    canvas.dataset.testid = canvas.id;
    figure.append(caption, canvas);
    figures.push({ figure, canvas, values: alibiWeights(m, L) });
    const tr = document.createElement('tr');
    tr.insertCell().textContent = String(h);
    tr.insertCell().textContent = alibiRule(h, H);
    tr.insertCell().textContent = m.toPrecision(4);
    for (let j = 0; j < L; j++) {
      const bias = -m * (L - 1 - j);
      tr.insertCell().textContent = (bias === 0 ? 0 : bias).toFixed(4);
    }
    tr.dataset.head = String(h);
    body.push(tr);
  }
  grid.replaceChildren(...figures.map((f) => f.figure));
  $('beyond-alibi-thead').replaceChildren(head);
  $('beyond-alibi-tbody').replaceChildren(...body);
  $('beyond-alibi-rule').textContent = alibiRuleText(H);
  const drawHead = (f) => () =>
    drawMatrix(f.canvas, {
      values: f.values,
      rows: L,
      cols: L,
      rowLabels: labels,
      colLabels: labels,
      scale: WEIGHT_SCALE,
      rowTitle: 'query',
      colTitle: 'key',
      legend: false, // the one legend under the grid
      compact: true,
    });
  return [
    ...figures.map(drawHead),
    () => {
      drawWeightScales();
      grid.dataset.state = `${H}/${L}`;
    },
  ];
}

// ---- NoPE ------------------------------------------------------------------------------------------------
const NOPE_SEEDS = [4, 5, 6, 7, 8];

let nopeRequest = 0; // the latest updateNope; an older one whose results come later is dropped

async function updateNope() {
  const request = ++nopeRequest;
  const note = $('beyond-nope-note');
  try {
    const tok = ctx.tokenizer;
    const a = tok.encode(' dog bites man');
    const b = tok.encode(' man bites dog');
    // A random head (seed 3) with and without the mask; then the same over other heads: the claim must not rest on
    // seed 3.
    const heads = [3, ...NOPE_SEEDS].flatMap((seed) => [false, true].map((causal) => ({ seed, causal })));
    note.setAttribute('aria-busy', 'true');
    const results = await ctx.embeddingRun(
      32,
      1,
      heads.map(({ seed, causal }) => ({
        op: 'compare',
        idsA: a,
        idsB: b,
        positional: null,
        attention: { dim: 32, seed, causal },
      })),
    );
    if (request !== nopeRequest) {
      return;
    }
    note.removeAttribute('aria-busy');
    const pooled = (seed, causal) =>
      results[heads.findIndex((h) => h.seed === seed && h.causal === causal)].attention.pooledCosine;
    $('beyond-nope-bi').textContent = fixed3(pooled(3, false));
    $('beyond-nope-causal').textContent = fixed3(pooled(3, true));
    $('beyond-nope-causal').dataset.value = String(pooled(3, true));
    $('beyond-nope-bi').dataset.value = String(pooled(3, false));
    const others = NOPE_SEEDS.map((seed) => [pooled(seed, false), pooled(seed, true)]);
    const causalOthers = others.map(([, c]) => c);
    const biWorst = Math.max(...others.map(([x]) => Math.abs(1 - x)));
    note.textContent = `“␣dog␣bites␣man” against “␣man␣bites␣dog” (${ctx.tokenizerName === 'trained' ? 'your vocabulary' : ctx.tokenizerName}), d = 32, a random head (seed 3), no positional encoding. With the mask the pooled vectors differ: the mask alone leaks order. Over ${NOPE_SEEDS.length} other random heads (seeds ${NOPE_SEEDS[0]}–${NOPE_SEEDS.at(-1)}): bidirectional ${fixed3(1 - biWorst)} every time; causal ${fixed3(Math.min(...causalOthers))} to ${fixed3(Math.max(...causalOthers))}.`;
    note.dataset.causal = causalOthers.join(' ');
  } catch (error) {
    if (request === nopeRequest) {
      note.removeAttribute('aria-busy');
      note.textContent = error.message;
    }
  }
}

/**
 * Starts the section, each figure in a task of its own; resolves once its first numbers (computed in the embedding
 * worker) are shown.
 */
export async function init(context) {
  ctx = context;
  const table = ctx.lab.tokenEmbedding({ vocabSize: 2, dim: ROPE_DIM, seed: 5, stddev: 1 });
  qk = table.table();
  table.dispose();
  sinusoid = ctx.lab.positionalEncoding('sinusoidal', { dim: ROPE_DIM, maxLength: 64 });
  $('beyond-rope-offset').addEventListener('input', updateRope);
  $('beyond-alibi-heads').addEventListener('input', updateAlibi);
  $('beyond-alibi-len').addEventListener('input', updateAlibi);
  vocabularyNotice(ctx, {
    id: 'beyond-vocab-notice',
    where: 'section 7, NoPE',
    before: $('beyond-nope-scores'),
    effect: 'the two sentences below are cut into its tokens (the race further down uses none of it: its own tokens)',
  });
  ctx.onTokenizer(updateNope);
  redrawOnResize('beyond', () => {
    updateRope();
    drawWeightScales();
  });
  const first = updateNope(); // its first results, from the embedding worker
  // Each figure in a task of its own. The sliders redraw their figure whole: the steps left once one moved stop.
  updateRope();
  await nextTask();
  const alibi = ++alibiDrawings;
  await stepByStep(alibiSteps(), () => alibi === alibiDrawings);
  await nextTask();
  showScalings(ctx.lab, {
    headDim: RACE_OPTIONS.channels / RACE_OPTIONS.heads,
    base: RACE_ROPE_BASE,
    T: RACE_OPTIONS.trainLength,
    L: RACE_OPTIONS.trainLength * RACE_OPTIONS.factors.at(-1),
  });
  await nextTask();
  race.init(ctx.lab);
  return first;
}
