// Section 2: the token table as rows; a tiny GPT trains its token table end to end in a worker.
import { drawRows } from '../../draw/strips.js';
import { $, redrawOnResize } from '../../ui/dom.js';
import { divergenceMessage } from '../../training/divergence.js';
import { TrainingRow } from '../../workers/jobs_client.js';
import { checkOnChange, readNumberInput } from '../../ui/number_input.js';
import { FramePainter } from '../../ui/frame_painter.js';
import { fixed3, visibleWhitespace } from '../../ui/format.js';
import { drawScatter, PALETTE, reserveScatter } from '../../draw/plot.js';
import { vocabularyNotice } from '../../ui/vocabulary_notice.js';
import { initArms } from './arms.js';
import { drawGlove, freezeEarlySnapshot, initGlove } from './glove.js';
import { initTorchPanel, offerDownloads } from './torch.js';
import { KINDS, tokenRoles } from './token_roles.js';
import { MODEL_DEFAULTS } from '../../training/training.js';

const DIM = 16;
const MAX_ROWS = 16;
let ctx;
let row; // the training row: progress, status and error
let painter; // paints the run's progress and snapshots (paintRun)
let snapshot = null;
let labels = [];
let initial = null; // the step-0 snapshot of the current run
let saved = null; // model + optimizer state after the last job, for "Keep training"
const CONTINUE_STEPS = 300;
let sectionTokens = { ids: new Uint32Array(0), vocab: null }; // section 1's ids and their vocabulary

const COLOUR_NAMES = ['blue', 'orange', 'green', 'pink']; // PALETTE's first four, by kind
let roles = tokenRoles([]); // each label's role: a whole noun or verb, a piece of a word, or another token
const kindOf = (label) => roles.kindOf(label);

/** The scatter's key: nouns, verbs, the pieces of a split word (named with their word) when there are any, others. */
function pcaKey() {
  return roles.kinds.map((k) => ({ label: KINDS[k].many(roles), colour: PALETTE[k] }));
}

/** The first `n` distinct ids, in order of appearance (stops as soon as it has them). */
function firstDistinct(ids, n) {
  const seen = new Set();
  for (let i = 0; i < ids.length && seen.size < n; i++) {
    seen.add(ids[i]);
  }
  return [...seen];
}

let tableRequest = 0; // the latest showTable; an older one whose rows come later is dropped

/** The rows of section 1's first distinct ids, from the embedding worker (the table can be 200 019 × 16). */
async function showTable() {
  const { ids, vocab } = sectionTokens;
  const distinct = firstDistinct(ids, MAX_ROWS);
  const tokenizer = ctx.tokenizer;
  if (distinct.length === 0 || vocab !== ctx.tokenizerName || distinct.some((id) => id >= tokenizer.vocabSize)) {
    return; // section 1's ids of another vocabulary: its next 'tokens' event brings this one's
  }
  const request = ++tableRequest;
  const heatmap = $('embeddings-heatmap');
  heatmap.setAttribute('aria-busy', 'true');
  let rows;
  try {
    [rows] = await ctx.embeddingRun(DIM, 1, [{ op: 'lookup', ids: distinct }]);
  } catch (error) {
    if (request === tableRequest) {
      heatmap.removeAttribute('aria-busy');
      $('embeddings-caption').textContent = `The rows could not be computed: ${error.message}`;
    }
    return;
  }
  if (request !== tableRequest || tokenizer !== ctx.tokenizer) {
    return; // a newer request draws (a replaced trained tokenizer is disposed)
  }
  heatmap.removeAttribute('aria-busy');
  drawRows(
    heatmap,
    distinct.map((id, r) => ({
      label: `${visibleWhitespace(tokenizer.decode([id]))} → row ${id}`,
      values: rows.subarray(r * DIM, (r + 1) * DIM),
    })),
    DIM,
    2,
  );
  $('embeddings-caption').textContent =
    `The first ${distinct.length} distinct tokens of section 1’s text (${ids.length} tokens); each strip is the row its id selects in a ${tokenizer.vocabSize} × ${DIM} table, drawn normal with stddev 1, seed 1. That is the scale of rows drawn at stddev 1/√d and multiplied by √d, as the 2017 Transformer does (its reference code, tensor2tensor, draws the rows at 1/√d); GPT-2’s rows, normal with stddev 0.02, would be almost white here. Colour from −2 (blue) to +2 (orange).`;
  heatmap.setAttribute('aria-label', `Embedding rows of ids ${distinct.join(', ')}`);
  heatmap.dataset.ids = distinct.join(' ');
}

function drawSnapshot() {
  if (!snapshot) {
    return;
  }
  const { wte, step } = snapshot;
  const V = labels.length;
  const C = wte.length / V;
  const { projections } = ctx.lab.principalComponents(wte, V, C); // rows at (x, y) = projections[2i], [2i + 1]
  drawScatter(
    $('embeddings-pca'),
    labels.map((label, i) => ({
      x: projections[2 * i],
      y: projections[2 * i + 1],
      label: visibleWhitespace(label),
      name: `${visibleWhitespace(label)} (${KINDS[kindOf(label)].one})`,
      colour: PALETTE[kindOf(label)],
    })),
    { key: pcaKey() },
  );
  $('embeddings-step').textContent = `step ${step}`;
  // Nearest neighbour of each whole noun and verb (a piece of a word is no noun or verb on its own).
  const rows = [];
  labels.forEach((label, i) => {
    if (!roles.isWord(label)) {
      return;
    }
    const [{ row: best, cosine: bestCos }] = ctx.lab.nearestRows(wte, C, i, { k: 1 });
    const tr = document.createElement('tr');
    tr.insertCell().textContent = visibleWhitespace(label);
    tr.insertCell().textContent = visibleWhitespace(labels[best]);
    tr.insertCell().textContent = bestCos.toFixed(3);
    tr.dataset.same = String(kindOf(labels[best]) === kindOf(label));
    rows.push(tr);
  });
  $('embeddings-neighbours').replaceChildren(...rows);
  const same = rows.filter((r) => r.dataset.same === 'true').length;
  $('embeddings-pca').setAttribute(
    'aria-label',
    `PCA of ${V} token vectors at step ${step}; ${roles.kinds
      .map((k) => `${KINDS[k].many(roles)} ${COLOUR_NAMES[k]}`)
      .join(', ')}. ${same} of ${rows.length} nouns and verbs have a nearest neighbour of their own kind.`,
  );
  $('embeddings-neighbours').closest('table').dataset.sameKind = `${same}/${rows.length}`;
  drawGlove();
}

let progress = null; // the run's latest progress, not shown yet: {value, text}
let newSnapshot = false; // a snapshot came that the figures do not show yet

/** Shows the run's latest progress and snapshot (FramePainter: once a frame, while the section is near the screen). */
function paintRun() {
  if (progress) {
    row.progress.value = progress.value;
    row.status.textContent = progress.text;
    progress = null;
  }
  if (newSnapshot) {
    newSnapshot = false;
    drawSnapshot();
  }
}

/** The model the section shows and can keep training: put back when a run fails, so that nothing is lost. */
function keptModel() {
  const kept = { snapshot, initial, saved };
  return () => {
    ({ snapshot, initial, saved } = kept);
    $('embeddings-continue').disabled = !saved;
    drawSnapshot();
  };
}

/**
 * Starts a job ('train' from scratch, or 'resume' a saved model from its step `first`) and shows its snapshots. A
 * run whose loss diverges is rolled back to its last snapshot; a run that fails puts back the model from before it.
 */
async function run(type, steps, params, first = type === 'resume' ? snapshot.step : 0) {
  const restore = keptModel();
  const learningRate = params.options.learningRate;
  $('embeddings-continue').disabled = true;
  const every = Math.max(1, Math.floor(steps / 10));
  const done = await row.run(
    type,
    { encoding: 'r50k_base', positions: 'learned', steps, every, keep: true, ...params },
    (m) => {
      if (m.kind === 'data') {
        labels = m.labels;
        roles = tokenRoles(labels);
      } else if (m.kind === 'progress') {
        progress = { value: (m.step - first) / steps, text: `step ${m.step} of ${m.steps}, loss ${m.loss.toFixed(3)}` };
        painter.request();
      } else if (m.kind === 'snapshot') {
        snapshot = m;
        if (m.step === 0) {
          initial = m;
        }
        newSnapshot = true;
        painter.request();
        freezeEarlySnapshot(m);
      }
    },
  );
  painter.flush();
  if (!done) {
    if (row.status.dataset.state === 'error') {
      restore();
      row.error.textContent += ` The section shows the model from before this run${saved ? ', and “Keep training” goes on from it' : ''}.`;
    }
    return done;
  }
  saved = done.saved ?? null;
  $('embeddings-continue').disabled = !saved;
  offerDownloads(ctx, saved, snapshot.step);
  if (done.diverged) {
    row.diverged(
      `Diverged at step ${done.diverged.step}; rolled back to step ${snapshot.step}.`,
      divergenceMessage(done.diverged, learningRate),
    );
    row.status.dataset.steps = String(snapshot.step);
    return done;
  }
  // RMS of the trained entries: far below the 1 of the × √d scale, far above the 0.02 of GPT-2's start.
  const rms = ctx.lab.kernels.norm(snapshot.wte) / Math.sqrt(snapshot.wte.length);
  const rmsNote = $('embeddings-rms');
  rmsNote.textContent = `After ${snapshot.step} steps the entries of the token table have RMS ${fixed3(rms)}: up from 0.02 (GPT-2’s initialisation: normal, stddev 0.02), yet well below the stddev 1 of section 6’s × √d scale (rows drawn at 1/√d, times √d).`;
  rmsNote.dataset.rms = String(rms);
  rmsNote.dataset.step = String(snapshot.step);
  row.done(
    `Trained ${snapshot.step} steps; training loss on the last step’s batch (${MODEL_DEFAULTS.batch} windows of ${MODEL_DEFAULTS.contextLength} tokens) ${snapshot.loss.toFixed(3)} (r50k tokens, ${labels.length}-token vocabulary).`,
    { steps: String(snapshot.step) },
  );
  return done;
}

/** The learning rate of the section's runs, or null after saying why the input's value cannot be used. */
function learningRate() {
  return readNumberInput('embeddings-rate', 'Learning rate');
}

function train() {
  const steps = readNumberInput('embeddings-steps', 'Steps');
  const rate = learningRate();
  if (steps === null || rate === null) {
    return Promise.resolve(null);
  }
  return run('train', steps, { options: { learningRate: rate } });
}

function keepTraining() {
  const rate = learningRate();
  if (!saved || !snapshot || rate === null) {
    return;
  }
  return run('resume', CONTINUE_STEPS, { resume: saved, options: { learningRate: rate } });
}

/** Resolves once the page says it is ready (#main's data-state), which main.js sets after every first result. */
function pageReady() {
  const main = $('main');
  return new Promise((resolve) => {
    const check = () => main.dataset.state === 'ready' && (observer.disconnect(), resolve());
    const observer = new MutationObserver(check);
    observer.observe(main, { attributes: true, attributeFilter: ['data-state'] });
    check();
  });
}

/** Starts the section; resolves once its first numbers (computed in the embedding worker) are shown. */
export function init(context) {
  ctx = context;
  row = new TrainingRow('embeddings');
  painter = new FramePainter(paintRun, $('embeddings-pca'));
  vocabularyNotice(ctx, {
    id: 'embeddings-vocab-notice',
    where: 'section 2, token embeddings',
    before: $('embeddings-heatmap-figure'),
    effect:
      'the rows below are those of its token ids, in a table of its size (the tiny GPT further down keeps r50k_base: its corpus needs a fixed vocabulary)',
  });
  // Section 1 tokenizes in a worker and says when its ids (of its current vocabulary) are ready.
  $('tokenize-output').addEventListener('tokens', ({ detail }) => {
    sectionTokens = detail;
    requestAnimationFrame(showTable);
  });
  sectionTokens = $('tokenize-output').tokens ?? sectionTokens;
  reserveScatter($('embeddings-pca'), { key: pcaKey() }); // before the first snapshot: no shift when it comes
  $('embeddings-train').addEventListener('click', train);
  checkOnChange('embeddings-steps', 'Steps');
  checkOnChange('embeddings-rate', 'Learning rate');
  $('embeddings-continue').addEventListener('click', keepTraining);
  initTorchPanel(ctx, {
    vocabSize: () => labels.length,
    learningRate,
    continueFrom: (bytes, step, rate) =>
      run('resume', CONTINUE_STEPS, { resume: bytes, options: { learningRate: rate } }, step),
  });
  initGlove(ctx, () => ({ labels, snapshot, initial, roles }));
  redrawOnResize('embeddings', () => {
    showTable();
    drawSnapshot();
  });
  const first = showTable(); // its first results, from the embedding worker
  // The first run starts once the page has shown every section's first results (main.js marks #main
  // data-state="ready"): on two cores it would hold one of them while the other sections wait for theirs. The four
  // arms start when the reader comes near them, once that run is done.
  row.status.textContent = 'Trains once the page has loaded.';
  initArms(ctx, pageReady().then(train));
  return first;
}
