// Section 6: two sentences, tokenized with section 1's vocabulary, a choice of positional encoding.
import { drawMatrix } from '../../draw/grids.js';
import { drawLegend } from '../../draw/legend.js';
import { drawStrips, stripsHeight } from '../../draw/strips.js';
import { ownScale } from '../../draw/colour.js';
import { $, headerCell, redrawOnColourScheme, redrawOnResize } from '../../ui/dom.js';
import { fixed3, gapText, visibleWhitespace } from '../../ui/format.js';
import { stepByStep } from '../../ui/tasks.js';
import { vocabularyNotice } from '../../ui/vocabulary_notice.js';
import { WorkerFailedError } from '../../workers/client.js';
import { scaleNoteText, settingsText, TOKEN_STDDEV, verdictText } from './text.js';

const MAX_TOKENS = 64; // maxLength of the encodings: positions 0..63
const SEEDS = { embedding: 1, learned: 2, attention: 3 };
const STRIP_RANGE = 2;
const COSINE_NOTE = 'Cosine from −1 (blue) through 0 (white) to +1 (orange).';
const OWN_NOTE = 'After attention the cosines can crowd together, so this matrix has a colour scale of its own.';

const els = {
  main: $('main'),
  controls: $('compare-controls'),
  a: $('compare-sentence-a'),
  b: $('compare-sentence-b'),
  dim: $('compare-dim'),
  vocab: $('compare-vocab'),
  results: $('compare-results'),
  pooledInput: $('compare-pooled-cosine-input'),
  pooledAttention: $('compare-pooled-cosine-attention'),
  gapInput: $('compare-gap-input'),
  gapAttention: $('compare-gap-attention'),
  verdict: $('compare-verdict'),
  settings: $('compare-settings'),
  error: $('compare-error'),
  scaleNote: $('compare-scale-note'),
  prefix: $('compare-prefix-space'),
  vocabName: $('compare-vocab-name'),
  vectorsA: $('compare-vectors-a'),
  vectorsB: $('compare-vectors-b'),
  simInput: $('compare-similarity-input'),
  simAttention: $('compare-similarity-attention'),
  tables: $('compare-similarity-tables'),
  norms: $('compare-norms'),
};

let lab = null;
let ctx = null;
let last = null; // the last successful computation, kept for redraws

function readState() {
  return {
    a: els.a.value,
    b: els.b.value,
    positions: document.querySelector('input[name="positions"]:checked')?.value ?? 'none',
    scale: document.querySelector('input[name="scale"]:checked')?.value ?? 'sqrt',
    dim: Number(els.dim.value),
    prefix: els.prefix.checked,
    tokenizer: ctx.tokenizerName,
  };
}

// ---- computation ------------------------------------------------------------------------------------------
class LearnerError extends Error {}

/** Tokenizes the two sentences here, and composes and compares them in the embedding worker. */
async function compute(state) {
  const tok = (text) =>
    text.trim() === '' ? [] : ctx.tokenizer.tokens(state.prefix && !/^\s/.test(text) ? ` ${text}` : text);
  const tokensA = tok(state.a);
  const tokensB = tok(state.b);
  renderVocabulary([...tokensA, ...tokensB]); // shown even when the inputs are refused below
  const idsA = tokensA.map((t) => t.id);
  const idsB = tokensB.map((t) => t.id);
  if (idsA.length === 0 || idsB.length === 0) {
    throw new LearnerError(`Type at least one word in sentence ${idsA.length === 0 ? 'A' : 'B'}.`);
  }
  const { dim, scale, positions } = state;
  // × √d: N(0, 1/√d) rows times √d, drawn directly as N(0, 1) (the same numbers up to rounding).
  const stddev = TOKEN_STDDEV[scale];
  // Learned positions start at the same scale as the token vectors, as in GPT-2 (wte and wpe are both small
  // at initialisation and grow together in training).
  const positional = { kind: positions, options: { dim, maxLength: MAX_TOKENS, seed: SEEDS.learned, stddev } };
  const attention = { dim, seed: SEEDS.attention };
  const [composedA, composedB, comparison] = await ctx.embeddingRun(dim, stddev, [
    { op: 'compose', ids: idsA, positional },
    { op: 'compose', ids: idsB, positional },
    { op: 'compare', idsA, idsB, positional, attention },
  ]);
  const words = [tokensA.map(label), tokensB.map(label)];
  const norms = (values) =>
    Array.from({ length: idsA.length }, (_, i) => lab.kernels.norm(values.subarray(i * dim, (i + 1) * dim)));
  return {
    norms: {
      token: norms(composedA.tokenVectors),
      position: norms(composedA.positionVectors),
      input: norms(composedA.inputVectors),
    },
    state,
    idsA,
    idsB,
    wordsA: words[0],
    wordsB: words[1],
    composedA,
    composedB,
    comparison,
  };
}

// ---- rendering ------------------------------------------------------------------------------------------------
const label = (t) => visibleWhitespace(t.text);

function renderVocabulary(tokens) {
  const seen = new Map();
  for (const t of tokens) {
    seen.set(t.id, label(t));
  }
  const items = [...seen].map(([id, text]) => {
    const li = document.createElement('li');
    const b = document.createElement('b');
    b.textContent = text;
    li.append(b, ` → ${id}`);
    return li;
  });
  els.vocab.replaceChildren(...items);
  els.vocabName.textContent = ctx.tokenizerName === 'trained' ? 'your trained vocabulary' : ctx.tokenizerName;
}

function tokensOf(words) {
  return words.map((word, position) => ({ word, position }));
}

function describeWords(words) {
  return words.map((w, i) => `${w} (position ${i})`).join(', ');
}

function draw(r) {
  figures(r).forEach((drawFigure) => drawFigure());
}

/** The figures of result r, each a function that draws one: the two sentences' strips, the two matrices. */
function figures(r) {
  const dim = r.state.dim;
  const strips = ([canvas, words, composed]) =>
    drawStrips(canvas, {
      tokens: tokensOf(words),
      dim,
      token: composed.tokenVectors,
      position: composed.positionVectors,
      input: composed.inputVectors,
      range: STRIP_RANGE,
    });
  const rowLabels = r.wordsA.map((w, i) => `${i} ${w}`);
  const colLabels = r.wordsB.map((w, i) => `${i} ${w}`);
  const { rows, cols } = r.comparison;
  const names = { rowLabels, colLabels, rowTitle: 'A', colTitle: 'B' };
  // After attention the cosines can crowd into a narrow band: a scale of the matrix's own range shows them apart.
  const after = r.comparison.attention.similarity;
  return [
    () => strips([els.vectorsA, r.wordsA, r.composedA]),
    () => strips([els.vectorsB, r.wordsB, r.composedB]),
    () => drawMatrix(els.simInput, { values: r.comparison.similarity, rows, cols, ...names, legend: COSINE_NOTE }),
    () => {
      drawMatrix(els.simAttention, { values: after, rows, cols, ...names, scale: ownScale(after), legend: OWN_NOTE });
      document.querySelectorAll('.legend-bar').forEach(drawLegend);
    },
  ];
}

function similarityTable(caption, values, rowLabels, colLabels) {
  const table = document.createElement('table');
  table.createCaption().textContent = caption;
  const head = table.createTHead().insertRow();
  head.append(headerCell('A \\ B'));
  for (const label of colLabels) {
    head.append(headerCell(label, 'col'));
  }
  const body = table.createTBody();
  rowLabels.forEach((label, r) => {
    const row = body.insertRow();
    row.append(headerCell(label, 'row'));
    colLabels.forEach((_, c) => {
      row.insertCell().textContent = fixed3(values[r * colLabels.length + c]);
    });
  });
  return table;
}

/** ‖token‖, ‖position‖ and ‖input‖ of each token of sentence A. */
function renderNorms(r) {
  const rows = r.wordsA.map((word, i) => {
    const tr = document.createElement('tr');
    tr.insertCell().textContent = String(i);
    tr.insertCell().textContent = word;
    for (const part of ['token', 'position', 'input']) {
      const cell = tr.insertCell();
      cell.className = 'num-cell';
      cell.dataset.part = part;
      cell.textContent = fixed3(r.norms[part][i]);
    }
    return tr;
  });
  els.norms.replaceChildren(...rows);
}

/** Shows result r; its figures each in a task of its own when `stepwise` (while current() holds). */
function render(r, stepwise = false, current = () => true) {
  const { comparison, state } = r;
  els.pooledInput.textContent = fixed3(comparison.pooledCosine);
  els.pooledAttention.textContent = fixed3(comparison.attention.pooledCosine);
  els.gapInput.textContent = gapText(comparison.pooledCosine);
  els.gapAttention.textContent = gapText(comparison.attention.pooledCosine);
  els.verdict.textContent = verdictText(r);
  els.settings.textContent = settingsText(state, SEEDS);
  els.error.textContent = '';
  const mean = (values) => values.reduce((x, y) => x + y, 0) / values.length;
  els.scaleNote.textContent = scaleNoteText(state, { token: mean(r.norms.token), position: mean(r.norms.position) });
  renderNorms(r);

  const rowLabels = r.wordsA.map((w, i) => `${i} ${w}`);
  const colLabels = r.wordsB.map((w, i) => `${i} ${w}`);
  els.tables.replaceChildren(
    similarityTable('Input vectors', comparison.similarity, rowLabels, colLabels),
    similarityTable('After one self-attention layer', comparison.attention.similarity, rowLabels, colLabels),
  );
  els.vectorsA.setAttribute(
    'aria-label',
    `Token, position and input vectors of sentence A: ${describeWords(r.wordsA)}`,
  );
  els.vectorsB.setAttribute(
    'aria-label',
    `Token, position and input vectors of sentence B: ${describeWords(r.wordsB)}`,
  );
  els.simInput.setAttribute(
    'aria-label',
    `Cosine similarity of input vectors, rows ${r.wordsA.join(' ')}, columns ${r.wordsB.join(' ')}; values in the tables below`,
  );
  els.simAttention.setAttribute(
    'aria-label',
    `Cosine similarity after self-attention, rows ${r.wordsA.join(' ')}, columns ${r.wordsB.join(' ')}; values in the tables below`,
  );

  // Strip canvases grow with the longer sentence (only when the learner types more words), A and B alike.
  const stripHeight = `${stripsHeight(Math.max(r.wordsA.length, r.wordsB.length))}px`;
  els.vectorsA.style.height = stripHeight;
  els.vectorsB.style.height = stripHeight;

  // Stable hooks for tests: what the numbers on screen were computed from.
  els.results.dataset.positions = state.positions;
  els.results.dataset.sentenceA = state.a;
  els.results.dataset.sentenceB = state.b;
  els.results.dataset.dim = String(state.dim);
  els.results.dataset.tokenizer = state.tokenizer;
  els.results.dataset.prefix = String(state.prefix);
  els.results.dataset.idsA = r.idsA.join(' ');
  els.results.dataset.idsB = r.idsB.join(' ');
  els.results.dataset.scale = state.scale;
  if (stepwise) {
    return stepByStep(figures(r), current);
  }
  draw(r);
  return undefined;
}

function renderError(error) {
  const ownMessage = error instanceof LearnerError || error instanceof WorkerFailedError;
  const message = ownMessage ? error.message : `The library refused these inputs: ${error.message}`;
  els.error.textContent = message;
  els.pooledInput.textContent = '—';
  els.pooledAttention.textContent = '—';
  els.gapInput.textContent = '\u00a0';
  els.gapAttention.textContent = '\u00a0';
  els.verdict.textContent = 'Fix the input above and the page recomputes at once.';
  delete els.results.dataset.positions;
}

let latest = 0; // the latest update; an older one whose results come later is dropped

/** Computes and shows the comparison; the first time (`stepwise`), each figure in a task of its own. */
async function update(stepwise = false) {
  if (!lab) {
    return;
  }
  const request = ++latest;
  const state = readState();
  els.results.setAttribute('aria-busy', 'true');
  try {
    const result = await compute(state);
    if (request !== latest) {
      return;
    }
    last = result;
    await render(result, stepwise, () => request === latest);
    if (request !== latest) {
      return; // a later update drew everything and keeps the section busy until its own results show
    }
  } catch (error) {
    if (request !== latest) {
      return;
    }
    if (!(error instanceof LearnerError) && !(error instanceof RangeError) && !(error instanceof TypeError)) {
      console.warn(error); // unexpected, but still shown to the learner below
    }
    renderError(error);
  }
  els.results.removeAttribute('aria-busy');
}

let frame = 0;
function scheduleUpdate() {
  if (frame) {
    return;
  }
  frame = requestAnimationFrame(() => {
    frame = 0;
    update();
  });
}

/** Starts the section; resolves once its first numbers (computed in the embedding worker) are shown. */
export function init(context) {
  ctx = context;
  lab = ctx.lab;
  vocabularyNotice(ctx, {
    id: 'compare-vocab-notice',
    where: 'section 6, token + position',
    before: els.controls,
    effect: 'both sentences are cut into its tokens, so the ids, the vectors and every number below come from it',
  });
  els.controls.addEventListener('input', scheduleUpdate);
  els.controls.addEventListener('change', scheduleUpdate);
  ctx.onTokenizer(scheduleUpdate);
  const redraw = () => last && draw(last);
  redrawOnResize('compare', redraw);
  redrawOnColourScheme(redraw);
  return update(true); // its first results, from the embedding worker
}
