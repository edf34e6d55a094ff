// Section 9, the exercise "Make attention tell them apart": which encoding lets one untrained attention layer tell
// two sentences of the same tokens apart, and why. The check runs the heads in the embedding worker; the rows it
// quotes are read with the library; a wrong reason is answered with the library's own numbers.

/** Seeds of the random attention heads: the check reads their median, so no answer rests on one head. */
export const APART_HEADS = [1, 2, 3, 4, 5, 6, 7, 8, 9];
/** The median pooled cosine over APART_HEADS must fall below this. */
export const APART_TARGET = 0.95;
/** Learned position rows are N(0, 1) with this seed; token rows are the embedding worker's, N(0, 1), seed 1. */
const POSITION_SEED = 2;
const SENTENCE_A = ' dog bites man';
const SENTENCE_B = ' man bites dog';
const CHOOSE = { value: '', label: '— choose a reason —' };

const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const positionalSpec = (kind, dim) => ({ kind, options: { dim, maxLength: 64, seed: POSITION_SEED, stddev: 1 } });
const visible = (text) => text.replace(/ /g, '␣');

/** The cosines of rows 0–1, 1–2 and 0–2 of a flat n × dim array, and their mean squared length. */
function rowGeometry(lab, rows, dim) {
  const row = (i) => rows.subarray(i * dim, (i + 1) * dim);
  const pairs = [
    [0, 1],
    [1, 2],
    [0, 2],
  ];
  return {
    cosines: pairs.map(([i, j]) => lab.kernels.cosine(row(i), row(j))),
    squaredLength: [0, 1, 2].reduce((sum, i) => sum + lab.kernels.dot(row(i), row(i)), 0) / 3,
  };
}

/** Rows 0, 1 and 2 of an encoding made as the worker makes it: only their geometry is needed, on the page. */
function positionRows(lab, kind, dim) {
  const { options } = positionalSpec(kind, dim);
  const pe = lab.positionalEncoding(kind, options);
  try {
    return rowGeometry(lab, pe.table(3), dim);
  } finally {
    pe.dispose();
  }
}

/** The pooled cosine of the two sentences after each head, with an encoding, at d; and the token rows. */
async function runHeads(ctx, tok, kind, dim) {
  const idsA = tok.encode(SENTENCE_A);
  const idsB = tok.encode(SENTENCE_B);
  const positional = positionalSpec(kind, dim);
  // The r50k_base table (50 257 × d) is drawn in the embedding worker, not on the page.
  const results = await ctx.embeddingRun(
    dim,
    1,
    [
      ...APART_HEADS.map((seed) => ({ op: 'compare', idsA, idsB, positional, attention: { dim, seed } })),
      { op: 'lookup', ids: idsA },
    ],
    tok.vocabSize,
  );
  const tokenRows = results.pop();
  const cosines = results.map((r) => r.attention.pooledCosine);
  return { cosines, median: median(cosines), tokens: rowGeometry(ctx.lab, tokenRows, dim) };
}

const list = (xs) => xs.map((x) => x.toFixed(3).replace('-', '−')).join(', ');

export const APART_EXERCISE = {
  id: 'apart',
  title: 'Make attention tell them apart',
  text: `“${visible(SENTENCE_A)}” and “${visible(SENTENCE_B)}” (r50k_base) hold the same three tokens: only their positions differ. Choose an encoding and d for which one untrained attention layer tells them apart: the median pooled cosine over ${APART_HEADS.length} random heads (seeds ${APART_HEADS[0]}–${APART_HEADS.at(-1)}) below ${APART_TARGET}. Token rows are N(0, 1) (seed 1), learned position rows N(0, 1) (seed ${POSITION_SEED}), sinusoidal base 10 000. Then say why your encoding does it.`,
  inputs: [
    { name: 'positions', label: 'Encoding', options: ['none', 'sinusoidal', 'learned'], value: 'sinusoidal' },
    { name: 'dim', label: 'd', options: ['8', '16', '32', '64', '128'], value: '64' },
    {
      name: 'reason',
      label: 'Why',
      value: '',
      options: [
        CHOOSE,
        { value: 'longer', label: 'its position rows are longer than the token rows, so they outweigh them' },
        {
          value: 'alike',
          label: 'its rows for neighbouring positions are nearly alike, so attention can follow the order step by step',
        },
        {
          value: 'unrelated',
          label: 'its rows for positions 0, 1 and 2 point in unrelated directions, as different token rows do',
        },
        { value: 'dim', label: 'this d is large enough for a random head to see the order, whatever the encoding' },
      ],
    },
  ],
  explain:
    'Both sentences hold the same token rows, so a head tells them apart only through the rows added at positions 0, 1 and 2 (without positions every head gives exactly 1: section 3). Learned rows, before training, are random like the token rows and point in unrelated directions, so each token’s row changes a lot with where it stands. Sinusoidal neighbours are nearly alike: cos(PE(p), PE(p + 1)) is the mean of cos θᵢ over the d/2 pairs, and most θᵢ = 10000^(−2i/d) are far below 1 radian; with these tables their medians stay above 0.95 at every d from 8 to 128. Drawn with other seeds, learned rows usually but not always do better (three random rows can happen to lie close). What sinusoidal rows offer instead is structure a trained model can use: section 4’s rotation R_k.',
  async check(ctx, { positions, dim, reason }) {
    const tok = await ctx.loadTokenizer('r50k_base');
    const d = Number(dim);
    const run = await runHeads(ctx, tok, positions, d);
    const found = `With ${positions === 'none' ? 'no' : positions} positions, d = ${d}: pooled cosines ${list(run.cosines)}; median ${run.median.toFixed(4)}`;
    if (!(run.median < APART_TARGET)) {
      return { ok: false, message: `${found}, not below ${APART_TARGET}.` };
    }
    const mine = positionRows(ctx.lab, positions, d);
    const rows = `The rows of positions 0–1, 1–2, 0–2 meet at cosines ${list(mine.cosines)}; the token rows of “${visible(SENTENCE_A)}” at ${list(run.tokens.cosines)}`;
    if (reason === 'unrelated') {
      const sinusoidal = positionRows(ctx.lab, 'sinusoidal', d);
      return {
        ok: true,
        message: `${found}, below ${APART_TARGET}. ${rows} (sinusoidal rows at this d: ${list(sinusoidal.cosines)}).`,
      };
    }
    // A wrong reason is answered with the library's own numbers, never by naming the right one.
    const rebuttals = {
      longer: () =>
        `the rows of positions 0–2 have |p|² = ${mine.squaredLength.toFixed(1)} on average, the token rows |x|² = ${run.tokens.squaredLength.toFixed(1)}`,
      alike: () => `the rows of positions 0–1, 1–2, 0–2 meet at cosines ${list(mine.cosines)}: far from alike`,
      dim: async () =>
        `with no positions the same heads give median ${(await runHeads(ctx, tok, 'none', d)).median.toFixed(4)} at d = ${d}`,
    };
    if (!rebuttals[reason]) {
      return { ok: false, message: `${found}, below ${APART_TARGET}. Now choose why.` };
    }
    return {
      ok: false,
      message: `${found}, below ${APART_TARGET}. But that reason does not hold: ${await rebuttals[reason]()}.`,
    };
  },
};
