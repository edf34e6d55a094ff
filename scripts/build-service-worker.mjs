// Writes the site's service worker: build/site/sw.js becomes web/sw.js with its PRECACHE line replaced by the
// list of every file of the site the page can load (path, SHA-256, bytes) and a cache version derived from those
// hashes and the worker's own source. Any change to the site changes the bytes of sw.js, which is how the browser
// learns that a new build exists (it compares the worker script byte for byte on each visit).
// `node scripts/build-service-worker.mjs [siteDir]` (default build/site); run it after the site is assembled.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { extname, join, posix, relative, sep } from 'node:path';

const WORKER = 'sw.js';
const MARKER = 'const PRECACHE = null; // replaced by scripts/build-service-worker.mjs';

// Files of the site that the page never loads: the package's command line (node only: it reads files and argv) and
// its tokenizer-only entry with its two builds (the page imports the full module, index.js). Leaving them out
// spares the learner 0.6 MB; the build fails below if a precached file names one, so the page cannot start
// loading one of them without it being precached.
const NOT_LOADED_BY_THE_PAGE = [
  /^embedlab\/cli\/\w+\.js$/,
  /^embedlab\/tokenizer\.js$/,
  /^embedlab\/embedlab-tokenizer-(simd|fallback)\.(js|wasm)$/,
];
// Files the page fetches only when the reader asks for them: section 1's Hugging Face vocabularies (2 to 10 MB each,
// vocab/hf/*.bin; their list, index.json, is precached) and the library's Hugging Face module that reads them (about
// 112 kB gzipped, started by the first one loaded). Precaching them would download all of them on a first visit.
const FETCHED_ON_DEMAND = [/^vocab\/hf\/[\w-]+\.bin$/, /^embedlab\/embedlab-hf-(simd|fallback)\.(js|wasm)$/];
const TEXT_FILES = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg']);

/** Paths of every file under `dir`, relative to it with forward slashes, sorted. */
function listFiles(dir, root = dir) {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      return entry.isDirectory() ? listFiles(path, root) : [relative(root, path).split(sep).join(posix.sep)];
    })
    .sort();
}

const sha256 = (data) => createHash('sha256').update(data).digest('hex');

/** Throws if a precached text file refers (a quoted relative path, resolved from its folder) to a left-out file. */
function checkNothingRefersToLeftOut(siteDir, precached, leftOut) {
  const left = new Set(leftOut);
  for (const path of precached.filter((p) => TEXT_FILES.has(extname(p)))) {
    const text = readFileSync(join(siteDir, path), 'utf8');
    const references = [...text.matchAll(/["'`](\.{1,2}\/[^"'`?#\s]+)/g)].map((match) =>
      posix.normalize(posix.join(posix.dirname(path), match[1])),
    );
    const named = references.find((reference) => left.has(reference));
    if (named) {
      throw new Error(
        `build-service-worker: ${path} refers to ${named}, which is left out of the precache as a file the page ` +
          'never loads: remove it from NOT_LOADED_BY_THE_PAGE in scripts/build-service-worker.mjs',
      );
    }
  }
}

const [siteDir = 'build/site'] = process.argv.slice(2);
const source = readFileSync(join(siteDir, WORKER), 'utf8');
if (source.split(MARKER).length !== 2) {
  throw new Error(`build-service-worker: ${siteDir}/${WORKER} must hold the line "${MARKER}" exactly once`);
}
const all = listFiles(siteDir).filter((path) => path !== WORKER);
const notLoaded = all.filter((path) => NOT_LOADED_BY_THE_PAGE.some((pattern) => pattern.test(path)));
const precached = all.filter(
  (path) => !notLoaded.includes(path) && !FETCHED_ON_DEMAND.some((pattern) => pattern.test(path)),
);
checkNothingRefersToLeftOut(siteDir, precached, notLoaded);
const files = precached.map((path) => {
  const bytes = readFileSync(join(siteDir, path));
  return { path, sha256: sha256(bytes), bytes: bytes.length };
});
// The worker's own source is part of the version: a changed worker starts from a fresh cache.
const version = sha256(JSON.stringify([source, files])).slice(0, 16);
const manifest = JSON.stringify({ version, files });
writeFileSync(join(siteDir, WORKER), source.replace(MARKER, `const PRECACHE = ${manifest};`));
