// Section 1: tokens of the learner's text with ids and byte spans; train a vocabulary in a worker.
import { $ } from '../dom.js';
import { visibleWhitespace } from '../format.js';
import { runJob } from '../jobs.js';

let ctx;
let job = null;

const COLOURS = 5; // token backgrounds cycle through 5 light tints (CSS classes t0..t4)

function showTokens() {
  const text = $('tokenize-text').value;
  const out = $('tokenize-output');
  try {
    const tokens = ctx.tokenizer.tokens(text);
    const items = tokens.map((t, i) => {
      const li = document.createElement('li');
      li.className = `token t${i % COLOURS}`;
      li.dataset.id = String(t.id);
      const piece = document.createElement('span');
      piece.className = 'piece';
      piece.textContent = visibleWhitespace(t.text);
      if (t.text.includes('\uFFFD')) {
        li.classList.add('partial');
      }
      const meta = document.createElement('small');
      meta.textContent = `${t.id} · ${t.start}–${t.end}`;
      li.title = `id ${t.id}, bytes ${t.start} to ${t.end}: ${Array.from(t.bytes, (b) => b.toString(16).padStart(2, '0')).join(' ')}`;
      li.append(piece, meta);
      return li;
    });
    out.replaceChildren(...items);
    const bytes = new TextEncoder().encode(text).length;
    $('tokenize-count').textContent =
      `${tokens.length} tokens for ${bytes} bytes (${(bytes / Math.max(1, tokens.length)).toFixed(2)} bytes per token) · vocabulary of ${ctx.tokenizer.vocabSize} ids`;
    out.dataset.ids = tokens.map((t) => t.id).join(' ');
    out.dataset.vocab = ctx.tokenizerName;
    $('tokenize-error').textContent = '';
  } catch (error) {
    $('tokenize-error').textContent = error.message;
  }
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
  const vocabSize = Number($('tokenize-bpe-size').value);
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
    const tokenizer = ctx.lab.loadTokenizer(result.bytes);
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
  $('tokenize-text').addEventListener('input', showTokens);
  $('tokenize-vocab').addEventListener('change', switchVocabulary);
  $('tokenize-bpe-train').addEventListener('click', () => train());
  $('tokenize-bpe-cancel').addEventListener('click', () => job?.cancel());
  ctx.onTokenizer(() => {
    if ($('tokenize-vocab').value !== ctx.tokenizerName) {
      $('tokenize-vocab').value = ctx.tokenizerName;
    }
    showTokens();
  });
  showTokens();
  train(true);
}
