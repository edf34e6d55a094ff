// GloVe text for section 2: the page model's token table written as "word v1 ... vd" lines, and the nearest
// neighbours shown next to a frozen file's. No DOM here (the browser tests import it in node).

/**
 * A whitespace-free word per token label, or null. GloVe words cannot hold spaces, so " dog" is written "dog";
 * a label without the space whose word is taken by a spaced one (the sentence-initial "the") is left out.
 */
export function wordsOf(labels) {
  const spaced = new Set(labels.filter((l) => /^ \S+$/.test(l)).map((l) => l.slice(1)));
  const seen = new Set();
  return labels.map((label) => {
    const word = /^ \S+$/.test(label) ? label.slice(1) : label;
    if (!/^\S+$/.test(word) || seen.has(word) || (!label.startsWith(' ') && spaced.has(word))) {
      return null;
    }
    seen.add(word);
    return word;
  });
}

/** The rows of wte (labels.length × dim) that have a GloVe word, as GloVe text written by the library. */
export function gloveText(lab, labels, wte) {
  const dim = wte.length / labels.length;
  const words = wordsOf(labels);
  const kept = words.flatMap((word, i) => (word === null ? [] : [i]));
  const table = new Float32Array(kept.length * dim);
  kept.forEach((row, i) => table.set(wte.subarray(row * dim, (row + 1) * dim), i * dim));
  return lab.wordVectorsText(
    kept.map((row) => words[row]),
    table,
    dim,
  );
}

/** The k rows of wte most cosine-similar to row i, rows without a GloVe word skipped: [{word, cosine}]. */
export function liveNearest(lab, words, wte, i, k = 3) {
  const skip = words.flatMap((word, j) => (word === null ? [j] : []));
  return lab
    .nearestRows(wte, wte.length / words.length, i, { k, skip })
    .map(({ row, cosine }) => ({ word: words[row], cosine }));
}

/** "cat 0.91 · bird 0.88 · horse 0.80" */
export function neighboursText(list) {
  return list.map(({ word, cosine: c }) => `${word} ${c.toFixed(2) === '-0.00' ? '0.00' : c.toFixed(2)}`).join(' · ');
}
