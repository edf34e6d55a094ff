// OpenAI's vocabularies ship next to the package in vocab/, in our binary form (built from a dev
// dependency's .tiktoken files, checked against tiktoken's published SHA-256: scripts/build-vocabularies.mjs).
// Node reads them from disk; browsers fetch them.

/** Encoding name -> vocabulary file (gpt2 and r50k_base share one; p50k_edit and o200k_harmony add special tokens). */
export const VOCABULARY_FILES = Object.freeze({
  gpt2: 'r50k_base',
  r50k_base: 'r50k_base',
  p50k_base: 'p50k_base',
  p50k_edit: 'p50k_base',
  cl100k_base: 'cl100k_base',
  o200k_base: 'o200k_base',
  o200k_harmony: 'o200k_base', // o200k_base's ranks with gpt-oss's special tokens
});

const isNode = typeof process === 'object' && typeof process.versions?.node === 'string';
const loaded = new Map(); // file -> Promise<Uint8Array>; a vocabulary is read once per process

// One literal URL per file, not a template: bundlers and Vite's dev pre-bundling rewrite `new URL('literal',
// import.meta.url)` to where the file is served, and turn a template URL into nothing (the dev server then fetched
// `…/.vite/deps/undefined`).
const FILE_URLS = {
  r50k_base: () => new URL('../vocab/r50k_base.emblvoc', import.meta.url),
  p50k_base: () => new URL('../vocab/p50k_base.emblvoc', import.meta.url),
  cl100k_base: () => new URL('../vocab/cl100k_base.emblvoc', import.meta.url),
  o200k_base: () => new URL('../vocab/o200k_base.emblvoc', import.meta.url),
};

async function read(file) {
  const url = FILE_URLS[file]();
  if (isNode && url.protocol === 'file:') {
    return process.getBuiltinModule('fs').readFileSync(url);
  }
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(`could not load the ${file} vocabulary from ${url}: HTTP ${response.status}`);
  }
  return new Uint8Array(await response.arrayBuffer());
}

export function readVocabulary(file) {
  if (!loaded.has(file)) {
    const promise = read(file);
    promise.catch(() => loaded.delete(file)); // a failed load may be retried
    loaded.set(file, promise);
  }
  return loaded.get(file);
}
