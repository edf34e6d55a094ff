// Section 8, what the token table costs at scale: published configurations counted by the library
// (lab.transformerParameterCount), with the output head as published, tied or untied.
import { $ } from '../../ui/dom.js';

const gpt2 = (channels, layers, heads) => ({ vocabSize: 50257, channels, layers, heads, positionRows: 1024 });
const llama3 = (channels, layers, heads, ffnHidden) => ({
  vocabSize: 128256,
  channels,
  layers,
  heads,
  kvHeads: 8,
  ffnHidden,
  gatedMlp: true,
  tiedOutput: false,
  biases: false,
  norm: 'rmsnorm',
});

/** The configurations of the table, from the models' config.json (GPT-2: n_embd, n_layer, n_head). */
export const MODELS = [
  { name: 'GPT-2 small', config: gpt2(768, 12, 12) },
  { name: 'GPT-2 XL', config: gpt2(1600, 48, 25) },
  { name: 'Llama 3 8B', config: llama3(4096, 32, 32, 14336) },
  { name: 'Llama 3 70B', config: llama3(8192, 80, 64, 28672) },
];

/** GPT-2 small's body with o200k_base's vocabulary: not a published model. */
export const O200K_BODY = { name: 'GPT-2 small with o200k_base', config: gpt2(768, 12, 12) };

let ctx;
let o200kSize = null;

/** 124439808 → "124 439 808" (narrow no-break spaces, as the page writes 10 000). */
export const grouped = (n) => n.toLocaleString('en-US').replace(/,/g, '\u202f');
const gigabytes = (bytes) => (bytes / 1e9).toPrecision(3);

function configOf(model, tying) {
  return tying === 'published' ? model.config : { ...model.config, tiedOutput: tying === 'tied' };
}

/** The o200k_base row before its vocabulary has loaded: the same height, so nothing below it moves. */
function pendingRow(name) {
  const tr = document.createElement('tr');
  tr.dataset.model = name;
  const th = document.createElement('th');
  th.scope = 'row';
  th.textContent = name;
  tr.append(th, ...Array.from({ length: 9 }, () => Object.assign(document.createElement('td'), { textContent: '…' })));
  return tr;
}

function update() {
  const tying = $('scale-tying').value;
  const models = [...MODELS, { ...O200K_BODY, config: { ...O200K_BODY.config, vocabSize: o200kSize } }];
  const counted = models.map((m) => ({ ...m, config: configOf(m, tying) }));
  const rows = counted.map(({ name, config }) => {
    if (config.vocabSize === null) {
      return { tr: pendingRow(name), name, share: NaN };
    }
    const c = ctx.lab.transformerParameterCount(config);
    const tr = document.createElement('tr');
    tr.dataset.model = name;
    tr.dataset.total = String(c.total);
    tr.dataset.tokenTables = String(c.tokenTables);
    tr.dataset.share = String(c.tokenTableShare);
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = name;
    const cells = [
      grouped(config.vocabSize),
      grouped(config.channels),
      grouped(c.tokenEmbedding),
      c.outputHead === 0 ? 'tied' : grouped(c.outputHead),
      c.positionTable === 0 ? '—' : grouped(c.positionTable),
      grouped(c.total),
      `${(100 * c.tokenTableShare).toFixed(1)} %`,
      gigabytes(c.tokenTableBytes.bfloat16),
      `${gigabytes(c.totalBytes.bfloat16)} / ${gigabytes(c.totalBytes.float32)}`,
    ];
    tr.append(th, ...cells.map((text) => Object.assign(document.createElement('td'), { textContent: text })));
    return { tr, name, share: c.tokenTableShare };
  });
  $('scale-costs-body').replaceChildren(...rows.map((r) => r.tr));
  // The published models only: the sentence then keeps its length when the o200k_base row arrives.
  const byShare = rows.slice(0, MODELS.length).sort((a, b) => b.share - a.share);
  const pct = (r) => `${(100 * r.share).toFixed(1)} %`;
  $('scale-costs-result').textContent =
    `Of the published models, the token tables weigh most in ${byShare[0].name} (${pct(byShare[0])}) and least in ${byShare.at(-1).name} (${pct(byShare.at(-1))}). ` +
    'The table grows with V·d, each layer with d² (attention) and d·F (MLP): the wider and deeper the model, the smaller the table’s share.';
}

/** The o200k_base row: its vocabulary size comes from the library's tokenizer (a 2.2 MB file, read once). */
function loadO200k() {
  ctx
    .loadTokenizer('o200k_base')
    .then((tokenizer) => {
      o200kSize = tokenizer.vocabSize;
      $('scale-o200k-size').textContent = grouped(o200kSize);
      update();
    })
    .catch((error) => {
      $('scale-o200k-size').textContent = `(unavailable: ${error.message})`;
    });
}

/**
 * Fills the table. The o200k_base row waits until the table comes near the screen, so the page's start does not
 * read that vocabulary; its row keeps one line per cell meanwhile, so filling it moves nothing.
 */
export function init(context) {
  ctx = context;
  $('scale-tying').addEventListener('change', update);
  update();
  const observer = new IntersectionObserver(
    (entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        observer.disconnect();
        loadO200k();
      }
    },
    { rootMargin: '1200px 0px' },
  );
  observer.observe($('scale-costs'));
}
