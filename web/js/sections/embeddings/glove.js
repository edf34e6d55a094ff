// Section 2, the GloVe fold: a GloVe file (the learner's, or an export of the live table) is the
// frozen side of a table of nearest neighbours, next to the model's table at step 0 and now. Files are read and
// parsed in a worker (workers/glove.js) with progress; one that fails says what is wrong and on which line, and the
// last file that loaded stays in use.
import { $ } from '../../ui/dom.js';
import { fixed3 } from '../../ui/format.js';
import { gloveText, liveNearest, neighboursText, wordsOf } from './glove_text.js';
import { WorkerClient } from '../../workers/client.js';
import { PIECE } from './token_roles.js';

const worker = new WorkerClient(new URL('../../workers/glove.js', import.meta.url), 'the GloVe worker');
let ctx;
let model; // () => {labels, snapshot, initial, roles (token_roles.js)}: the section's model
let frozen = null; // {summary: {count, dim, rows: Map word → {neighbours, vector}}, source, words: the words asked for}
let freezing = 0; // latest freeze request (an older one that finishes later is dropped)
let autoFreeze = true; // the first run freezes an early step unless the learner loaded a file first
let exported = null; // {text, step, url}

/** The model's nouns and verbs, and the pieces of a split one, that have a GloVe word: [{i: row, word, piece}]. */
function modelWords() {
  const { labels, roles } = model();
  const words = wordsOf(labels);
  return labels.flatMap((label, i) => {
    const piece = roles.kindOf(label) === PIECE;
    return (roles.isWord(label) || piece) && words[i] !== null ? [{ i, word: words[i], piece }] : [];
  });
}

/** Word, frozen neighbours, live neighbours at step 0 and now, cos(frozen, live): one row per noun and verb. */
export function drawGlove() {
  const { labels, snapshot, initial } = model();
  if (!snapshot) {
    return;
  }
  const words = wordsOf(labels);
  const C = snapshot.wte.length / labels.length;
  const file = frozen?.summary;
  if (
    frozen &&
    frozen.words !==
      modelWords()
        .map(({ word }) => word)
        .join(' ')
  ) {
    refreshSummary(); // the file came before the model's words: ask for theirs
  }
  const rows = [];
  const cosines = [];
  const known = { words: 0, pieces: 0 };
  const listed = { words: 0, pieces: 0 };
  for (const { i, word, piece } of modelWords()) {
    const kind = piece ? 'pieces' : 'words';
    listed[kind]++;
    const tr = document.createElement('tr');
    tr.dataset.word = word;
    tr.insertCell().textContent = word;
    const frozenCell = tr.insertCell();
    frozenCell.dataset.col = 'frozen';
    const entry = file?.rows.get(word);
    if (!file) {
      frozenCell.textContent = '—';
    } else if (!entry) {
      ((frozenCell.textContent = 'not in the file'), frozenCell.classList.add('muted'));
    } else {
      known[kind]++;
      frozenCell.textContent = entry.neighbours ? neighboursText(entry.neighbours) : '—';
    }
    const early = tr.insertCell();
    early.dataset.col = 'early';
    early.textContent = initial ? neighboursText(liveNearest(ctx.lab, words, initial.wte, i)) : '—';
    const now = tr.insertCell();
    now.dataset.col = 'live';
    now.textContent = neighboursText(liveNearest(ctx.lab, words, snapshot.wte, i));
    const cos = tr.insertCell();
    cos.dataset.col = 'cosine';
    cos.className = 'num-cell';
    if (entry && file.dim === C) {
      const c = ctx.lab.kernels.cosine(entry.vector, snapshot.wte.subarray(i * C, (i + 1) * C));
      cosines.push(c);
      cos.textContent = fixed3(c);
    } else {
      cos.textContent = '—';
      if (entry) {
        cos.title = `the file has ${file.dim} dimensions, the model ${C}`;
      }
    }
    rows.push(tr);
  }
  $('embeddings-glove-rows').replaceChildren(...rows);
  $('embeddings-glove-early').textContent = `step ${initial?.step ?? 0}`;
  $('embeddings-glove-now').textContent = `step ${snapshot.step}`;
  if (!frozen) {
    return;
  }
  const status = $('embeddings-glove-status');
  const { splits } = model().roles;
  const pieces =
    listed.pieces > 0
      ? ` and ${known.pieces} of the ${listed.pieces} pieces of ${splits.map(({ word }) => `“${word}”`).join(', ')}`
      : '';
  let text = `Frozen file: ${frozen.source}, ${file.count} words × ${file.dim}. ${known.words} of the model’s ${listed.words} nouns and verbs${pieces} are in it.`;
  if (cosines.length > 0) {
    const mean = cosines.reduce((a, b) => a + b, 0) / cosines.length;
    text += ` Mean cos(frozen, live) at step ${snapshot.step}: ${fixed3(mean)}.`;
    status.dataset.mean = fixed3(mean);
  } else {
    delete status.dataset.mean;
    if (known.words + known.pieces > 0) {
      text += ` Its ${file.dim} dimensions are not the model’s ${C}, so only neighbours compare.`;
    }
  }
  status.textContent = text;
  status.dataset.state = 'loaded';
  status.dataset.words = String(file.count);
}

async function refreshSummary() {
  const words = modelWords().map(({ word }) => word);
  const asked = frozen;
  asked.words = words.join(' '); // asked once
  try {
    const summary = await worker.request({ op: 'summary', words });
    if (frozen === asked) {
      frozen.summary = { ...summary, rows: new Map(summary.rows) };
      drawGlove();
    }
  } catch (error) {
    $('embeddings-glove-error').textContent = `${frozen.source}: ${error.message}`;
  }
}

const SHOWN_FROM_BYTES = 1 << 22; // smaller files load at once: a note that flashes would only shift the page

/** Shows where the load of a large file is: bytes read, then parsing (which reports no fraction). */
function showProgress(name, { phase, done, total }) {
  if (total < SHOWN_FROM_BYTES) {
    return;
  }
  const loading = $('embeddings-glove-loading');
  const bar = $('embeddings-glove-progress');
  const mib = (bytes) => (bytes / 2 ** 20).toFixed(1);
  loading.hidden = false;
  loading.dataset.phase = phase;
  if (phase === 'reading') {
    bar.value = done / total;
    $('embeddings-glove-loading-text').textContent = `Reading ${name}: ${mib(done)} of ${mib(total)} MiB…`;
  } else {
    bar.removeAttribute('value'); // parsing has no fraction to show
    $('embeddings-glove-loading-text').textContent = `Parsing ${name} (${mib(total)} MiB)…`;
  }
}

/** Reads and parses a GloVe file (text or File) in the worker and makes it the frozen side of the table. */
async function freeze(source, name) {
  const request = ++freezing;
  $('embeddings-glove-error').textContent = '';
  const file = typeof source === 'string' ? new Blob([source], { type: 'text/plain' }) : source;
  const words = modelWords().map(({ word }) => word);
  const loading = $('embeddings-glove-loading');
  loading.dataset.name = name;
  try {
    const summary = await worker.request(
      { op: 'load', file, words },
      { onProgress: (p) => request === freezing && showProgress(name, p) },
    );
    if (request !== freezing) {
      return;
    }
    frozen = { summary: { ...summary, rows: new Map(summary.rows) }, source: name, words: words.join(' ') };
    drawGlove();
  } catch (error) {
    if (request !== freezing) {
      return;
    }
    const status = $('embeddings-glove-status');
    status.dataset.state = frozen ? 'loaded' : 'error'; // the last file that loaded stays in use
    const kept = frozen ? ` The frozen side is still ${frozen.source}.` : '';
    $('embeddings-glove-error').textContent = `${name}: ${error.message.replace(/\.$/, '')}.${kept}`;
  } finally {
    if (request === freezing) {
      loading.hidden = true;
    }
  }
}

/** Freezes the first snapshot after step 0, unless the learner loaded a file before it came. */
export function freezeEarlySnapshot(snapshot) {
  if (autoFreeze && !frozen && snapshot.step > 0) {
    autoFreeze = false;
    freeze(
      gloveText(ctx.lab, model().labels, snapshot.wte),
      `automatic frozen copy of step ${snapshot.step} (exported as GloVe text)`,
    );
  }
}

function exportVectors() {
  const { labels, snapshot } = model();
  if (!snapshot) {
    return;
  }
  const text = gloveText(ctx.lab, labels, snapshot.wte);
  if (exported) {
    URL.revokeObjectURL(exported.url);
  }
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  exported = { text, step: snapshot.step, url };
  const name = `embedlab-step-${snapshot.step}.txt`;
  const link = $('embeddings-glove-download');
  link.href = url;
  link.download = name;
  link.textContent = `Download ${name} (${text.split('\n').length - 1} words × ${snapshot.wte.length / labels.length})`;
  link.hidden = false;
  $('embeddings-glove-freeze').hidden = false;
  $('embeddings-glove-freeze').dataset.step = String(snapshot.step);
}

/** Wires the panel; `sectionModel()` returns {labels, snapshot, initial, roles} of the section's model. */
export function initGlove(context, sectionModel) {
  ctx = context;
  model = sectionModel;
  $('embeddings-glove-export').addEventListener('click', exportVectors);
  $('embeddings-glove-freeze').addEventListener('click', () => {
    if (exported) {
      freeze(exported.text, `your export of step ${exported.step}`);
    }
  });
  $('embeddings-glove-file').addEventListener('change', () => {
    const file = $('embeddings-glove-file').files?.[0];
    if (!file) {
      return;
    }
    autoFreeze = false;
    freeze(file, file.name);
  });
}
