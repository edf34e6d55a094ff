// Section 3: swap two tokens; attention without positions returns the same rows, permuted.
import { $ } from '../ui/dom.js';
import { fixed3, gapText, scientific, visibleWhitespace } from '../ui/format.js';
import { vocabularyNotice } from '../ui/vocabulary_notice.js';

const DIM = 32;
// Section 6 compares the same pair at its own d (64 by default): the swap is also computed there, so the page can
// say why the two sections print different numbers for one question.
const SECTION6_DIM = 64;
const SEEDS = { table: 1, attention: 3 }; // the embedding worker's table seed; one random head
const sinusoid = (dim) => ({ kind: 'sinusoidal', options: { dim, maxLength: 64 } }); // base 10 000
let ctx;
let latest = 0; // the latest update; an older one whose results come later is dropped

const show = (t) => visibleWhitespace(t.text);

function fillSelect(select, tokens, wanted) {
  const options = tokens.map((t, i) => new Option(`${i}: ${show(t)}`, String(i)));
  select.replaceChildren(...options);
  select.disabled = false;
  select.value = String(Math.min(wanted, tokens.length - 1));
}

let lastText = null;

/** Takes the last sentence's rows and scores off the page, so that none stays beside an error about another input. */
function clearResults() {
  $('order-rows').replaceChildren();
  for (const id of ['order-i', 'order-j']) {
    $(id).replaceChildren(); // no tokens of the old sentence to pick
    $(id).disabled = true;
  }
  lastText = null;
  for (const id of ['order-pooled', 'order-pooled-pe']) {
    $(id).textContent = '—';
    $(id).removeAttribute('aria-busy');
    delete $(id).dataset.value;
  }
  for (const id of ['order-gap', 'order-gap-pe']) {
    $(id).textContent = '\u00a0'; // keeps the line's height
  }
  for (const key of ['ids', 'swapped', 'worst']) {
    delete $('order-pooled').dataset[key];
  }
  $('order-settings').textContent = 'No scores for this sentence (it needs 2 to 64 tokens).';
  delete $('order-settings').dataset.wider;
}

async function update() {
  const error = $('order-error');
  const request = ++latest;
  try {
    const text = $('order-text').value;
    const tokens = ctx.tokenizer.tokens(text);
    if (tokens.length < 2) {
      throw new Error(`Sentence: ${tokens.length} token${tokens.length ? '' : 's'}; type at least 2 to swap.`);
    }
    if (tokens.length > 64) {
      throw new Error(`Sentence: at most 64 tokens here; this one has ${tokens.length}.`);
    }
    if (text !== lastText || $('order-i').options.length !== tokens.length) {
      const i = Number($('order-i').value || 0);
      const j = Number($('order-j').value || tokens.length - 1);
      fillSelect($('order-i'), tokens, $('order-i').options.length ? i : 0);
      fillSelect($('order-j'), tokens, $('order-j').options.length ? j : tokens.length - 1);
      lastText = text;
    }
    const i = Number($('order-i').value);
    const j = Number($('order-j').value);
    const ids = tokens.map((t) => t.id);
    const perm = ids.map((_, k) => (k === i ? j : k === j ? i : k)); // swapped row k holds original token perm[k]
    const swapped = perm.map((k) => ids[k]);
    const out = $('order-pooled');
    out.setAttribute('aria-busy', 'true');
    const pair = (dim) => ({ op: 'compare', idsA: ids, idsB: swapped, attention: { dim, seed: SEEDS.attention } });
    const [[none, withPe], [wider]] = await Promise.all([
      ctx.embeddingRun(DIM, 1, [
        { ...pair(DIM), positional: null },
        { ...pair(DIM), positional: sinusoid(DIM) },
      ]),
      ctx.embeddingRun(SECTION6_DIM, 1, [{ ...pair(SECTION6_DIM), positional: sinusoid(SECTION6_DIM) }]),
    ]);
    if (request !== latest) {
      return;
    }
    out.removeAttribute('aria-busy');
    const A = none.attention.outputsA;
    const B = none.attention.outputsB;
    let worst = 0;
    const rows = perm.map((k, row) => {
      let diff = 0;
      for (let c = 0; c < DIM; c++) {
        diff = Math.max(diff, Math.abs(B[row * DIM + c] - A[k * DIM + c]));
      }
      worst = Math.max(worst, diff);
      const tr = document.createElement('tr');
      for (const cell of [String(row), show(tokens[k]), String(k), diff === 0 ? '0 (identical)' : scientific(diff)]) {
        tr.insertCell().textContent = cell;
      }
      return tr;
    });
    $('order-rows').replaceChildren(...rows);
    $('order-pooled').textContent = fixed3(none.attention.pooledCosine);
    $('order-gap').textContent = gapText(none.attention.pooledCosine);
    $('order-pooled-pe').textContent = fixed3(withPe.attention.pooledCosine);
    $('order-gap-pe').textContent = gapText(withPe.attention.pooledCosine);
    out.dataset.ids = ids.join(' ');
    out.dataset.swapped = swapped.join(' ');
    out.dataset.worst = String(worst);
    out.dataset.value = String(none.attention.pooledCosine);
    $('order-pooled-pe').dataset.value = String(withPe.attention.pooledCosine);
    const settings = $('order-settings');
    settings.textContent =
      `Pooled cosines after one attention layer at d = ${DIM}: token rows N(0, 1), seed ${SEEDS.table}; attention ` +
      `head seed ${SEEDS.attention}; sinusoids of base 10\u00a0000. At d = ${SECTION6_DIM}, section 6’s default, the ` +
      `same swap gives ${fixed3(wider.attention.pooledCosine)}: why section 6 prints another number for ` +
      `“dog bites man” against “man bites dog”.`;
    settings.dataset.wider = String(wider.attention.pooledCosine);
    error.textContent = '';
  } catch (e) {
    if (request === latest) {
      clearResults();
      error.textContent = e.message;
    }
  }
}

/** Starts the section; resolves once its first numbers (computed in the embedding worker) are shown. */
export function init(context) {
  ctx = context;
  vocabularyNotice(ctx, {
    id: 'order-vocab-notice',
    where: 'section 3, the order problem',
    before: $('order-panel'),
    effect:
      'the sentence below is cut into its tokens, and each token’s row comes from a table with one row per token of your vocabulary',
  });
  $('order-text').addEventListener('input', update);
  $('order-i').addEventListener('change', update);
  $('order-j').addEventListener('change', update);
  ctx.onTokenizer(() => {
    lastText = null;
    update();
  });
  return update(); // its first results, from the embedding worker
}
