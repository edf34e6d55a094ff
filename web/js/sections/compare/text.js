// Section 6's sentences about the numbers: the verdict (token by token) and the note on the two parts' sizes.
// Pure formatting of what compare.js computed with the library; no DOM here, so node tests can call it.
import { fixed3 } from '../../ui/format.js';

/** Token stddev of each choice of the scale control: N(0, 1/√d) · √d has entries of stddev 1. */
export const TOKEN_STDDEV = { sqrt: 1, gpt2: 0.02 };

/** Counts of each id, with its label: Map id → {label, count}. */
function counts(ids, labels) {
  const out = new Map();
  ids.forEach((id, i) => {
    const entry = out.get(id) ?? { label: labels[i], count: 0 };
    entry.count += 1;
    out.set(id, entry);
  });
  return out;
}

const quoted = (label) => `“${label}”`;
const times = ({ label, count }) => (count === 1 ? quoted(label) : `${count} × ${quoted(label)}`);

/**
 * A and B compared token by token, as multisets of ids: {same, reordering, sameShares, onlyA, onlyB, more}
 * where `more` lists ids in both with different counts ({label, a, b}). sameShares: every id has the same
 * share of its sentence (then mean pooling without positions cannot tell them apart).
 */
export function tokenDifferences(idsA, labelsA, idsB, labelsB) {
  const a = counts(idsA, labelsA);
  const b = counts(idsB, labelsB);
  const onlyA = [...a].filter(([id]) => !b.has(id)).map(([, e]) => e);
  const onlyB = [...b].filter(([id]) => !a.has(id)).map(([, e]) => e);
  const more = [...a]
    .filter(([id, e]) => b.has(id) && b.get(id).count !== e.count)
    .map(([id, e]) => ({ label: e.label, a: e.count, b: b.get(id).count }));
  const sameBag = onlyA.length === 0 && onlyB.length === 0 && more.length === 0;
  // Equal shares: count_A(t) / |A| = count_B(t) / |B| for every t, checked in integers.
  const sameShares =
    onlyA.length === 0 &&
    onlyB.length === 0 &&
    [...a].every(([id, e]) => e.count * idsB.length === b.get(id).count * idsA.length);
  return {
    same: idsA.length === idsB.length && idsA.every((id, i) => id === idsB[i]),
    reordering: sameBag,
    sameShares,
    onlyA,
    onlyB,
    more,
  };
}

/** "only in A: “cat”; only in B: “dog”; “the” 2 times in A, 1 in B". */
function listDifferences({ onlyA, onlyB, more }) {
  const parts = [];
  if (onlyA.length > 0) {
    parts.push(`only in A: ${onlyA.map(times).join(', ')}`);
  }
  if (onlyB.length > 0) {
    parts.push(`only in B: ${onlyB.map(times).join(', ')}`);
  }
  for (const { label, a, b } of more) {
    parts.push(`${quoted(label)} ${a} ${a === 1 ? 'time' : 'times'} in A, ${b} in B`);
  }
  return parts.join('; ');
}

/**
 * The verdict under the scores. r: {state: {positions, scale}, idsA, idsB, wordsA, wordsB, comparison}.
 */
export function verdictText(r) {
  const { positions, scale } = r.state;
  const input = r.comparison.pooledCosine;
  const att = r.comparison.attention.pooledCosine;
  const kind = positions === 'sinusoidal' ? 'sinusoidal' : 'learned';
  const diff = tokenDifferences(r.idsA, r.wordsA, r.idsB, r.wordsB);
  if (diff.same) {
    return 'Same tokens in the same order, so every number is 1.000. Swap two words in one sentence to meet the order problem.';
  }
  if (!diff.reordering) {
    const listed = `Token by token, B is not a reordering of A (${listDifferences(diff)}).`;
    if (diff.sameShares) {
      const shares = `${listed} Yet every token makes up the same share of each sentence, and a mean sees only the shares`;
      return positions === 'none'
        ? `${shares}: without positions both pooled vectors are the same, before attention and after (${fixed3(input)} and ${fixed3(att)}). Switch positions on: the sentences have different lengths, so they average different sets of position vectors.`
        : `${shares}: without positions both pooled vectors would be the same. With positions they average different sets of position vectors, because their lengths differ.`;
    }
    // At GPT-2's 0.02 the sinusoids swamp the tokens: different words can still read 1.000, and the reader must
    // be told why rather than see "the bags differ" next to a 1.000.
    const swamped =
      positions === 'sinusoidal' && scale === 'gpt2' && r.idsA.length === r.idsB.length && fixed3(input) === '1.000'
        ? ' Yet the input cosine reads 1.000: at stddev 0.02 each token is some 35 times shorter than its sinusoid, so both inputs are almost pure position, and the two sentences, of equal length, have the same positions. Try × √d.'
        : '';
    return `${listed} So the bags of vectors differ before any position is added.${swamped} The order problem is about reorderings: try “dog bites man” against “man bites dog”.`;
  }
  if (positions === 'none') {
    return 'No positions: B is the same bag of vectors as A. Attention returns A’s outputs in another order, so the pooled vectors are identical: the model cannot tell who bit whom.';
  }
  if (fixed3(att) === '1.000') {
    if (scale === 'gpt2') {
      return positions === 'sinusoidal'
        ? 'The sinusoidal positions change the outputs, but by less than 3 decimals show: at stddev 0.02 the token part is some 35 times shorter than the sinusoid (see the lengths below), and A and B share their positions, so their inputs are nearly the same. Try × √d.'
        : 'The learned positions change the outputs, but by less than 3 decimals show: at stddev 0.02 both parts are so short that every attention score is close to 0, so each token attends almost evenly to all and its output is nearly the mean of the values, which ignores order. Try × √d.';
    }
    return `The ${kind} positions change the outputs, but only slightly here. Try more dimensions or another pair of sentences.`;
  }
  return `With ${kind} positions a token at another place is a different input row. The pooled inputs still match (both sentences add the same set of position vectors, and a mean forgets which went where), but after one attention layer, which mixes tokens and positions, the pooled outputs differ: order is visible.`;
}

/** What the numbers of the results panel were computed with; seeds as compare.js draws them. */
export function settingsText(state, seeds) {
  const tokens =
    state.scale === 'gpt2'
      ? `token rows N(0, σ = 0.02), seed ${seeds.embedding}`
      : `token rows N(0, σ = 1/√d) × √d = N(0, σ = 1), seed ${seeds.embedding}`;
  const positions = {
    none: 'no positions',
    sinusoidal: 'sinusoids of base 10\u00a0000',
    learned: `learned rows drawn like the tokens, seed ${seeds.learned}, untrained`,
  }[state.positions];
  return (
    `Computed at d = ${state.dim}: ${tokens}; ${positions}; one attention head, seed ${seeds.attention}. ` +
    'Section 3 swaps words at d = 32 with × √d rows: set those here (no positions or sinusoids) and the same pair ' +
    'gives its numbers.'
  );
}

/** The note above the lengths table: what the scale choice means here, with the measured mean lengths. */
export function scaleNoteText(state, { token, position }) {
  const lengths = `Here, over sentence A: mean ‖token‖ ${fixed3(token)}, mean ‖position‖ ${fixed3(position)}.`;
  if (state.positions === 'none') {
    return `No positions are added, so the input is the token vector alone. ${lengths}`;
  }
  const learned = state.positions === 'learned';
  if (state.scale === 'gpt2') {
    return learned
      ? `Token rows N(0, σ = 0.02), as GPT-2 starts; its learned positions start as small (this page draws them N(0, 0.02) too), so neither part swamps the other. ${lengths}`
      : `Token rows N(0, σ = 0.02) with no factor, next to sinusoids of norm √(d/2): the input is nearly pure position and the strips of the tokens are almost white. ${lengths}`;
  }
  return learned
    ? `Token rows N(0, σ = 1/√d) times √d (entries of stddev 1); the learned positions are drawn at the same stddev here, so both parts have about the same length. ${lengths}`
    : `Token rows N(0, σ = 1/√d) times √d, as in the 2017 Transformer (the paper’s × √d on its reference code’s init): token norm about √d next to the sinusoids’ √(d/2), so the input keeps both the word and its place. ${lengths}`;
}
