// Section 9, the exercises on positions (sections 3 to 7). Each check returns {ok, message}: the message says what
// the library found for the learner's input, never the answer; `explain` is shown only after a success.
import { scientific } from '../../ui/format.js';
import { APART_EXERCISE } from './apart.js';

const withEncoding = (lab, options, fn) => {
  const pe = lab.positionalEncoding('sinusoidal', options);
  try {
    return fn(pe);
  } finally {
    pe.dispose();
  }
};

const isWhole = (x, min, max) => Number.isInteger(x) && x >= min && x <= max;
const spreadText = (s) => (s === 0 ? '0' : scientific(s));
/** A number with a true minus sign, as the page's readouts write it. */
const minus = (x) => String(x).replace('-', '−');

/** The learned-position model of the "limit" exercise: its table's size is given, its context length is not. */
const LIMIT_MODEL = { vocabSize: 8, contextLength: 24, channels: 8, layers: 1, heads: 1, positions: 'learned' };
const LIMIT_TABLE = LIMIT_MODEL.contextLength * LIMIT_MODEL.channels;

/** A choice among reasons: `right` is the value that explains the result; `rebut` answers each wrong one. */
const CHOOSE = { value: '', label: '— choose a reason —' };
/** The exercise on ALiBi asks about this many heads: not a power of two, where Press et al.'s rule bends. */
export const ALIBI_HEADS = 6;

export const POSITION_EXERCISES = [
  {
    id: 'closest',
    title: 'The two closest positions',
    text: 'With d = 16 and base 10 000, name two different positions p and q in 0…63 whose sinusoidal vectors are as similar (cosine) as those of any two different positions there.',
    inputs: [
      { name: 'p', label: 'p', value: '', type: 'number' },
      { name: 'q', label: 'q', value: '', type: 'number' },
    ],
    explain:
      'Every pair at distance 1 ties: the cosine of PE(p) and PE(q) depends only on q − p (section 4’s PE·PE matrix), and over 0…63 it is largest for neighbours.',
    async check(ctx, values) {
      const p = Number(values.p);
      const q = Number(values.q);
      if (!(isWhole(p, 0, 63) && isWhole(q, 0, 63) && p !== q)) {
        return { ok: false, message: 'Two different whole positions in 0…63.' };
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
        const ok = mine >= best - 1e-6;
        return {
          ok,
          message: `cos(PE(${p}), PE(${q})) = ${mine.toFixed(4)}${ok ? ', as large as any pair.' : `; the closest pairs reach ${best.toFixed(4)}.`}`,
        };
      });
    },
  },
  {
    id: 'rotation',
    title: 'PE(p)·PE(p + k) depends on k alone',
    text: 'With d = 16 and base 10 000, PE(p)·PE(p + k) is the same number for every p. Choose k and predict that number to two decimals, without choosing p (each (sin, cos) pair i gives cos(k·θᵢ), θᵢ = 10000^(−2i/16); section 4’s sliders can help). The page compares it with the library at every p from 0 to 127 − k.',
    inputs: [
      { name: 'k', label: 'k', value: '3', type: 'number' },
      { name: 'dot', label: 'Your value', value: '', type: 'text', size: 8 },
    ],
    explain:
      'sin(pθᵢ)·sin((p+k)θᵢ) + cos(pθᵢ)·cos((p+k)θᵢ) = cos(kθᵢ): p cancels in every pair. That is why R_k, a rotation by k·θᵢ in each pair, takes PE(p) to PE(p + k) for every p (section 4).',
    async check(ctx, values) {
      const k = Number(values.k);
      const guess = Number(String(values.dot).replace('−', '-'));
      if (!isWhole(k, 1, 64)) {
        return { ok: false, message: 'k must be a whole number in 1…64.' };
      }
      if (!Number.isFinite(guess)) {
        return { ok: false, message: `“${values.dot}” is not a number.` };
      }
      return withEncoding(ctx.lab, { dim: 16, maxLength: 128 }, (pe) => {
        const dots = Array.from({ length: 128 - k }, (_, p) => ctx.lab.kernels.dot(pe.row(p), pe.row(p + k)));
        const spread = Math.max(...dots) - Math.min(...dots);
        const ok = dots.every((d) => Math.abs(d - guess) < 0.01);
        return {
          ok,
          message: ok
            ? `The library gives ${dots[0].toFixed(4)} at every p from 0 to ${127 - k} (max − min = ${spreadText(spread)}, float32 rounding).`
            : `The library gives one number at every p from 0 to ${127 - k} (they agree within ${spreadText(spread)}), and ${guess} is not within 0.01 of it.`,
        };
      });
    },
  },
  {
    id: 'base',
    title: 'Neighbours that look alike',
    text: 'With d = 16, find a base in 10…100 000 (the range of section 4’s slider) for which neighbouring positions look clearly different: cos(PE(0), PE(1)) below 0.9. Then: why can it never go below cos(1) ≈ 0.54, whatever the base?',
    inputs: [
      { name: 'base', label: 'Base', value: '10000', type: 'number' },
      {
        name: 'reason',
        label: 'Why',
        value: '',
        options: [
          CHOOSE,
          { value: 'range', label: 'the slider stops at base 10, and base 10 gives cos(1)' },
          { value: 'first', label: 'pair 0 turns by base⁰ = 1 radian at every base, and every other pair by less' },
          { value: 'pairs', label: 'd = 16 has too few pairs: a larger d would go below cos(1)' },
          { value: 'unit', label: 'sin² + cos² = 1 in every pair, which bounds the cosine' },
        ],
      },
    ],
    explain:
      'θ₀ = base⁰ = 1 for every base, so the first pair always turns by exactly 1 radian; every other pair turns by θᵢ = base^(−2i/d) ≤ 1 radian, and cos(θᵢ) ≥ cos(1). The cosine of PE(0) and PE(1) is the mean of these d/2 cosines, so it is at least cos(1) ≈ 0.540, reached only as the base goes down to 1. With the usual base of 10 000 most pairs barely turn from one position to the next, which is why neighbours look alike.',
    async check(ctx, values) {
      const base = Number(values.base);
      if (!(base >= 10 && base <= 100000)) {
        return { ok: false, message: 'A base from 10 to 100 000.' };
      }
      const neighbours = (dim, b) =>
        withEncoding(ctx.lab, { dim, maxLength: 2, base: b }, (pe) => ctx.lab.kernels.cosine(pe.row(0), pe.row(1)));
      const c = neighbours(16, base);
      const found = `cos(PE(0), PE(1)) = ${c.toFixed(4)} with base ${base}`;
      if (c >= 0.9) {
        return { ok: false, message: `${found}.` };
      }
      // A wrong reason is answered with the library's own numbers, never by naming the right one.
      const rebuttals = {
        range: () => `base 10 gives ${neighbours(16, 10).toFixed(4)}, not cos(1) ≈ 0.5403`,
        pairs: () => `d = 128 at base 10 gives ${neighbours(128, 10).toFixed(4)}, no lower`,
        unit: () => 'sin² + cos² = 1 fixes the length of each pair, not the angle between PE(0) and PE(1)',
      };
      if (values.reason === 'first') {
        return { ok: true, message: `${found}, and the bound holds for the reason you gave.` };
      }
      return {
        ok: false,
        message: rebuttals[values.reason]
          ? `${found}: below 0.9. But that reason does not hold: ${rebuttals[values.reason]()}.`
          : `${found}: below 0.9. Now choose why it can never go below cos(1).`,
      };
    },
  },
  APART_EXERCISE,
  {
    id: 'alibi',
    title: 'The most local ALiBi head',
    text: `With H = ${ALIBI_HEADS} heads (not a power of two: see section 7; heads numbered 1…${ALIBI_HEADS}, as there), which head h penalises distance most, and what bias does it add to the score of a key 3 tokens back?`,
    inputs: [
      { name: 'head', label: 'Head h', value: '', type: 'number' },
      { name: 'bias', label: 'Bias', value: '', type: 'text', size: 8 },
    ],
    explain: `For H = ${ALIBI_HEADS}, Press et al. take the 4 slopes of H = 4 (¼, 1/16, 1/64, 1/256), then every other slope of H = 8 (½ and ⅛): the steepest head is the first of those, not head 1.`,
    async check(ctx, values) {
      const slopes = Array.from(ctx.lab.alibiSlopes(ALIBI_HEADS));
      const head = Number(values.head);
      const bias = Number(String(values.bias).replace('−', '-'));
      if (!isWhole(head, 1, ALIBI_HEADS)) {
        return { ok: false, message: `Heads are numbered 1…${ALIBI_HEADS}.` };
      }
      if (!Number.isFinite(bias)) {
        return { ok: false, message: `“${values.bias}” is not a number.` };
      }
      const steepest = slopes.indexOf(Math.max(...slopes)) + 1;
      const rightHead = head === steepest;
      const rightBias = Math.abs(bias - -3 * slopes[steepest - 1]) < 1e-3;
      if (rightHead && rightBias) {
        return {
          ok: true,
          message: `Head ${steepest} has slope ${slopes[steepest - 1]}: a key 3 back gets −3 × ${slopes[steepest - 1]} = ${minus(-3 * slopes[steepest - 1])}.`,
        };
      }
      return {
        ok: false,
        message: rightHead
          ? `Head ${head} is the steepest, but its bias for a key 3 back is not ${minus(bias)}: the bias is −slope × distance.`
          : `Head ${head} is not the steepest of ${ALIBI_HEADS}; the table under section 7’s heads shows every slope.`,
      };
    },
  },
  {
    id: 'limit',
    title: 'Where learned positions stop',
    text: `A GPT with learned positions has a position table (wpe) of ${LIMIT_TABLE} numbers, ${LIMIT_MODEL.channels} for each position. What is the longest sequence it accepts? The page creates such a model and asks it to read your length and one more.`,
    inputs: [{ name: 'length', label: 'Length', value: '', type: 'number' }],
    explain: `Its position table wpe has one row of ${LIMIT_MODEL.channels} numbers per position, ${LIMIT_TABLE} / ${LIMIT_MODEL.channels} = ${LIMIT_MODEL.contextLength} rows for positions 0…${LIMIT_MODEL.contextLength - 1}: one more token has no row to add. Sinusoidal, RoPE, ALiBi and NoPE have no such table, which is what section 7’s race measures.`,
    async check(ctx, values) {
      const L = Number(values.length);
      if (!isWhole(L, 1, 999)) {
        return { ok: false, message: 'A whole number of tokens, 1…999.' };
      }
      const model = ctx.lab.createModel(LIMIT_MODEL);
      const refusal = (n) => {
        try {
          model.evaluate({ ids: [new Array(n).fill(0)], targets: [new Array(n).fill(0)] });
          return null;
        } catch (error) {
          return error.message;
        }
      };
      try {
        const table = model.tensor('wpe.weight').length;
        if (table !== LIMIT_TABLE) {
          throw new Error(`the model's wpe holds ${table} numbers, not ${LIMIT_TABLE}`);
        }
        const atL = refusal(L);
        const after = refusal(L + 1);
        const ok = atL === null && after !== null;
        // The library's message names the limit: shown only once the learner has found it.
        return {
          ok,
          message: ok
            ? `${L} tokens: accepted; ${L + 1} tokens: refused (“${after}”).`
            : `${L} tokens: ${atL === null ? 'accepted' : 'refused'}; ${L + 1} tokens: ${after === null ? 'accepted' : 'refused'}.`,
        };
      } finally {
        model.dispose();
      }
    },
  },
];
