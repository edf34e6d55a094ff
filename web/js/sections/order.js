// Section 3: swap two tokens; attention without positions returns the same rows, permuted.
import { $ } from '../dom.js';
import { fixed3, gapText, scientific, visibleWhitespace } from '../format.js';
import { vocabularyNotice } from '../vocabulary_notice.js';

const DIM = 32;
let ctx;
let attention = null;
let sinusoid = null;

const show = (t) => visibleWhitespace(t.text);

function fillSelect(select, tokens, wanted) {
  const options = tokens.map((t, i) => new Option(`${i}: ${show(t)}`, String(i)));
  select.replaceChildren(...options);
  select.value = String(Math.min(wanted, tokens.length - 1));
}

let lastText = null;

function update() {
  const error = $('order-error');
  try {
    const text = $('order-text').value;
    const tokens = ctx.tokenizer.tokens(text);
    if (tokens.length < 2) {
      throw new Error('Type at least two tokens to swap.');
    }
    if (tokens.length > 64) {
      throw new Error(`At most 64 tokens here; this sentence has ${tokens.length}.`);
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
    const embedding = ctx.embedding(DIM, 1);
    const none = ctx.lab.compare(ids, swapped, { embedding, positional: null, attention });
    const withPe = ctx.lab.compare(ids, swapped, { embedding, positional: sinusoid, attention });
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
    const out = $('order-pooled');
    out.dataset.ids = ids.join(' ');
    out.dataset.swapped = swapped.join(' ');
    out.dataset.worst = String(worst);
    out.dataset.value = String(none.attention.pooledCosine);
    $('order-pooled-pe').dataset.value = String(withPe.attention.pooledCosine);
    error.textContent = '';
  } catch (e) {
    error.textContent = e.message;
  }
}

export function init(context) {
  ctx = context;
  attention = ctx.lab.selfAttention({ dim: DIM, seed: 3 });
  sinusoid = ctx.lab.positionalEncoding('sinusoidal', { dim: DIM, maxLength: 64 });
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
  update();
}
