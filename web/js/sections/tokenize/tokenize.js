// Section 1: tokens of the learner's text with ids and byte spans; train a vocabulary in a worker.
import { $ } from '../../ui/dom.js';
import { visibleWhitespace } from '../../ui/format.js';
import { runJob } from '../../workers/jobs_client.js';
import { LargePaste } from './large_paste.js';
import { checkOnChange, readNumberInput } from '../../ui/number_input.js';
import { TokenizeClient } from '../../workers/tokenize_client.js';
import { PAGE_TOKENS, tokenItems } from './token_list.js';
import { tokenLengths, tokenSpans } from '../../workers/token_spans.js';
import * as comparison from './compare_tokenizers.js';

let ctx;
let job = null;
let client = null;
let trained = null; // {bytes, version} of the vocabulary trained last: the tokenizer worker loads it from these
let shown = null; // the result on screen: {ids, starts, utf8, vocab}, and how many of its tokens are listed
let typing = 0; // the debounce timer of the text box
let box = null; // the text box, which holds large pastes outside the textarea

const IDS_IN_DOM = 20000; // data-ids (the page tests read it) holds the ids of texts up to this many tokens
const LARGE_TEXT = 100000; // characters: beyond this, wait for a pause in typing before tokenizing again
const SHORT_TEXT = 20000; // characters: up to this, tokenized on the page at once (a few milliseconds at most)
const encoder = new TextEncoder();
const lengths = new WeakMap(); // tokenizer → its token byte lengths (tokenLengths)
const megabytes = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;

/** Byte lengths of a tokenizer's tokens, looked up once per id. */
function lengthsOf(tokenizer) {
  if (!lengths.has(tokenizer)) {
    lengths.set(tokenizer, tokenLengths(tokenizer));
  }
  return lengths.get(tokenizer);
}

/**
 * Shows the tokens of the text box with the page's vocabulary: a short text at once, here; a long one by the
 * worker (a trained vocabulary goes there as its bytes).
 */
function showTokens() {
  clearTimeout(typing);
  const name = ctx.tokenizerName;
  const text = box.text;
  comparison.setText(text);
  if (text.length <= SHORT_TEXT) {
    client.cancel(); // an older text's result must not replace this one
    try {
      const spans = tokenSpans(ctx.tokenizer.encode(text), encoder.encode(text), lengthsOf(ctx.tokenizer));
      onTokens({ ...spans, name, vocabSize: ctx.tokenizer.vocabSize });
    } catch (error) {
      onError(error.message);
    }
    return;
  }
  const vocab = name === 'trained' ? { key: `trained#${trained.version}`, bytes: trained.bytes } : { key: name, name };
  $('tokenize-output').setAttribute('aria-busy', 'true');
  $('tokenize-count').textContent = `Tokenizing ${(text.length / 1e6).toFixed(1)} million characters with ${name}…`;
  client.request(text, { ...vocab, name });
}

// Typing into a short text is not debounced (it takes well under a millisecond per thousand characters). A long
// text (typed after "Edit") waits for a pause in typing; the worker then has one request at a time.
function onInput() {
  clearTimeout(typing);
  if (box.text.length > LARGE_TEXT) {
    typing = setTimeout(showTokens, 300);
  } else {
    showTokens();
  }
}

function showProgress({ done, total }) {
  $('tokenize-count').textContent = `Tokenizing with ${ctx.tokenizerName}: ${megabytes(done)} of ${megabytes(total)}…`;
}

/** Lists the next page of the shown result's tokens, and says how many are listed. */
/** Lists the shown result's tokens up to `to` (after those listed), and says how many are listed. */
function listTo(to) {
  const out = $('tokenize-output');
  out.append(...tokenItems(shown, out.childElementCount, to));
  const listed = out.childElementCount;
  const count = shown.ids.length;
  $('tokenize-more').hidden = listed >= count;
  $('tokenize-more-note').textContent = listed < count ? `Listing the first ${listed} of ${count} tokens.` : '';
}

const listMore = () => listTo($('tokenize-output').childElementCount + PAGE_TOKENS);

/** How many of the first `listed` tokens two results share (vocabulary, ids and spans): their items stay. */
function sharedTokens(old, next, listed) {
  let k = 0;
  if (old?.vocab === next.vocab) {
    while (
      k < listed &&
      k < next.ids.length &&
      old.ids[k] === next.ids[k] &&
      old.starts[k + 1] === next.starts[k + 1]
    ) {
      k++;
    }
  }
  return k;
}

function onTokens(result) {
  const out = $('tokenize-output');
  const next = { ...result, vocab: result.name };
  // Typing changes the tokens near the caret: the items before it are kept, the rest listed again (one page).
  const keep = Math.min(sharedTokens(shown, next, out.childElementCount), PAGE_TOKENS);
  shown = next;
  while (out.childElementCount > keep) {
    out.lastElementChild.remove();
  }
  listTo(PAGE_TOKENS);
  const count = result.ids.length;
  const bytes = result.utf8.length;
  $('tokenize-count').textContent =
    `${count} tokens for ${bytes} bytes (${(bytes / Math.max(1, count)).toFixed(2)} bytes per token) · vocabulary of ${result.vocabSize} ids`;
  if (count <= IDS_IN_DOM) {
    out.dataset.ids = result.ids.join(' ');
  } else {
    delete out.dataset.ids;
  }
  Object.assign(out.dataset, { count: String(count), bytes: String(bytes), vocab: shown.vocab });
  out.removeAttribute('aria-busy');
  $('tokenize-error').textContent = '';
  // Section 2 draws the rows of these ids (out.tokens: the latest, for a section that starts later).
  out.tokens = { ids: result.ids, vocab: shown.vocab };
  out.dispatchEvent(new CustomEvent('tokens', { detail: out.tokens }));
}

function onError(message) {
  $('tokenize-output').removeAttribute('aria-busy');
  $('tokenize-error').textContent = message;
}

/** The "show more" row under the list, made here so the HTML keeps one list element. */
function addMoreRow() {
  const row = document.createElement('p');
  row.className = 'note';
  const note = document.createElement('span');
  note.id = 'tokenize-more-note';
  note.dataset.testid = 'tokenize-more-note';
  const more = document.createElement('button');
  more.type = 'button';
  more.id = 'tokenize-more';
  more.dataset.testid = 'tokenize-more';
  more.textContent = `Show ${PAGE_TOKENS} more`;
  more.hidden = true;
  more.addEventListener('click', listMore);
  row.append(note, ' ', more);
  $('tokenize-output').after(row);
}

async function switchVocabulary() {
  const name = $('tokenize-vocab').value;
  $('tokenize-count').textContent = `Loading ${name}…`;
  try {
    await ctx.setTokenizer(name);
  } catch (error) {
    $('tokenize-error').textContent = error.message;
  }
}

function renderMerges(list) {
  $('tokenize-bpe-merges').replaceChildren(
    ...list.map((m) => {
      const li = document.createElement('li');
      li.textContent =
        m.left !== undefined
          ? `${visibleWhitespace(m.left)} + ${visibleWhitespace(m.right)} → ${visibleWhitespace(m.left + m.right)} (id ${m.id}, ×${m.count})`
          : `→ ${visibleWhitespace(m.token)} (×${m.count})`;
      return li;
    }),
  );
}

function setTraining(on) {
  $('tokenize-bpe-train').disabled = on;
  $('tokenize-bpe-cancel').disabled = !on;
}

async function train(auto = false) {
  const corpus = $('tokenize-bpe-corpus').value;
  const vocabSize = readNumberInput('tokenize-bpe-size', 'Vocabulary size');
  if (vocabSize === null) {
    return;
  }
  const pattern = $('tokenize-bpe-pattern').value;
  const status = $('tokenize-bpe-status');
  const progress = $('tokenize-bpe-progress');
  progress.value = 0;
  status.dataset.state = 'running';
  status.textContent = 'Training…';
  setTraining(true);
  const recent = [];
  const started = performance.now();
  job = runJob('trainBpe', { corpus, vocabSize, pattern }, (m) => {
    progress.value = m.merges / m.wanted;
    recent.unshift({ token: m.token, count: m.count });
    recent.length = Math.min(recent.length, 12);
    renderMerges(recent);
    status.textContent = `Merge ${m.merges} of ${m.wanted}: new token “${m.token}”, its pair occurred ${m.count} times.`;
  });
  try {
    const result = await job.done;
    if (!result) {
      status.dataset.state = 'cancelled';
      status.textContent = 'Cancelled.';
      return;
    }
    const tokenizer = await ctx.lab.loadTokenizer(result.bytes);
    trained = { bytes: result.bytes, version: (trained?.version ?? 0) + 1 };
    comparison.setTrained(result.bytes, result.vocabSize);
    progress.value = 1;
    renderMerges(result.merges.slice().reverse());
    const option = $('tokenize-vocab').querySelector('option[value="trained"]');
    option.disabled = false;
    option.textContent = `your trained vocabulary (${result.vocabSize} tokens, ${result.mergeCount} merges)`;
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    if (auto) {
      // Trained at load from this page's text: offered in the menu, not forced on the learner.
      await ctx.setTokenizer('trained', tokenizer, { select: false });
      status.textContent = `Trained on this page’s text in ${seconds} s: ${result.mergeCount} merges. Choose “your trained vocabulary” above to use it.`;
    } else {
      $('tokenize-vocab').value = 'trained';
      status.textContent = `Done in ${seconds} s: ${result.mergeCount} merges, ${result.vocabSize} tokens. It is now the page’s vocabulary: sections 2, 3, 6 and 7 (NoPE) use it and say so, each with a button back to ${ctx.builtInName}.`;
      await ctx.setTokenizer('trained', tokenizer);
    }
    status.dataset.state = 'done';
    status.dataset.vocabSize = String(result.vocabSize);
  } catch (error) {
    status.dataset.state = 'error';
    status.textContent = `Training failed: ${error.message}`;
  } finally {
    job = null;
    setTraining(false);
  }
}

export function init(context) {
  ctx = context;
  const corpus = $('tokenize-bpe-corpus');
  if (!corpus.value) {
    corpus.value = Array.from(document.querySelectorAll('main .prose p, .lede'), (p) =>
      p.textContent.replace(/\s+/g, ' ').trim(),
    ).join('\n');
  }
  client = new TokenizeClient({ onProgress: showProgress, onTokens, onError });
  addMoreRow();
  box = new LargePaste($('tokenize-text'), showTokens);
  $('tokenize-text').addEventListener('input', onInput);
  // A debug hook for the soak test: the wasm memory of the page's library and of the tokenizer worker.
  $('tokenize').wasmMemory = async () => ({ page: ctx.lab.memory(), worker: await client.memory() });
  $('tokenize-vocab').addEventListener('change', switchVocabulary);
  $('tokenize-bpe-train').addEventListener('click', () => train());
  checkOnChange('tokenize-bpe-size', 'Vocabulary size');
  $('tokenize-bpe-cancel').addEventListener('click', () => job?.cancel());
  ctx.onTokenizer(() => {
    if ($('tokenize-vocab').value !== ctx.tokenizerName) {
      $('tokenize-vocab').value = ctx.tokenizerName;
    }
    showTokens();
  });
  showTokens();
  comparison.init(box.text, (text) => {
    box.text = text;
    showTokens();
  });
  train(true);
}
