// The per-page vocabulary: lower-cased words, numbered in order of first appearance across the sentences.
// A stand-in until the BPE tokenizer lands; the rest of the page only sees ids.

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu;

/** Splits text into lower-cased words; punctuation and spaces separate words and are dropped. */
export function words(text) {
  return text.toLowerCase().match(WORD) ?? [];
}

/** Builds the vocabulary of several sentences. Returns {vocab: string[], ids: number[][], words: string[][]}. */
export function buildVocabulary(sentences) {
  const index = new Map();
  const vocab = [];
  const split = sentences.map(words);
  const ids = split.map((list) =>
    list.map((word) => {
      if (!index.has(word)) {
        index.set(word, vocab.length);
        vocab.push(word);
      }
      return index.get(word);
    }),
  );
  return { vocab, ids, words: split };
}

/** True when b is a reordering of a (same multiset of ids). */
export function isPermutation(a, b) {
  if (a.length !== b.length) {
    return false;
  }
  const x = [...a].sort((p, q) => p - q);
  const y = [...b].sort((p, q) => p - q);
  return x.every((v, i) => v === y[i]);
}

export function sameSequence(a, b) {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}
