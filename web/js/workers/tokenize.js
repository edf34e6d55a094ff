// Section 1's tokenizer worker: long-lived (vocabularies stay loaded while the learner types), it tokenizes the
// text box so that pasting megabytes never blocks the page. Each result carries the ids, the byte offset where
// each token starts and the UTF-8 bytes, as transferred typed arrays: the page renders any window of tokens from
// them (bytes, text, span) without asking again.
import createEmbedLab from '../../embedlab/index.js';
import { tokenLengths, tokenSpans } from './token_spans.js';

const PART_BYTES = 1 << 18; // progress is reported after each part of the text the stream has taken
let labPromise = null;
let simd = 'auto';
const lab = () => (labPromise ??= createEmbedLab({ simd }));
const tokenizers = new Map(); // vocabulary key → {tokenizer, lengthOf: id → its token's byte length}

async function vocabulary({ key, name, bytes }) {
  if (!tokenizers.has(key)) {
    const l = await lab();
    const tokenizer = await (bytes ? l.loadTokenizer(bytes) : l.getTokenizer(name));
    // A trained vocabulary replaced by a newer one is not asked for again: keep one trained at a time.
    for (const [old, entry] of tokenizers) {
      if (bytes && old.startsWith('trained')) {
        entry.tokenizer.dispose();
        tokenizers.delete(old);
      }
    }
    tokenizers.set(key, { tokenizer, lengthOf: tokenLengths(tokenizer) });
  }
  return tokenizers.get(key);
}

async function tokenize({ seq, text, vocab }) {
  const entry = await vocabulary(vocab);
  const utf8 = new TextEncoder().encode(text);
  let taken = 0;
  let reported = 0;
  function* parts() {
    for (let at = 0; at < utf8.length; at += PART_BYTES) {
      taken = Math.min(utf8.length, at + PART_BYTES);
      yield utf8.subarray(at, taken);
    }
  }
  const chunks = [];
  let count = 0;
  for await (const ids of entry.tokenizer.encodeStream(parts())) {
    chunks.push(ids);
    count += ids.length;
    if (taken - reported >= PART_BYTES && taken < utf8.length) {
      reported = taken;
      self.postMessage({ kind: 'progress', seq, done: taken, total: utf8.length });
    }
  }
  const ids = new Uint32Array(count);
  let at = 0;
  for (const chunk of chunks) {
    ids.set(chunk, at);
    at += chunk.length;
  }
  const { starts } = tokenSpans(ids, utf8, entry.lengthOf);
  self.postMessage({ kind: 'tokens', seq, name: vocab.name, vocabSize: entry.tokenizer.vocabSize, ids, starts, utf8 }, [
    ids.buffer,
    starts.buffer,
    utf8.buffer,
  ]);
}

let text = ''; // the page's text, sent in parts ({first, part, last}) and kept for {reuse: true}
let parts = [];

self.onmessage = async ({ data }) => {
  if (data.memory) {
    // The soak test's view of this worker's wasm memory (the page asks through its debug hook).
    self.postMessage({
      kind: 'memory',
      ...(labPromise ? (await lab()).memory() : { heapBytes: 0, allocatedBytes: 0 }),
    });
    return;
  }
  simd = data.simd ?? 'auto';
  if (!data.reuse) {
    if (data.first) {
      parts = [];
    }
    parts.push(data.part);
    if (!data.last) {
      return;
    }
    text = parts.join('');
    parts = [];
  }
  try {
    await tokenize({ seq: data.seq, text, vocab: data.vocab });
  } catch (error) {
    self.postMessage({ kind: 'error', seq: data.seq, message: error?.message ?? String(error) });
  }
};
