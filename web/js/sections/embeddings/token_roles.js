// Section 2: the role of each token of the tiny GPT's vocabulary in its "who did what to whom" corpus: a whole noun,
// a whole verb, a piece of a word the tokenizer splits (r50k_base cuts " chases" into " ch" + "ases"), or another
// token (determiners, the full stop). No DOM here (the browser tests import it in node).
import { NOUNS, VERBS } from '../../training/training.js';
import { visibleWhitespace } from '../../ui/format.js';

export const NOUN = 0;
export const VERB = 1;
export const OTHER = 2;
export const PIECE = 3;

/** Per kind (by its index: the scatter's colour): one member's name, and the key's name for them all. */
export const KINDS = [
  { one: 'noun', many: () => 'nouns' },
  { one: 'verb', many: () => 'verbs' },
  { one: 'other token', many: () => 'other tokens' },
  {
    one: 'piece of a word',
    many: ({ splits }) =>
      `pieces of a word: ${splits.map(({ word, parts }) => `${parts.map(visibleWhitespace).join(' + ')} = ${word}`).join('; ')}`,
  },
];

/** The labels that spell `text` one after another (the first split found), or null. */
function spell(text, labels) {
  if (text === '') {
    return [];
  }
  for (const label of labels) {
    if (label !== '' && text.startsWith(label)) {
      const rest = spell(text.slice(label.length), labels);
      if (rest) {
        return [label, ...rest];
      }
    }
  }
  return null;
}

/**
 * The roles of `labels` (the model's tokens as text): kindOf(label), isWord(label) for a whole noun or verb, the
 * kinds present in the key's order, and the split words with their pieces ({word, kind, parts}).
 */
export function tokenRoles(labels) {
  const kinds = new Map(); // label → kind
  const splits = [];
  const present = new Set(labels);
  for (const [kind, words] of [
    [NOUN, NOUNS],
    [VERB, VERBS],
  ]) {
    for (const word of words) {
      if (present.has(` ${word}`)) {
        kinds.set(` ${word}`, kind);
        continue;
      }
      const parts = spell(` ${word}`, labels);
      if (parts) {
        splits.push({ word, kind, parts });
        parts.forEach((part) => kinds.has(part) || kinds.set(part, PIECE));
      }
    }
  }
  const kindOf = (label) => kinds.get(label) ?? OTHER;
  const order = [NOUN, VERB, PIECE, OTHER].filter((k) => k !== PIECE || splits.length > 0);
  return { kindOf, isWord: (label) => kindOf(label) <= VERB, kinds: order, splits };
}
