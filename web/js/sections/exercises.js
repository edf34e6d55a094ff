// Section 8: exercises, each checked live by the library when the learner presses its button.
import { $ } from '../dom.js';
import { scientific } from '../format.js';
import { rotate } from './sinusoidal.js';

let ctx;

const withEncoding = (lab, options, fn) => {
  const pe = lab.positionalEncoding('sinusoidal', options);
  try {
    return fn(pe);
  } finally {
    pe.dispose();
  }
};

const EXERCISES = [
  {
    id: 'split',
    title: 'A word in pieces',
    text: 'Find an English word that r50k_base (GPT-2) cuts into at least three tokens. Type it with its leading space, as it would appear mid-sentence.',
    inputs: [{ name: 'word', label: 'Word', value: ' cat' }],
    async check({ word }) {
      if (!/^ ?[A-Za-z]+$/.test(word)) {
        return [false, 'Use letters only, with an optional leading space.'];
      }
      const tok = await ctx.loadTokenizer('r50k_base');
      const pieces = tok.tokens(word).map((t) => `“${t.text}”`);
      return [pieces.length >= 3, `${pieces.length} tokens: ${pieces.join(' + ')}.`];
    },
  },
  {
    id: 'cheaper',
    title: 'A newer vocabulary pays off',
    text: 'Find a text of at least 20 characters that o200k_base encodes in at most half as many tokens as r50k_base. (Hint: try a language other than English.)',
    inputs: [{ name: 'text', label: 'Text', value: 'Привет, как дела? Всё хорошо.' }],
    async check({ text }) {
      if ([...text].length < 20) {
        return [false, 'Use at least 20 characters.'];
      }
      const a = (await ctx.loadTokenizer('r50k_base')).count(text);
      const b = (await ctx.loadTokenizer('o200k_base')).count(text);
      return [2 * b <= a, `r50k_base: ${a} tokens, o200k_base: ${b} tokens (ratio ${(b / a).toFixed(2)}).`];
    },
  },
  {
    id: 'id',
    title: 'Look up an id',
    text: 'What is the id of the token “␣dog” (with its space) in r50k_base? Find it in section 1.',
    inputs: [{ name: 'id', label: 'Token id', value: '', type: 'number' }],
    async check({ id }) {
      const ids = (await ctx.loadTokenizer('r50k_base')).encode(' dog');
      return [
        Number(id) === ids[0],
        Number(id) === ids[0]
          ? `Yes: “␣dog” → ${ids[0]}.`
          : `No, ${id} is not it. Type “ dog” in section 1 with r50k_base.`,
      ];
    },
  },
  {
    id: 'closest',
    title: 'The two closest positions',
    text: 'With d = 16 and base 10 000, which two different positions in 0…63 have the most similar sinusoidal vectors (largest cosine)?',
    inputs: [
      { name: 'p', label: 'p', value: '0', type: 'number' },
      { name: 'q', label: 'q', value: '1', type: 'number' },
    ],
    async check({ p, q }) {
      p = Number(p);
      q = Number(q);
      if (!(p >= 0 && q >= 0 && p < 64 && q < 64 && p !== q)) {
        return [false, 'Two different positions in 0…63.'];
      }
      return withEncoding(ctx.lab, { dim: 16, maxLength: 64 }, (pe) => {
        const t = pe.table(64);
        const row = (i) => t.subarray(i * 16, (i + 1) * 16);
        let best = -2;
        for (let a = 0; a < 64; a++) {
          for (let b = a + 1; b < 64; b++) {
            best = Math.max(best, ctx.lab.kernels.cosine(row(a), row(b)));
          }
        }
        const mine = ctx.lab.kernels.cosine(row(p), row(q));
        return [
          mine >= best - 1e-6,
          `cos(PE(${p}), PE(${q})) = ${mine.toFixed(4)}; the best pair reaches ${best.toFixed(4)}. Every pair at distance 1 does.`,
        ];
      });
    },
  },
  {
    id: 'rotation',
    title: 'PE(p + k) = R_k · PE(p)',
    text: 'Choose p and k (p + k < 512). The page builds the block rotation R_k from the formula and compares R_k·PE(p) with the library’s PE(p + k) at d = 64: the residual must be below 10⁻⁴.',
    inputs: [
      { name: 'p', label: 'p', value: '10', type: 'number' },
      { name: 'k', label: 'k', value: '7', type: 'number' },
    ],
    async check({ p, k }) {
      p = Number(p);
      k = Number(k);
      if (!(Number.isInteger(p) && Number.isInteger(k) && p >= 0 && k >= 0 && p + k < 512)) {
        return [false, 'Whole numbers with p + k < 512.'];
      }
      return withEncoding(ctx.lab, { dim: 64, maxLength: 512 }, (pe) => {
        const r = rotate(pe.row(p), k, 64, 10000);
        const target = pe.row(p + k);
        const residual = Math.max(...Array.from(target, (v, c) => Math.abs(v - r[c])));
        return [residual < 1e-4, `max |R${k}·PE(${p}) − PE(${p + k})| = ${scientific(residual)}.`];
      });
    },
  },
  {
    id: 'base',
    title: 'Neighbours that look alike',
    text: 'Find a base for which neighbouring positions look very different: cos(PE(0), PE(1)) below 0.6 (d = 16). Why can it never go below cos(1) ≈ 0.54?',
    inputs: [{ name: 'base', label: 'Base', value: '10000', type: 'number' }],
    async check({ base }) {
      base = Number(base);
      if (!(base >= 1 && base <= 1e12)) {
        return [false, 'A base between 1 and 10¹².'];
      }
      return withEncoding(ctx.lab, { dim: 16, maxLength: 2, base }, (pe) => {
        const c = ctx.lab.kernels.cosine(pe.row(0), pe.row(1));
        return [c < 0.6, `cos(PE(0), PE(1)) = ${c.toFixed(4)} with base ${base}.`];
      });
    },
  },
  {
    id: 'apart',
    title: 'Make attention tell them apart',
    text: 'Choose a positional encoding and d so that, after one attention layer, the pooled cosine of “dog bites man” and “man bites dog” drops below 0.99 (r50k_base, leading space, unit-scale tokens as in section 6).',
    inputs: [
      { name: 'positions', label: 'Encoding', options: ['none', 'sinusoidal', 'learned'], value: 'none' },
      { name: 'dim', label: 'd', options: ['8', '16', '32', '64', '128'], value: '64' },
    ],
    async check({ positions, dim }) {
      const lab = ctx.lab;
      const tok = await ctx.loadTokenizer('r50k_base');
      const d = Number(dim);
      const embedding = lab.tokenEmbedding({ vocabSize: tok.vocabSize, dim: d, seed: 1, stddev: 1 });
      const pe = lab.positionalEncoding(positions, { dim: d, maxLength: 64, seed: 2, stddev: 1 });
      try {
        const r = lab.compare(tok.encode(' dog bites man'), tok.encode(' man bites dog'), {
          embedding,
          positional: pe,
          attention: { seed: 3 },
        });
        const c = r.attention.pooledCosine;
        return [c < 0.99, `Pooled cosine after attention with ${positions}, d = ${d}: ${c.toFixed(4)}.`];
      } finally {
        embedding.dispose();
        pe.dispose();
      }
    },
  },
  {
    id: 'alibi',
    title: 'The most local ALiBi head',
    text: 'With H = 8 heads, which head h (1…8) penalises distance most, and what bias does it add to the score of a key 3 tokens back?',
    inputs: [
      { name: 'head', label: 'Head h', value: '', type: 'number' },
      { name: 'bias', label: 'Bias', value: '', type: 'text' },
    ],
    async check({ head, bias }) {
      const slopes = Array.from(ctx.lab.alibiSlopes(8));
      const steepest = slopes.indexOf(Math.max(...slopes)) + 1;
      const expected = -3 * slopes[steepest - 1];
      const b = Number(String(bias).replace('−', '-'));
      const ok = Number(head) === steepest && Math.abs(b - expected) < 1e-3;
      const chosen = slopes[(Number(head) || 1) - 1]; // undefined for a head the model does not have
      return [
        ok,
        ok
          ? `Right: head ${steepest}, slope ${slopes[steepest - 1]}, bias ${expected}.`
          : `Not yet: ${chosen === undefined ? 'heads are 1…8' : `head ${head} has slope ${chosen}`}; the bias is −slope × distance.`,
      ];
    },
  },
  {
    id: 'limit',
    title: 'Where learned positions stop',
    text: 'A GPT with learned positions and contextLength 16: what is the longest sequence it accepts? The page creates such a model and asks it to read your length and one more.',
    inputs: [{ name: 'length', label: 'Length', value: '', type: 'number' }],
    async check({ length }) {
      const L = Number(length);
      if (!(Number.isInteger(L) && L >= 1 && L < 1000)) {
        return [false, 'A whole number of tokens.'];
      }
      const model = ctx.lab.createModel({
        vocabSize: 8,
        contextLength: 16,
        channels: 8,
        layers: 1,
        heads: 1,
        positions: 'learned',
      });
      const tryLength = (n) => {
        try {
          model.evaluate({ ids: [new Array(n).fill(0)], targets: [new Array(n).fill(0)] });
          return null;
        } catch (error) {
          return error.message;
        }
      };
      try {
        const atL = tryLength(L);
        const after = tryLength(L + 1);
        const ok = atL === null && after !== null;
        return [
          ok,
          `${L} tokens: ${atL === null ? 'accepted' : `refused (${atL})`}; ${L + 1} tokens: ${after === null ? 'accepted' : `refused (${after})`}.`,
        ];
      } finally {
        model.dispose();
      }
    },
  },
  {
    id: 'the',
    title: 'Train a merge',
    text: 'Train a vocabulary in section 1 in which “␣the” is a single token, then check. (Which vocabulary size is the smallest that does it?)',
    inputs: [],
    async check() {
      if (ctx.tokenizerName !== 'trained') {
        return [false, 'Train a vocabulary in section 1 first (and keep it selected).'];
      }
      const ids = ctx.tokenizer.encode(' the');
      return [
        ids.length === 1,
        `“␣the” is ${ids.length} token${ids.length === 1 ? '' : 's'} (${Array.from(ids).join(', ')}) in your ${ctx.tokenizer.vocabSize}-token vocabulary.`,
      ];
    },
  },
];

function render() {
  const list = $('exercises-list');
  list.replaceChildren(
    ...EXERCISES.map((ex) => {
      const li = document.createElement('li');
      li.className = 'exercise panel';
      li.dataset.testid = `exercises-${ex.id}`;
      const h = document.createElement('h3');
      h.textContent = ex.title;
      const p = document.createElement('p');
      p.textContent = ex.text;
      const form = document.createElement('form');
      form.className = 'exercise-form';
      for (const input of ex.inputs) {
        const field = document.createElement('label');
        field.className = 'inline';
        field.append(`${input.label} `);
        let control;
        if (input.options) {
          control = document.createElement('select');
          for (const o of input.options) {
            control.append(new Option(o, o, false, o === input.value));
          }
        } else {
          control = document.createElement('input');
          control.type = input.type ?? 'text';
          if (control.type === 'number') {
            control.step = 'any';
          }
          control.value = input.value;
          control.spellcheck = false;
          if (control.type === 'text') {
            control.size = 18;
          }
        }
        control.name = input.name;
        control.dataset.testid = `exercises-${ex.id}-${input.name}`;
        field.append(control);
        form.append(field);
      }
      const button = document.createElement('button');
      button.type = 'submit';
      button.textContent = 'Check';
      button.dataset.testid = `exercises-${ex.id}-check`;
      form.append(button);
      const result = document.createElement('p');
      result.className = 'exercise-result';
      result.setAttribute('aria-live', 'polite');
      result.dataset.testid = `exercises-${ex.id}-result`;
      form.addEventListener('submit', async (event) => {
        event.preventDefault();
        const values = Object.fromEntries(new FormData(form));
        result.textContent = 'Checking…';
        delete result.dataset.ok;
        try {
          const [ok, message] = await ex.check(values);
          result.textContent = `${ok ? '✓ Correct.' : '✗ Not yet.'} ${message}`;
          result.dataset.ok = String(ok);
        } catch (error) {
          result.textContent = `✗ ${error.message}`;
          result.dataset.ok = 'false';
        }
      });
      li.append(h, p, form, result);
      return li;
    }),
  );
}

export function init(context) {
  ctx = context;
  render();
}
