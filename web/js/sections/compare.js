// The tutorial page: two sentences, a choice of positional encoding, everything computed live by embedlab.
import createEmbedLab from '../embedlab/index.js';
import { drawHeatmap, drawLegend, drawMatrix, drawStrips, heatmapLayout, stripsHeight } from './canvas.js';
import { fixed3, gapText } from './format.js';
import { buildVocabulary, isPermutation, sameSequence } from './vocab.js';

const MAX_TOKENS = 64; // maxLength of the encodings: positions 0..63
const VOCAB_CAPACITY = 512; // rows of the token table; a word's row depends only on its id and the seed
const SEEDS = { embedding: 1, learned: 2, attention: 3 };
const STRIP_RANGE = 2;

const $ = (id) => document.getElementById(id);
const els = {
  main: $('main'),
  controls: $('controls'),
  a: $('sentence-a'),
  b: $('sentence-b'),
  dim: $('dim'),
  vocab: $('vocab-list'),
  results: $('results'),
  pooledInput: $('pooled-cosine-input'),
  pooledAttention: $('pooled-cosine-attention'),
  gapInput: $('gap-input'),
  gapAttention: $('gap-attention'),
  verdict: $('verdict'),
  error: $('error'),
  scaleNote: $('scale-note'),
  pe: $('pe-heatmap'),
  peReadout: $('pe-readout'),
  vectorsA: $('vectors-a'),
  vectorsB: $('vectors-b'),
  simInput: $('similarity-input'),
  simAttention: $('similarity-attention'),
  tables: $('similarity-tables'),
  version: $('lab-version'),
  simdTarget: $('simd-target'),
  flavour: $('lab-flavour'),
};

let lab = null;
let last = null; // the last successful computation, kept for redraws
let cursor = null; // keyboard/pointer cursor on the PE heatmap

// ---- wasm handles: created on demand, the replaced one is disposed ------------------------------------
const handles = new Map();

function cached(name, key, create) {
  const entry = handles.get(name);
  if (entry && entry.key === key) return entry.handle;
  const handle = create(); // if this throws, the old handle stays usable
  entry?.handle.dispose();
  handles.set(name, { key, handle });
  return handle;
}

function readState() {
  return {
    a: els.a.value,
    b: els.b.value,
    positions: document.querySelector('input[name="positions"]:checked')?.value ?? 'none',
    scale: Number(document.querySelector('input[name="scale"]:checked')?.value ?? 1),
    dim: Number(els.dim.value),
  };
}

// ---- computation ------------------------------------------------------------------------------------------
class LearnerError extends Error {}

function compute(state) {
  const { vocab, ids, words } = buildVocabulary([state.a, state.b]);
  renderVocabulary(vocab); // shown even when the inputs are refused below
  const [idsA, idsB] = ids;
  if (idsA.length === 0 || idsB.length === 0) {
    throw new LearnerError(`Type at least one word in sentence ${idsA.length === 0 ? 'A' : 'B'}.`);
  }
  if (vocab.length > VOCAB_CAPACITY) {
    throw new LearnerError(`This page's vocabulary holds ${VOCAB_CAPACITY} words; your sentences use ${vocab.length}.`);
  }
  const { dim, scale, positions } = state;
  const embedding = cached('embedding', `${dim}/${scale}`, () =>
    lab.tokenEmbedding({ vocabSize: VOCAB_CAPACITY, dim, seed: SEEDS.embedding, stddev: scale }),
  );
  // Learned positions start at the same scale as the token vectors, as in GPT-2 (wte and wpe are both small
  // at initialisation and grow together in training).
  const positional = cached('positional', `${positions}/${dim}/${scale}`, () =>
    lab.positionalEncoding(positions, { dim, maxLength: MAX_TOKENS, seed: SEEDS.learned, stddev: scale }),
  );
  const sinusoid = cached('sinusoid', `${dim}`, () =>
    lab.positionalEncoding('sinusoidal', { dim, maxLength: MAX_TOKENS }),
  );
  const attention = cached('attention', `${dim}`, () => lab.selfAttention({ dim, seed: SEEDS.attention, causal: false }));

  const composedA = lab.compose(idsA, { embedding, positional });
  const composedB = lab.compose(idsB, { embedding, positional });
  const comparison = lab.compare(idsA, idsB, { embedding, positional, attention });
  return {
    state,
    vocab,
    idsA,
    idsB,
    wordsA: words[0],
    wordsB: words[1],
    composedA,
    composedB,
    comparison,
    peTable: sinusoid.table(MAX_TOKENS, 0),
  };
}

// ---- rendering ------------------------------------------------------------------------------------------------
function renderVocabulary(vocab) {
  const items = vocab.map((word, id) => {
    const li = document.createElement('li');
    const b = document.createElement('b');
    b.textContent = word;
    li.append(b, ` → ${id}`);
    return li;
  });
  els.vocab.replaceChildren(...items);
}

function verdictText(r) {
  const { positions, scale } = r.state;
  const att = r.comparison.attention.pooledCosine;
  const kind = positions === 'sinusoidal' ? 'sinusoidal' : 'learned';
  if (sameSequence(r.idsA, r.idsB)) {
    return 'Same words in the same order, so every number is 1.000. Swap two words in one sentence to meet the order problem.';
  }
  if (!isPermutation(r.idsA, r.idsB)) {
    return 'These sentences use different words, so they differ even without positions. The order problem is about reorderings: try “dog bites man” against “man bites dog”.';
  }
  if (positions === 'none') {
    return 'No positions: B is the same bag of vectors as A. Attention returns A’s outputs in another order, so the pooled vectors are identical: the model cannot tell who bit whom.';
  }
  if (fixed3(att) === '1.000') {
    return scale < 0.5
      ? `The ${kind} positions change the outputs, but by less than 3 decimals show: at stddev 0.02 the parts are badly balanced (see the strips below). Try unit scale.`
      : `The ${kind} positions change the outputs, but only slightly here. Try more dimensions or another pair of sentences.`;
  }
  return `With ${kind} positions a word at another place is a different input. The pooled inputs still match (both sentences add the same position vectors), but after one attention layer the sentences differ: order is visible.`;
}

function scaleNoteText(state) {
  if (state.scale < 0.5) {
    return 'Token vectors have GPT-2’s initial stddev of 0.02 here, so their strips are almost white. Sinusoid entries reach ±1, fifty times more: the input is nearly pure position and the words barely count. Learned positions start equally small.';
  }
  return 'Token vectors have stddev 1 here, about the scale of trained embeddings, and sinusoid entries lie in [−1, 1]. The parts have comparable size, so the input keeps both the word and its place. Learned positions start at the same scale.';
}

function tokensOf(words) {
  return words.map((word, position) => ({ word, position }));
}

function describeWords(words) {
  return words.map((w, i) => `${w} (position ${i})`).join(', ');
}

function draw(r) {
  const dim = r.state.dim;
  drawHeatmap(els.pe, {
    values: r.peTable,
    rows: MAX_TOKENS,
    cols: dim,
    range: 1,
    marks: [...new Set([r.idsA.length, r.idsB.length])].map((n) => ({ from: 0, to: Math.min(n, MAX_TOKENS) - 1 })),
    cursor,
  });
  for (const [canvas, words, composed] of [
    [els.vectorsA, r.wordsA, r.composedA],
    [els.vectorsB, r.wordsB, r.composedB],
  ]) {
    drawStrips(canvas, {
      tokens: tokensOf(words),
      dim,
      token: composed.tokenVectors,
      position: composed.positionVectors,
      input: composed.inputVectors,
      range: STRIP_RANGE,
    });
  }
  const rowLabels = r.wordsA.map((w, i) => `${i} ${w}`);
  const colLabels = r.wordsB.map((w, i) => `${i} ${w}`);
  const { rows, cols } = r.comparison;
  drawMatrix(els.simInput, { values: r.comparison.similarity, rows, cols, rowLabels, colLabels });
  drawMatrix(els.simAttention, { values: r.comparison.attention.similarity, rows, cols, rowLabels, colLabels });
  document.querySelectorAll('.legend-bar').forEach(drawLegend);
}

function similarityTable(caption, values, rowLabels, colLabels) {
  const table = document.createElement('table');
  table.createCaption().textContent = caption;
  const head = table.createTHead().insertRow();
  const corner = document.createElement('th');
  corner.textContent = 'A \\ B';
  head.append(corner);
  for (const label of colLabels) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = label;
    head.append(th);
  }
  const body = table.createTBody();
  rowLabels.forEach((label, r) => {
    const row = body.insertRow();
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = label;
    row.append(th);
    colLabels.forEach((_, c) => {
      row.insertCell().textContent = fixed3(values[r * colLabels.length + c]);
    });
  });
  return table;
}

function render(r) {
  const { comparison, state } = r;
  els.pooledInput.textContent = fixed3(comparison.pooledCosine);
  els.pooledAttention.textContent = fixed3(comparison.attention.pooledCosine);
  els.gapInput.textContent = gapText(comparison.pooledCosine);
  els.gapAttention.textContent = gapText(comparison.attention.pooledCosine);
  els.verdict.textContent = verdictText(r);
  els.error.textContent = '';
  els.scaleNote.textContent = scaleNoteText(state);

  const rowLabels = r.wordsA.map((w, i) => `${i} ${w}`);
  const colLabels = r.wordsB.map((w, i) => `${i} ${w}`);
  els.tables.replaceChildren(
    similarityTable('Input vectors', comparison.similarity, rowLabels, colLabels),
    similarityTable('After one self-attention layer', comparison.attention.similarity, rowLabels, colLabels),
  );
  els.vectorsA.setAttribute('aria-label', `Token, position and input vectors of sentence A: ${describeWords(r.wordsA)}`);
  els.vectorsB.setAttribute('aria-label', `Token, position and input vectors of sentence B: ${describeWords(r.wordsB)}`);
  els.simInput.setAttribute('aria-label', `Cosine similarity of input vectors, rows ${r.wordsA.join(' ')}, columns ${r.wordsB.join(' ')}; values in the tables below`);
  els.simAttention.setAttribute('aria-label', `Cosine similarity after self-attention, rows ${r.wordsA.join(' ')}, columns ${r.wordsB.join(' ')}; values in the tables below`);
  els.pe.setAttribute('aria-label', `Heatmap of the sinusoidal positional encoding: ${MAX_TOKENS} positions by ${state.dim} dimensions`);

  // Strip canvases grow with the longer sentence (only when the learner types more words), A and B alike.
  const stripHeight = `${stripsHeight(Math.max(r.wordsA.length, r.wordsB.length))}px`;
  els.vectorsA.style.height = stripHeight;
  els.vectorsB.style.height = stripHeight;
  if (cursor) cursor.col = Math.min(cursor.col, state.dim - 1);
  draw(r);
  updateReadout();

  // Stable hooks for tests: what the numbers on screen were computed from.
  els.results.dataset.positions = state.positions;
  els.results.dataset.sentenceA = state.a;
  els.results.dataset.sentenceB = state.b;
  els.results.dataset.dim = String(state.dim);
  els.results.dataset.scale = String(state.scale);
  els.main.dataset.state = 'ready';
}

function renderError(error) {
  const message = error instanceof LearnerError ? error.message : `The library refused these inputs: ${error.message}`;
  els.error.textContent = message;
  els.pooledInput.textContent = '—';
  els.pooledAttention.textContent = '—';
  els.gapInput.textContent = '\u00a0';
  els.gapAttention.textContent = '\u00a0';
  els.verdict.textContent = 'Fix the input above and the page recomputes at once.';
  delete els.results.dataset.positions;
  els.main.dataset.state = 'error';
}

function update() {
  if (!lab) return;
  const state = readState();
  try {
    const result = compute(state);
    last = result;
    render(result);
  } catch (error) {
    if (!(error instanceof LearnerError) && !(error instanceof RangeError) && !(error instanceof TypeError)) {
      console.warn(error); // unexpected, but still shown to the learner below
    }
    renderError(error);
  }
}

let frame = 0;
function scheduleUpdate() {
  if (frame) return;
  frame = requestAnimationFrame(() => {
    frame = 0;
    update();
  });
}

// ---- PE heatmap readout (pointer and keyboard) -------------------------------------------------------------
function updateReadout() {
  if (!last || !cursor) return; // keeps the instructions
  const { row, col } = cursor;
  const dim = last.state.dim;
  const i = Math.floor(col / 2);
  const fn = col % 2 === 0 ? 'sin' : 'cos';
  const value = last.peTable[row * dim + col];
  const wavelength = 2 * Math.PI * 10000 ** ((2 * i) / dim);
  els.peReadout.textContent = `PE(${row}, ${col}) = ${fn}(${row} / 10000^(${2 * i}/${dim})) = ${fixed3(value)}   · wavelength ${wavelength < 1000 ? wavelength.toFixed(1) : wavelength.toExponential(1)} positions`;
}

function moveCursor(row, col) {
  if (!last) return;
  cursor = {
    row: Math.max(0, Math.min(MAX_TOKENS - 1, row)),
    col: Math.max(0, Math.min(last.state.dim - 1, col)),
  };
  draw(last);
  updateReadout();
}

function wireHeatmap() {
  els.pe.addEventListener('pointermove', (event) => {
    if (!last) return;
    const rect = els.pe.getBoundingClientRect();
    const g = heatmapLayout(rect.width, rect.height, MAX_TOKENS, last.state.dim);
    const col = Math.floor((event.clientX - rect.left - g.left) / g.cellW);
    const row = Math.floor((event.clientY - rect.top - g.top) / g.cellH);
    if (col < 0 || row < 0 || col >= last.state.dim || row >= MAX_TOKENS) return;
    if (!cursor || cursor.row !== row || cursor.col !== col) moveCursor(row, col);
  });
  els.pe.addEventListener('keydown', (event) => {
    if (!last) return;
    const { row, col } = cursor ?? { row: 0, col: 0 };
    const moves = {
      ArrowUp: [row - 1, col],
      ArrowDown: [row + 1, col],
      ArrowLeft: [row, col - 1],
      ArrowRight: [row, col + 1],
      PageUp: [row - 8, col],
      PageDown: [row + 8, col],
      Home: [row, 0],
      End: [row, last.state.dim - 1],
    };
    if (!(event.key in moves)) return;
    event.preventDefault();
    moveCursor(...moves[event.key]);
  });
  els.pe.addEventListener('focus', () => {
    if (!cursor) moveCursor(0, 0);
  });
}

// ---- start ---------------------------------------------------------------------------------------------------
function wire() {
  els.controls.addEventListener('input', scheduleUpdate);
  els.controls.addEventListener('change', scheduleUpdate);
  wireHeatmap();
  const redraw = () => last && draw(last);
  const observer = new ResizeObserver(() => requestAnimationFrame(redraw));
  for (const canvas of document.querySelectorAll('main canvas')) observer.observe(canvas);
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', redraw);
}

async function start() {
  wire();
  try {
    // ?simd=off loads the fallback build (Highway EMU128), as an engine without SIMD128 would.
    const simd = new URLSearchParams(window.location.search).get('simd') === 'off' ? false : 'auto';
    lab = await createEmbedLab({ simd });
  } catch (error) {
    els.main.dataset.state = 'error';
    els.verdict.textContent = '';
    els.error.textContent = `The embedlab library could not be loaded: ${error.message}`;
    els.simdTarget.textContent = 'unavailable';
    return;
  }
  els.version.textContent = lab.version;
  els.simdTarget.textContent = lab.simdTarget;
  els.flavour.textContent = `(${lab.flavour === 'simd' ? 'WebAssembly SIMD128 build' : 'fallback build without SIMD'})`;
  update();
}

start();
