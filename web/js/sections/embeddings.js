// Section 2: the token table as rows; a tiny GPT trains its token table end to end in a worker.
import { drawRows } from '../canvas.js';
import { runJob } from '../jobs.js';
import { cosine, pca2 } from '../linalg.js';
import { drawScatter, PALETTE } from '../plot.js';

const $ = (id) => document.getElementById(id);
const DIM = 16;
const MAX_ROWS = 16;
let ctx;
let job = null;
let snapshot = null;
let labels = [];

const show = (s) => s.replace(/ /g, '␣');
const NOUNS = /^ ?(dog|man|cat|bird|child|horse|teacher|farmer)$/;
const VERBS = /^ ?(bites|sees|ch|ases|helps|feeds|follows)$/;
const kindOf = (label) => (NOUNS.test(label) ? 0 : VERBS.test(label) ? 1 : 2);

function showTable() {
  const ids = ($('tok-output').dataset.ids ?? '').split(' ').filter(Boolean).map(Number);
  const distinct = [...new Set(ids)].slice(0, MAX_ROWS);
  if (distinct.length === 0) return;
  const embedding = ctx.embedding(DIM, 1);
  const rows = embedding.lookup(distinct);
  const tokenizer = ctx.tokenizer;
  drawRows(
    $('emb-heatmap'),
    distinct.map((id, r) => ({ label: `${show(tokenizer.decode([id]))} → row ${id}`, values: rows.subarray(r * DIM, (r + 1) * DIM) })),
    DIM,
    2,
  );
  $('emb-caption').textContent = `The first ${distinct.length} distinct tokens of section 1’s text (${ids.length} tokens), each the row of its id in a ${tokenizer.vocabSize} × ${DIM} table (N(0, 1), seed 1). Colour from −2 (blue) to +2 (orange).`;
  $('emb-heatmap').setAttribute('aria-label', `Embedding rows of ids ${distinct.join(', ')}`);
  $('emb-heatmap').dataset.ids = distinct.join(' ');
}

function drawSnapshot() {
  if (!snapshot) return;
  const { wte, step } = snapshot;
  const V = labels.length;
  const C = wte.length / V;
  const coords = pca2(wte, V, C);
  drawScatter(
    $('emb-pca'),
    coords.map(([x, y], i) => ({ x, y, label: show(labels[i]), colour: PALETTE[kindOf(labels[i])] })),
  );
  $('emb-step').textContent = `step ${step}`;
  // Nearest neighbour of each noun and verb.
  const rows = [];
  const vec = (i) => wte.subarray(i * C, (i + 1) * C);
  labels.forEach((label, i) => {
    if (kindOf(label) === 2) return;
    let best = -1;
    let bestCos = -2;
    for (let j = 0; j < V; j++) {
      if (j === i) continue;
      const c = cosine(vec(i), vec(j));
      if (c > bestCos) (bestCos = c), (best = j);
    }
    const tr = document.createElement('tr');
    tr.insertCell().textContent = show(label);
    tr.insertCell().textContent = show(labels[best]);
    tr.insertCell().textContent = bestCos.toFixed(3);
    tr.dataset.same = String(kindOf(labels[best]) === kindOf(label));
    rows.push(tr);
  });
  $('emb-neighbours').replaceChildren(...rows);
  const same = rows.filter((r) => r.dataset.same === 'true').length;
  $('emb-pca').setAttribute('aria-label', `PCA of ${V} token vectors at step ${step}; nouns blue, verbs orange, other tokens green. ${same} of ${rows.length} nouns and verbs have a nearest neighbour of their own kind.`);
  $('emb-neighbours').closest('table').dataset.sameKind = `${same}/${rows.length}`;
}

async function train() {
  job?.cancel();
  const steps = Math.max(10, Math.min(2000, Number($('emb-steps').value) || 300));
  const status = $('emb-status');
  const progress = $('emb-progress');
  progress.value = 0;
  status.dataset.state = 'running';
  status.textContent = 'Loading…';
  $('emb-error').textContent = '';
  const current = runJob('train', { encoding: 'r50k_base', positions: 'learned', steps, every: Math.max(1, Math.floor(steps / 10)) }, (m) => {
    if (m.kind === 'data') labels = m.labels;
    else if (m.kind === 'progress') {
      progress.value = m.step / m.steps;
      status.textContent = `step ${m.step} of ${m.steps}, loss ${m.loss.toFixed(3)}`;
    } else if (m.kind === 'snapshot') {
      snapshot = m;
      drawSnapshot();
    }
  });
  job = current;
  try {
    const done = await current.done;
    if (!done) return;
    status.dataset.state = 'done';
    status.dataset.steps = String(steps);
    status.textContent = `Trained ${steps} steps; final loss ${snapshot.loss.toFixed(3)} (r50k tokens, ${labels.length}-token vocabulary).`;
  } catch (error) {
    status.dataset.state = 'error';
    $('emb-error').textContent = error.message;
  }
}

export function init(context) {
  ctx = context;
  ctx.onTokenizer(() => requestAnimationFrame(showTable));
  $('tok-text').addEventListener('input', () => requestAnimationFrame(showTable));
  $('emb-train').addEventListener('click', train);
  const observer = new ResizeObserver(() =>
    requestAnimationFrame(() => {
      showTable();
      drawSnapshot();
    }),
  );
  for (const canvas of document.querySelectorAll('#embeddings canvas')) observer.observe(canvas);
  showTable();
  train();
}
