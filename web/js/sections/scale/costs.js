// Section 8, what the token table costs at scale: published configurations counted by the library
// (lab.transformerParameterCount), with the output head as published, tied or untied. Each V is a tokenizer's own
// size: r50k_base and o200k_base from the library's tokenizers, the open models' from their tokenizer.json, read at
// build time (vocab/hf/index.json, scripts/build-hf-vocabularies.mjs); nothing typed in by hand.
import { $ } from '../../ui/dom.js';
import { grouped } from '../../ui/format.js';
import { huggingFaceVocabularies } from '../../workers/hf_vocabularies.js';

const gpt2 = (channels, layers, heads) => ({ channels, layers, heads, positionRows: 1024 });
// Llama-style: RMSNorm, no biases, a gated MLP, grouped-query attention, RoPE (no position table).
const llamaStyle = (channels, layers, heads, kvHeads, ffnHidden, tiedOutput) => ({
  channels,
  layers,
  heads,
  kvHeads,
  ffnHidden,
  gatedMlp: true,
  tiedOutput,
  biases: false,
  norm: 'rmsnorm',
});

/**
 * The table's models: `vocabulary` names the tokenizer whose size is V; the body is each model's config.json
 * (GPT-2: n_embd, n_layer, n_head; the others: hidden_size, num_hidden_layers, num_attention_heads,
 * num_key_value_heads, intermediate_size, tie_word_embeddings), as published on Hugging Face: meta-llama/
 * Meta-Llama-3-8B and -70B, Qwen/Qwen3-8B, deepseek-ai/DeepSeek-V3, google/gemma-3-1b-pt. A model whose body the
 * count cannot describe has `tableOnly`: its token tables are counted, not the rest.
 */
export const MODELS = [
  { name: 'GPT-2 small', vocabulary: 'r50k_base', config: gpt2(768, 12, 12) },
  { name: 'GPT-2 XL', vocabulary: 'r50k_base', config: gpt2(1600, 48, 25) },
  { name: 'Llama 3 8B', vocabulary: 'llama3', config: llamaStyle(4096, 32, 32, 8, 14336, false) },
  { name: 'Llama 3 70B', vocabulary: 'llama3', config: llamaStyle(8192, 80, 64, 8, 28672, false) },
  // Qwen 3 adds an RMSNorm over each head's queries and keys (q_norm, k_norm: 2 × 128 weights a layer, 9 216 in all),
  // which the count does not have: its total is that much short.
  { name: 'Qwen 3 8B', vocabulary: 'qwen3', config: llamaStyle(4096, 36, 32, 8, 12288, false) },
  // Mixture of experts (256 routed experts in 58 of the 61 layers) and multi-head latent attention.
  {
    name: 'DeepSeek V3',
    vocabulary: 'deepseek_v3',
    config: llamaStyle(7168, 61, 128, 128, 18432, false),
    tableOnly: 'a mixture of experts with latent attention, which the count does not describe',
  },
  // Heads of 256 channels, not hidden_size / heads = 288; GeGLU; four norms a layer and two on queries and keys.
  {
    name: 'Gemma 3 1B',
    vocabulary: 'gemma3',
    config: llamaStyle(1152, 26, 4, 1, 6912, true),
    tableOnly: 'heads of 256 channels (not 1152 / 4), which the count does not describe',
  },
];

/** GPT-2 small's body with o200k_base's vocabulary: not a published model. */
export const O200K_BODY = { name: 'GPT-2 small with o200k_base', vocabulary: 'o200k_base', config: gpt2(768, 12, 12) };

let ctx;
const sizes = new Map(); // vocabulary → its size; a vocabulary missing from this build → null
const missing = new Map(); // vocabulary → why this build lacks it

/** 124439808 → "124 439 808" (narrow no-break spaces, as the page writes 10 000). */
const gigabytes = (bytes) => (bytes / 1e9).toPrecision(3);

function configOf(model, tying) {
  const config = { ...model.config, vocabSize: sizes.get(model.vocabulary) };
  return tying === 'published' ? config : { ...config, tiedOutput: tying === 'tied' };
}

/** A row whose vocabulary size is not known yet ("…"), or not in this build ("—"): one line per cell all the same. */
function pendingRow(name, text, title = '') {
  const tr = document.createElement('tr');
  tr.dataset.model = name;
  const th = document.createElement('th');
  th.scope = 'row';
  th.textContent = name;
  tr.title = title;
  tr.append(th, ...Array.from({ length: 9 }, () => Object.assign(document.createElement('td'), { textContent: text })));
  return tr;
}

function countedRow(model, config) {
  const c = ctx.lab.transformerParameterCount(config);
  const tr = document.createElement('tr');
  tr.dataset.model = model.name;
  tr.dataset.vocabSize = String(config.vocabSize);
  tr.dataset.tokenTables = String(c.tokenTables);
  if (!model.tableOnly) {
    tr.dataset.total = String(c.total);
    tr.dataset.share = String(c.tokenTableShare);
  }
  const th = document.createElement('th');
  th.scope = 'row';
  th.textContent = model.name;
  const notCounted = model.tableOnly ? '—' : null;
  const cells = [
    grouped(config.vocabSize),
    grouped(config.channels),
    grouped(c.tokenEmbedding),
    c.outputHead === 0 ? 'tied' : grouped(c.outputHead),
    c.positionTable === 0 ? '—' : grouped(c.positionTable),
    notCounted ?? grouped(c.total),
    notCounted ?? `${(100 * c.tokenTableShare).toFixed(1)} %`,
    gigabytes(c.tokenTableBytes.bfloat16),
    notCounted ?? `${gigabytes(c.totalBytes.bfloat16)} / ${gigabytes(c.totalBytes.float32)}`,
  ];
  tr.append(th, ...cells.map((text) => Object.assign(document.createElement('td'), { textContent: text })));
  if (model.tableOnly) {
    tr.title = `${model.name}: the token tables only; the rest is ${model.tableOnly}.`;
  }
  return { tr, name: model.name, share: model.tableOnly ? NaN : c.tokenTableShare };
}

function update() {
  const tying = $('scale-tying').value;
  const rows = [...MODELS, O200K_BODY].map((model) => {
    const config = configOf(model, tying);
    if (config.vocabSize === null) {
      const why = missing.get(model.vocabulary);
      return { tr: pendingRow(model.name, '—', `Not in this build: ${why}`), name: model.name, share: NaN };
    }
    if (config.vocabSize === undefined) {
      return { tr: pendingRow(model.name, '…'), name: model.name, share: NaN };
    }
    return countedRow(model, config);
  });
  $('scale-costs-body').replaceChildren(...rows.map((r) => r.tr));
  const lacking = [...MODELS, O200K_BODY].filter((m) => sizes.get(m.vocabulary) === null);
  $('scale-costs-missing').textContent = lacking
    .map((m) => `${m.name}: not in this build (${missing.get(m.vocabulary)}).`)
    .join(' ');
  // The published models whose whole body is counted: the sentence keeps its length when the o200k_base row arrives.
  const byShare = rows
    .slice(0, MODELS.length)
    .filter((r) => Number.isFinite(r.share))
    .sort((a, b) => b.share - a.share);
  const pct = (r) => `${(100 * r.share).toFixed(1)} %`;
  $('scale-costs-result').textContent =
    byShare.length < 2
      ? 'The token tables’ share appears once the vocabularies are read.'
      : `Of the published models counted whole, the token tables weigh most in ${byShare[0].name} (${pct(byShare[0])}) and least in ${byShare.at(-1).name} (${pct(byShare.at(-1))}). ` +
        'The table grows with V·d, each layer with d² (attention) and d·F (MLP): the wider and deeper the model, the smaller the table’s share.';
}

/** A vocabulary's size from the library's tokenizer (o200k_base: a 2.2 MB file, read once); shown(text) says it. */
function loadSize(name, shown = () => {}) {
  return ctx
    .loadTokenizer(name)
    .then((tokenizer) => {
      sizes.set(name, tokenizer.vocabSize);
      shown(grouped(tokenizer.vocabSize));
    })
    .catch((error) => {
      sizes.set(name, null);
      missing.set(name, error.message);
      shown(`(unavailable: ${error.message})`);
    })
    .finally(update);
}

/** The open models' sizes, from the list the build wrote (their files are not read for it). */
async function loadOpenSizes() {
  for (const entry of await huggingFaceVocabularies()) {
    sizes.set(entry.key, entry.missing ? null : entry.vocabSize);
    if (entry.missing) {
      missing.set(entry.key, entry.missing);
    }
  }
  for (const model of MODELS.filter((m) => !sizes.has(m.vocabulary) && m.vocabulary !== 'r50k_base')) {
    sizes.set(model.vocabulary, null);
    missing.set(model.vocabulary, 'the build listed no such vocabulary');
  }
  update();
}

/**
 * Fills the table. The o200k_base row waits until the table comes near the screen, so the page's start does not
 * read that vocabulary; its row keeps one line per cell meanwhile, so filling it moves nothing.
 */
export function init(context) {
  ctx = context;
  $('scale-tying').addEventListener('change', update);
  update();
  const ready = Promise.all([loadSize('r50k_base'), loadOpenSizes()]);
  const observer = new IntersectionObserver(
    (entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        observer.disconnect();
        loadSize('o200k_base', (text) => {
          $('scale-o200k-size').textContent = text;
        });
      }
    },
    { rootMargin: '1200px 0px' },
  );
  observer.observe($('scale-costs'));
  return ready;
}
