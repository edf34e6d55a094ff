// The site's Hugging Face vocabularies (vocab/hf/, written at build time by scripts/build-hf-vocabularies.mjs): their
// list with licence and size, and one file fetched with its progress when the reader picks it. The files are not
// precached (a few MB each): a first visit downloads none of them.
const INDEX = new URL('../../vocab/hf/index.json', import.meta.url);
const PROGRESS_STEP = 1 << 16; // bytes between progress reports

let listing = null;

/**
 * The list, read once: [{key, label, licence, licenceUrl, package, file, bytes, vocabSize}], or with `missing` (why
 * the build left it out) and no file. A site built without the list (or unreachable) has none: [].
 */
export function huggingFaceVocabularies() {
  listing ??= fetch(INDEX)
    .then((response) => (response.ok ? response.json() : { vocabularies: [] }))
    .then((index) => index.vocabularies)
    .catch(() => []);
  return listing;
}

/** The bytes of one listed vocabulary's file; onProgress({done, total}) as they arrive. */
export async function fetchVocabulary(entry, onProgress) {
  const url = new URL(entry.file, INDEX);
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(`${entry.label}: the server answered ${response.status} for ${url.pathname}`);
  }
  const total = entry.bytes;
  const bytes = new Uint8Array(total);
  const reader = response.body.getReader();
  let done = 0;
  let reported = 0;
  for (;;) {
    const { done: end, value } = await reader.read();
    if (end) {
      break;
    }
    if (done + value.length > total) {
      await reader.cancel();
      throw new Error(`${entry.label}: ${url.pathname} is longer than the ${total} bytes of this build's list`);
    }
    bytes.set(value, done);
    done += value.length;
    if (done - reported >= PROGRESS_STEP || done === total) {
      reported = done;
      onProgress({ done, total });
    }
  }
  if (done !== total) {
    throw new Error(`${entry.label}: ${url.pathname} ended after ${done} of ${total} bytes`);
  }
  return bytes;
}
