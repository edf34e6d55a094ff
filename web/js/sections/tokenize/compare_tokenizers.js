// Section 1's comparison: the text of the box under eight tokenizers side by side (its count as a bar, its first
// tokens, the vocabulary's size and, for the open models, their licence), and the sample texts' tokens per word
// (tokens_per_word.js). Every count comes from the comparison worker (workers/tokenizer_comparison.js). The open
// models' vocabularies are fetched when the reader picks one, with progress; OpenAI's when the figure comes near.
import { $ } from '../../ui/dom.js';
import { grouped, visibleWhitespace } from '../../ui/format.js';
import { WorkerClient } from '../../workers/client.js';
import { huggingFaceVocabularies } from '../../workers/hf_vocabularies.js';
import { SAMPLES } from './sample_texts.js';
import { buildPerWordTable, fillPerWordTable, hintWhenWider } from './tokens_per_word.js';

const SHOWN = 40; // tokens of each row shown
const COMPARED_CHARS = 20000; // the text compared: the box's first this many characters
const COLOURS = 5; // the token tints t0..t4 of the token list
const OPENAI = [
  { key: 'r50k_base', label: 'GPT-2', detail: 'r50k_base' },
  { key: 'cl100k_base', label: 'GPT-4', detail: 'cl100k_base' },
  { key: 'o200k_base', label: 'GPT-4o', detail: 'o200k_base' },
];
const TRAINED = { key: 'trained', label: 'Yours', detail: 'trained below' };

const worker = new WorkerClient(
  new URL('../../workers/tokenizer_comparison.js', import.meta.url),
  'the comparison worker',
);
const rows = new Map(); // key → {spec, li, state: 'idle' | 'loading' | 'ready' | 'missing' | 'error'}
let text = '';
let trained = null; // {bytes, vocabSize} of the trained vocabulary, until the worker has it
let started = false;
let counting = false; // a count request in flight: the next waits, and only the latest text is sent
let again = false;

const megabytes = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;

function element(tag, className, textContent = '') {
  const el = document.createElement(tag);
  el.className = className;
  el.textContent = textContent;
  return el;
}

function setState(key, state, note = '') {
  const row = rows.get(key);
  row.state = state;
  row.li.dataset.state = state;
  row.note.textContent = note;
  showLoadAll();
}

/**
 * "Load all": the open models not loaded (nor loading), with their sizes as their own buttons give them (a total
 * rounded on its own could differ from the sum of the rounded sizes beside it); hidden when there are none.
 */
function showLoadAll() {
  const waiting = [...rows.values()].filter((r) => r.spec.licence && ['idle', 'error'].includes(r.state));
  const button = $('tokenize-compare-load-all');
  button.hidden = waiting.length === 0;
  const sizes = waiting.map((r) => (r.spec.bytes / 1e6).toFixed(1)).join(' + ');
  button.textContent = `Load ${waiting.length === 1 ? 'the open model' : `all ${waiting.length} open models`} (${sizes} MB)`;
}

/** One row: name, vocabulary, licence and count on a line, the bar, the tokens; an open model's load control. */
function buildRow(spec) {
  const li = element('li', 'tok-compare-row');
  li.dataset.key = spec.key;
  li.dataset.state = 'idle';
  const name = element('span', 'tok-compare-name');
  name.append(element('strong', '', spec.label), ' ', element('small', 'note', spec.detail ?? ''));
  const meta = element('span', 'tok-compare-meta note');
  const count = element('output', 'tok-compare-count', '…');
  const head = element('div', 'tok-compare-head');
  head.append(name, meta, count);
  const bar = element('div', 'tok-compare-bar');
  bar.append(element('span', ''));
  const tokens = element('ol', 'tokens tok-compare-tokens');
  tokens.setAttribute('aria-label', `Tokens of ${spec.label}`);
  const note = element('p', 'tok-compare-note note');
  li.append(head, bar, tokens, note);
  const row = { spec, li, meta, count, bar: bar.firstChild, tokens, note, state: 'idle' };
  rows.set(spec.key, row);
  if (spec.licence) {
    const link = element('a', '', spec.licence);
    link.href = spec.licenceUrl;
    meta.append(spec.vocabSize ? `${grouped(spec.vocabSize)} ids · ` : '', link);
  }
  return row;
}

/** An open model's row before it is picked: a button with the file's size; a progress bar while it loads. */
function addLoadControl(row) {
  const { spec } = row;
  const button = element('button', 'tok-compare-load', `Load ${megabytes(spec.bytes)}`);
  button.type = 'button';
  button.dataset.testid = `tokenize-compare-load-${spec.key}`;
  const progress = element('progress', '');
  progress.max = spec.bytes;
  progress.value = 0;
  progress.hidden = true;
  progress.setAttribute('aria-label', `Loading ${spec.label}`);
  button.addEventListener('click', () => pick(spec.key));
  row.count.replaceChildren(button, progress);
  Object.assign(row, { button, progress });
}

/**
 * Has the worker fetch an open model's vocabulary (once), with progress, and read it. The worker, not the page,
 * reads the download: a file of several MB arrives in thousands of parts, too many for one frame.
 */
async function pick(key) {
  const row = rows.get(key);
  if (row.state !== 'idle' && row.state !== 'error') {
    return;
  }
  setState(key, 'loading', `Downloading ${megabytes(row.spec.bytes)}…`);
  row.button.hidden = true;
  row.progress.hidden = false;
  try {
    const onProgress = ({ done, total }) => {
      row.progress.value = done;
      row.note.textContent = `Downloading: ${megabytes(done)} of ${megabytes(total)}`;
      row.li.dataset.progress = `${done}/${total}`;
    };
    await worker.request({ op: 'download', key, entry: row.spec }, { onProgress });
    row.note.textContent = 'Reading the vocabulary…';
    const { start } = await worker.request({ op: 'load', key, downloaded: true });
    row.start = start;
    row.li.dataset.start = start.map((t) => t.id).join(' ');
    setState(key, 'ready');
    row.count.replaceChildren('…');
    refresh();
  } catch (error) {
    setState(key, 'error', `${error.message}`);
    row.progress.hidden = true;
    row.button.hidden = false;
    row.button.textContent = 'Try again';
  }
}

function showRow(row, result, longest) {
  if (result.error) {
    // The text is refused (OpenAI's vocabularies refuse a special token such as <|endoftext|> in it): no count.
    row.note.textContent = result.error;
    row.count.textContent = '—';
    delete row.li.dataset.count;
    row.tokens.replaceChildren();
    return;
  }
  const [count] = result.counts;
  row.li.dataset.count = String(count);
  row.li.dataset.vocabSize = String(result.vocabSize);
  row.count.textContent = `${grouped(count)} tokens`;
  row.bar.style.width = `${(100 * count) / Math.max(1, longest)}%`;
  if (!row.spec.licence) {
    row.meta.textContent = `${grouped(result.vocabSize)} ids`; // an open model's row has it from the build's list
  }
  row.tokens.replaceChildren(
    ...result.tokens.map(({ id, text: piece }, i) => {
      const li = element('li', `token t${i % COLOURS}`);
      li.append(element('span', 'piece', visibleWhitespace(piece)));
      li.classList.toggle('partial', piece.includes('\uFFFD'));
      li.title = `id ${id}`;
      return li;
    }),
  );
  row.note.textContent = [count > SHOWN ? `The first ${SHOWN} of ${grouped(count)} tokens.` : '', startNote(row)]
    .filter(Boolean)
    .join(' ');
}

/** What the row's tokenizer puts before every text by default (its encoding of ''), which the count leaves out. */
function startNote({ start }) {
  if (!start?.length) {
    return '';
  }
  const named = start.map(({ id, text: piece }) => `${piece} (id ${id})`).join(' ');
  return `Its tokenizer.json puts ${named} first by default: not counted.`;
}

/** Counts the text and the samples under every vocabulary the worker holds; only the latest text waits. */
async function refresh() {
  if (!started) {
    return;
  }
  if (counting) {
    again = true;
    return;
  }
  counting = true;
  const list = $('tokenize-compare');
  list.setAttribute('aria-busy', 'true');
  const keys = [...rows.values()].filter((r) => r.state === 'ready').map((r) => r.spec.key);
  const compared = text.slice(0, COMPARED_CHARS);
  try {
    const results = await worker.request({
      op: 'count',
      keys,
      texts: [compared, ...SAMPLES.map((s) => s.text)],
      shown: SHOWN,
    });
    const longest = Math.max(...Object.values(results).map((r) => r.counts?.[0] ?? 0));
    for (const [key, result] of Object.entries(results)) {
      showRow(rows.get(key), result, longest);
    }
    fillPerWordTable($('tokenize-per-word'), results);
    list.dataset.text = compared;
    $('tokenize-compare-error').textContent = '';
    $('tokenize-compare-scope').textContent =
      text.length > COMPARED_CHARS ? `(the first ${grouped(COMPARED_CHARS)} characters of the text)` : '';
  } catch (error) {
    $('tokenize-compare-error').textContent = error.message;
  } finally {
    counting = false;
    list.removeAttribute('aria-busy');
  }
  if (again) {
    again = false;
    refresh();
  }
}

async function loadTrained() {
  const { bytes } = trained;
  trained = null;
  await worker.request({ op: 'load', key: TRAINED.key, bytes });
  setState(TRAINED.key, 'ready');
}

/** Loads OpenAI's vocabularies (and the trained one) in the worker, then counts: once, as the figure comes near. */
async function start() {
  started = true;
  try {
    for (const { key } of OPENAI) {
      await worker.request({ op: 'load', key, name: key });
      setState(key, 'ready');
    }
    if (trained) {
      await loadTrained();
    }
  } catch (error) {
    $('tokenize-compare-error').textContent = error.message;
  }
  refresh();
}

/** The box's text changed: count it again (typing sends only the latest text). */
export function setText(next) {
  if (next !== text) {
    text = next;
    refresh();
  }
}

/** A vocabulary was trained (its saved bytes): it joins the comparison as "Yours". */
export async function setTrained(bytes, vocabSize) {
  trained = { bytes: bytes.slice(), vocabSize }; // the worker takes a copy; the page keeps its own
  const row = rows.get(TRAINED.key);
  if (row) {
    row.meta.textContent = `${grouped(vocabSize)} ids`;
    row.note.textContent = '';
  }
  if (started) {
    try {
      await loadTrained();
    } catch (error) {
      $('tokenize-compare-error').textContent = error.message;
    }
    refresh();
  }
}

/** Builds the rows and the table; `useSample(text)` puts a sample into the text box. */
export async function init(initialText, useSample) {
  text = initialText;
  for (const spec of OPENAI) {
    buildRow(spec);
  }
  const open = await huggingFaceVocabularies();
  const openRows = open.map((spec) => buildRow(spec));
  buildRow(TRAINED);
  setState(TRAINED.key, 'idle', trained ? '' : 'Training on this page’s text…');
  if (trained) {
    rows.get(TRAINED.key).meta.textContent = `${grouped(trained.vocabSize)} ids`;
  }
  for (const row of openRows) {
    if (row.spec.missing) {
      setState(row.spec.key, 'missing', `Not in this build of the page (${row.spec.missing}).`);
      row.count.textContent = '—';
    } else {
      addLoadControl(row);
    }
  }
  $('tokenize-compare').replaceChildren(...[...rows.values()].map((r) => r.li));
  buildPerWordTable(
    $('tokenize-per-word'),
    [...rows.values()].map((r) => ({ key: r.spec.key, label: r.spec.label })),
    useSample,
  );
  hintWhenWider($('tokenize-per-word').parentElement, $('tokenize-per-word-hint'));
  $('tokenize-compare-load-all').addEventListener('click', async () => {
    for (const row of [...rows.values()].filter((r) => r.spec.licence && ['idle', 'error'].includes(r.state))) {
      await pick(row.spec.key);
    }
  });
  showLoadAll();
  const observer = new IntersectionObserver(
    (entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        observer.disconnect();
        start();
      }
    },
    { rootMargin: '300px 0px' },
  );
  observer.observe($('tokenize-compare'));
}
