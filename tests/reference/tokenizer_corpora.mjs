// Text corpora for tokenizer parity tests and benchmarks, built from what a Debian machine has:
//   - englishCorpus: licences and man pages; multilingualCorpus: translated man pages (troff stripped);
//   - testPlanCases: gpt-tokenizer's data/TestPlans.txt.
// (Seeded adversarial strings: adversarial_strings.mjs.) Used by scripts/check-tiktoken-parity.mjs,
// tests/node/tiktoken_parity.test.mjs and tests/bench/tokenizer.mjs.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const gptTokenizerDataDir = join(root, 'node_modules/gpt-tokenizer/data');
const dataDir = gptTokenizerDataDir;

/** Total UTF-8 bytes of a list of texts. */
export const utf8Bytes = (texts) => texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);

const troffNamedChars = {
  em: '—',
  en: '–',
  aq: "'",
  dq: '"',
  bu: '•',
  co: '©',
  rg: '®',
  lq: '“',
  rq: '”',
  oq: '‘',
  cq: '’',
  ha: '^',
  ti: '~',
  mu: '×',
  di: '÷',
  '+-': '±',
  '<=': '≤',
  '>=': '≥',
  '->': '→',
  '<-': '←',
  hy: '-',
};

// Man page source -> plain text: macro names and font escapes go, their text stays.
export function stripTroff(source) {
  const out = [];
  for (let line of source.split('\n')) {
    if (line.startsWith('.\\"') || line.startsWith('\'\\"') || line.startsWith('\\"')) {
      continue;
    }
    if (/^[.']/.test(line)) {
      line = line.replace(/^[.']\s*\S+\s*/, '').replace(/"/g, '');
      if (!line) {
        continue;
      }
    }
    line = line
      .replace(/\\f(\[[^\]]*\]|\(..|.)/g, '')
      .replace(/\\\((..)/g, (_, name) => troffNamedChars[name] ?? '')
      .replace(/\\\[([^\]]*)\]/g, (_, name) => troffNamedChars[name] ?? '')
      .replace(/\\\*(\(..|\[[^\]]*\]|.)/g, '')
      .replace(/\\s[-+]?\d/g, '')
      .replace(/\\[&|^%:]/g, '')
      .replace(/\\-/g, '-')
      .replace(/\\e/g, '\\')
      .replace(/\\ /g, ' ')
      .replace(/\\"(.*)$/, '');
    out.push(line);
  }
  return out.join('\n');
}

function listFiles(dir, predicate) {
  const found = [];
  const walk = (d) => {
    let entries;
    try {
      entries = readdirSync(d).sort();
    } catch {
      return;
    }
    for (const name of entries) {
      const path = join(d, name);
      const st = statSync(path, { throwIfNoEntry: false });
      if (!st) {
        continue;
      }
      if (st.isDirectory()) {
        walk(path);
      } else if (predicate(path)) {
        found.push(path);
      }
    }
  };
  walk(dir);
  return found;
}

function readManPage(path) {
  try {
    const raw = path.endsWith('.gz') ? gunzipSync(readFileSync(path)) : readFileSync(path);
    return stripTroff(new TextDecoder('utf-8').decode(raw));
  } catch {
    return '';
  }
}

// Takes every k-th file so that the sample spans the whole list, until budget bytes are collected.
function sampleTexts(paths, budget, read) {
  const texts = [];
  let total = 0;
  const stride = Math.max(1, Math.floor(paths.length / 400));
  for (let offset = 0; offset < stride && total < budget; ++offset) {
    for (let i = offset; i < paths.length && total < budget; i += stride) {
      const text = read(paths[i]);
      if (!text) {
        continue;
      }
      texts.push(text);
      total += Buffer.byteLength(text);
    }
  }
  return texts;
}

/** English: every licence in /usr/share/common-licenses, then man pages (sampled across the list) up to `bytes`. */
export function englishCorpus({ bytes = 3e6 } = {}) {
  const pages = listFiles('/usr/share/man', (p) => /\/man[1-8]\/[^/]+\.gz$/.test(p));
  const licences = listFiles('/usr/share/common-licenses', () => true).map((p) => readFileSync(p, 'utf8'));
  return [...licences, ...sampleTexts(pages, bytes, readManPage)];
}

/** Translated man pages: `bytes` shared evenly among the languages under /usr/share/man. */
export function multilingualCorpus({ bytes = 2e6 } = {}) {
  const languageDirs = readdirSync('/usr/share/man')
    .filter((d) => !d.startsWith('man'))
    .sort();
  const perLanguage = bytes / Math.max(1, languageDirs.length);
  const texts = [];
  for (const dir of languageDirs) {
    const pages = listFiles(join('/usr/share/man', dir), (p) => p.endsWith('.gz'));
    texts.push(...sampleTexts(pages, perLanguage, readManPage));
  }
  return texts;
}

/** gpt-tokenizer's data/TestPlans.txt: [{encoding, text, expected}]. */
export function testPlanCases() {
  const cases = [];
  let current = null;
  for (const line of readFileSync(join(dataDir, 'TestPlans.txt'), 'utf8').split('\n')) {
    if (line.startsWith('EncodingName: ')) {
      current = { encoding: line.slice(14).trim() };
    } else if (line.startsWith('Sample: ') && current) {
      current.text = line.slice(8);
    } else if (line.startsWith('Encoded: ') && current) {
      current.expected = JSON.parse(line.slice(9));
      cases.push(current);
      current = null;
    }
  }
  return cases;
}
