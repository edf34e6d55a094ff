// Section 2's GloVe worker: reads a learner's file in slices (reporting progress), refuses what is not GloVe text
// with the line at fault, parses the rest with the library, and answers for the model's words: their three nearest
// words in the file and their vectors. Keeps the last file that parsed: a file that fails replaces nothing.
import createEmbedLab from '../../embedlab/index.js';
import { serveRequests } from './requests.js';

const SLICE_BYTES = 1 << 22; // progress after each 4 MiB read
// The text is staged in WebAssembly memory (4 GiB at most) with its vectors, which take up to twice its size (each
// value is at least 2 bytes of text, "0 ", and 4 bytes of float32).
const MAX_FILE_BYTES = 2 ** 30;
let labPromise = null;
let vectors = null; // the WordVectors of the last file that parsed

const mebibytes = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/** The 1-based line of byte `at`. */
function lineOf(bytes, at) {
  let line = 1;
  for (let i = bytes.indexOf(10); i !== -1 && i < at; i = bytes.indexOf(10, i + 1)) {
    line++;
  }
  return line;
}

/** The file's bytes, read in slices; progress({phase: 'reading', done, total}) after each. */
async function readAll(file, progress) {
  if (file.size === 0) {
    throw new RangeError('the file is empty (0 bytes); GloVe text has one line "word v1 v2 … vd" per word');
  }
  if (file.size > MAX_FILE_BYTES) {
    throw new RangeError(
      `the file has ${mebibytes(file.size)}; the page parses GloVe text of up to ${mebibytes(MAX_FILE_BYTES)} (the text and its vectors, up to twice its size, must fit in 4 GiB of WebAssembly memory)`,
    );
  }
  const bytes = new Uint8Array(file.size);
  for (let at = 0; at < file.size;) {
    const slice = new Uint8Array(await file.slice(at, at + SLICE_BYTES).arrayBuffer());
    bytes.set(slice, at);
    at += slice.length;
    progress({ phase: 'reading', done: at, total: file.size });
  }
  // UTF-8 text never holds a NUL byte; binary formats (word2vec .bin, archives, images) do, mostly near the start,
  // and so does UTF-16 text.
  const nul = bytes.indexOf(0);
  if (nul !== -1) {
    throw new RangeError(
      `GloVe text, line ${lineOf(bytes, nul)}: a NUL byte (at byte ${nul}), which UTF-8 text never holds: this is a binary file (a word2vec .bin must be converted to text first) or UTF-16 text (save it as UTF-8)`,
    );
  }
  return bytes;
}

/**
 * {count, dim, rows: [[word, {neighbours, vector}]]}: for each of `words` in the file, its nearest three words there
 * (fewer in a smaller file) and its vector.
 */
function summary(words) {
  const rows = [];
  for (const word of words) {
    const vector = vectors.vector(word);
    if (vector === undefined) {
      continue;
    }
    const k = Math.min(3, vectors.words.length - 1);
    rows.push([word, { neighbours: k > 0 ? vectors.nearest(word, k) : null, vector: vector.slice() }]); // a copy: it moves
  }
  return { count: vectors.words.length, dim: vectors.dim, rows };
}

serveRequests({
  /** {file: Blob, words} → the summary of the file for `words`; progress while reading and parsing. */
  async load({ simd, file, words }, progress) {
    const lab = await (labPromise ??= createEmbedLab({ simd }));
    const bytes = await readAll(file, progress);
    progress({ phase: 'parsing', total: bytes.length });
    vectors = await lab.loadWordVectors(bytes); // only a file that parses replaces the last one
    return summary(words);
  },
  /** {words} → the summary of the last file that parsed for `words` (the model's words came after the file). */
  summary({ words }) {
    if (!vectors) {
      throw new Error('no GloVe file has been loaded');
    }
    return summary(words);
  },
});
