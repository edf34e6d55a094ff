// Section 9, the exercises on positions and tables at scale (section 8). Each check returns {ok, message}: the
// message says what the library found for the learner's input, never the answer; `explain` is shown only after a
// success. The RoPE exercise starts from a head and window drawn at random on each visit.
import { grouped } from '../../ui/format.js';

const HEAD_DIMS = ['32', '64', '128', '256'];
const BASES = ['10000', '500000', '1000000'];
const WINDOWS = ['1024', '2048', '4096', '8192', '32768'];
const pick = (options) => options[Math.floor(Math.random() * options.length)];

/** GPT-2 small as published (config.json), its vocabulary left to the learner. */
const GPT2_SMALL_BODY = { channels: 768, layers: 12, heads: 12, positionRows: 1024 };
const MAX_VOCABULARY = 1 << 24;

export const SCALE_EXERCISES = [
  {
    id: 'turns',
    title: 'Pairs that never turn',
    text: 'A RoPE head of dimension d with base b is trained on windows of T tokens (drawn at random for this visit; change them if you like). How many of its d/2 pairs never complete a turn inside a window, that is, have a wavelength 2π/θᵢ = 2π·b^(2i/d) longer than T?',
    inputs: [
      { name: 'dim', label: 'd', options: HEAD_DIMS, value: pick(HEAD_DIMS) },
      { name: 'base', label: 'b', options: BASES, value: pick(BASES) },
      { name: 'window', label: 'T', options: WINDOWS, value: pick(WINDOWS) },
      { name: 'pairs', label: 'Pairs', value: '', type: 'number' },
    ],
    explain:
      'λᵢ > T ⇔ b^(2i/d) > T/2π ⇔ i > (d/2)·ln(T/2π)/ln b: the pairs above that index, the slow end of the head. Their angles past T were never seen in training; Llama 3.1 divides exactly these pairs’ frequencies by the factor, and YaRN (β_slow = 1) those with at most one turn, λ ≥ T.',
    async check(ctx, values) {
      const d = Number(values.dim);
      const base = Number(values.base);
      const window = Number(values.window);
      const answer = Number(values.pairs);
      if (!(Number.isInteger(answer) && answer >= 0 && answer <= d / 2)) {
        return { ok: false, message: `A whole number of pairs, 0…${d / 2}.` };
      }
      const { inverseFrequencies } = ctx.lab.ropeFrequencies({ headDim: d, base });
      const slow = Array.from(inverseFrequencies, (theta) => (2 * Math.PI) / theta).filter((l) => l > window);
      if (answer !== slow.length) {
        return {
          ok: false,
          message: `Not ${answer} for d = ${d}, b = ${base}, T = ${window}: count the pairs i < ${d / 2} with 2π·b^(2i/d) > T.`,
        };
      }
      return {
        ok: true,
        message:
          slow.length === 0
            ? `Every pair turns at least once in T = ${window} tokens.`
            : `Pairs ${d / 2 - slow.length}…${d / 2 - 1} have λ from ${Math.round(slow[0])} to ${Math.round(slow.at(-1))} tokens, longer than T = ${window}.`,
      };
    },
  },
  {
    id: 'half-table',
    title: 'When the table outweighs the model',
    text: 'Keep GPT-2 small’s body (d = 768, 12 layers, 12 heads, 1 024 learned positions, output head tied) and grow its vocabulary. From which vocabulary size V on is the token table at least half of all its parameters? (Section 8’s table has GPT-2 small’s counts.)',
    inputs: [{ name: 'vocabulary', label: 'V', value: '', type: 'number' }],
    explain:
      'Nothing in the body (attention, MLP, norms, position table) depends on V, while the tied table holds V × 768 numbers: it is half of the model once V·768 reaches the body’s count, so V = ⌈body / 768⌉. o200k_base (section 8’s last row) is past that point.',
    async check(ctx, values) {
      const V = Number(values.vocabulary);
      if (!(Number.isInteger(V) && V >= 2 && V <= MAX_VOCABULARY)) {
        return { ok: false, message: `A whole vocabulary size, 2…${MAX_VOCABULARY}.` };
      }
      // Exact counts, not a rounded share: V and V − 1 both round to 50 % near the answer.
      const count = (vocabSize) => ctx.lab.transformerParameterCount({ ...GPT2_SMALL_BODY, vocabSize });
      const atV = count(V);
      const below = count(V - 1);
      const half = (c) => 2 * c.tokenTables >= c.total;
      const counted = (c, v) =>
        `V = ${grouped(v)}: token table ${grouped(c.tokenTables)} of ${grouped(c.total)} parameters, the rest ${grouped(c.total - c.tokenTables)}`;
      const ok = half(atV) && !half(below);
      let message = `With ${counted(atV, V)}`;
      if (ok) {
        message += `; with ${counted(below, V - 1)}.`;
      } else if (half(atV)) {
        message += ': at least half, but a smaller V already makes it half: find the smallest.';
      } else {
        message += ': less than half.';
      }
      return { ok, message };
    },
  },
];
