// A text's tokens in the compact form section 1 lists them from: ids, the byte offset where each token starts (and
// the total at the end) and the UTF-8 bytes. No DOM here: the tokenizer worker and the page both use it.

/** Byte length of each id's token, looked up once per id (tokenizer.tokenBytes crosses into wasm). */
export function tokenLengths(tokenizer) {
  const lengths = new Uint32Array(tokenizer.vocabSize); // 0: not looked up yet (every token has a byte)
  return (id) => (lengths[id] ||= tokenizer.tokenBytes(id).length);
}

/** {ids, starts, utf8} of ids that encode `utf8`: spans tile the input, so each start is the sum of lengths before. */
export function tokenSpans(ids, utf8, lengthOf) {
  const starts = new Uint32Array(ids.length + 1);
  let at = 0;
  for (let i = 0; i < ids.length; i++) {
    starts[i] = at;
    at += lengthOf(ids[i]);
  }
  starts[ids.length] = at;
  return { ids, starts, utf8 };
}
