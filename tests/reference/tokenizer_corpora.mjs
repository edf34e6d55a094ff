// Text corpora for tokenizer parity tests and benchmarks, built from what a Debian machine has:
//   - englishCorpus: licences and man pages; multilingualCorpus: translated man pages (troff stripped);
//   - adversarialStrings: seeded strings (combining marks, ZWJ emoji, CJK, RTL, NEL, BOM, lone surrogates,
//     long whitespace and digit runs, contractions in odd cases, random code points from every plane);
//   - testPlanCases: gpt-tokenizer's data/TestPlans.txt; specialTokenStrings: texts with special-token text.
// Used by scripts/check-tiktoken-parity.mjs, tests/node/tiktoken_parity.test.mjs and tests/bench/tokenizer.mjs.
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

// ---- Adversarial strings -------------------------------------------------------------------------------

export function mulberry32(a) {
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const fragments = [
  // combining marks: alone, after letters, spaces, digits, punctuation; Mn, Mc, Me
  'e\u0301',
  '\u0301',
  'a\u0308\u0323',
  '\u20dd',
  'क\u0903',
  ' \u0301x',
  '1\u0301',
  '!\u0301',
  'A\u0301B',
  '\u0301\u0302\u0303',
  'Z\u0351a',
  'ǅ\u0301',
  'ʰ\u0301',
  '\u0e31',
  'ก\u0e31',
  "x\u0301's",
  '\n\u0301',
  // emoji and ZWJ sequences
  '👨‍👩‍👧‍👦',
  '🏳️‍🌈',
  '👍🏽',
  '🇺🇸🇫🇷',
  '1️⃣',
  '🍏🍎',
  '\u200d',
  '❤️',
  '🧑🏿‍🚀',
  // CJK, Korean, fullwidth, Japanese
  '日本語のテキスト',
  '中文字符测试',
  '한국어 문장',
  'ＡＢＣ１２３',
  'カタカナー',
  '〇〻',
  // RTL and bidi controls
  'مرحبا بالعالم',
  'שלום עולם',
  '\u200f',
  '\u202e',
  'ال٣٤٥',
  'فی‌الحال',
  // special whitespace and format characters
  '\u0085',
  '\ufeff',
  '\u00a0',
  '\u2028',
  '\u2029',
  '\u3000',
  '\u200b',
  '\u180e',
  '\u1680',
  '\u000b',
  '\u000c',
  '\u001c',
  '\u001f',
  '\u2000\u200a',
  ' \u0085 ',
  '\u0085\n',
  'x\ufeffy',
  // lone surrogates (JS encodes them as U+FFFD)
  '\ud800',
  '\udc00',
  'a\ud83dz',
  '\ud83d',
  '\ufffd',
  // whitespace runs
  ' ',
  '  ',
  '   ',
  '\t',
  '\n',
  '\r\n',
  ' \n ',
  '\n\n\n',
  '  \r\n  ',
  '\t\t x',
  ' \t\n',
  '\r',
  '\r\r\n',
  // digits and numbers of every kind
  '1234567',
  '１２３４',
  'Ⅻ',
  '½',
  '²³',
  '٠١٢٣٤',
  '१२३',
  '3.14159',
  '1,000,000',
  '0x7f',
  '12ab34',
  // contractions in odd cases
  "'S",
  "'Ll",
  "'lL",
  "'RE",
  "'Ve",
  "'D",
  "'M",
  "'T",
  "'ſ",
  "'ſt",
  '’s',
  "''s",
  "don't",
  "DON'T",
  "I'M",
  "y'all",
  "'",
  "''",
  "it's'S",
  " 's",
  "'ll've",
  "L'Ll",
  // letter classes that o200k separates
  'ǅungla',
  'ʰello',
  'Aʰ',
  'aʰB',
  'getHTTPResponse',
  'XMLHttpRequest',
  'HELLOworld',
  'helloWORLD',
  'ǈǋ',
  'ᾈᾉ',
  'ΣΊΣΥΦΟΣ',
  'İstanbul',
  'straße',
  'ǲwx',
  // punctuation, slashes, code, markup, special-token text
  '/',
  '//',
  '\\',
  '...',
  '—',
  '–',
  '«»',
  '()',
  '{}',
  '<|endoftext|>',
  '<|fim_prefix|>',
  '<|endofprompt|>',
  'for (int i = 0; i < n; ++i) {\n\treturn x;\n}',
  'https://example.com/a/b?c=d',
  '/usr/share/man/',
  '#include <stdio.h>',
  '  - item\n  - item',
  '**bold**',
  '$HOME/.bashrc',
  '\t\t}\n\n',
  // plain words
  'Hello',
  ' world',
  'the',
  ' quick',
  'brown',
  ' fox',
  'The',
  'a',
  'I',
  'ok',
];

function randomCodePoint(rand) {
  const r = rand();
  let cp;
  if (r < 0.3) {
    cp = Math.floor(rand() * 0x80);
  } else if (r < 0.6) {
    cp = Math.floor(rand() * 0x800);
  } else if (r < 0.9) {
    cp = Math.floor(rand() * 0x10000);
  } else {
    cp = Math.floor(rand() * 0x110000);
  }
  return String.fromCodePoint(cp);
}

/** `count` seeded adversarial strings: runs of 2..3000 repeats first, then random fragment mixes and code points. */
export function adversarialStrings({ count = 4000, seed = 1 } = {}) {
  const rand = mulberry32(seed);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const strings = [];
  const runs = [' ', '\n', '\t', '0', '7', 'x', '\u0085', '\ufeff', '\u0301', '.', ' \n', 'ab'];
  for (const run of runs) {
    for (const n of [2, 3, 17, 100, 1000, 3000]) {
      strings.push(run.repeat(n), `a${run.repeat(n)}b`, ` ${run.repeat(n)} `);
    }
  }
  while (strings.length < count) {
    const kind = rand();
    let s = '';
    if (kind < 0.25) {
      // random code points from every plane, unassigned and private use included
      const n = 1 + Math.floor(rand() * 20);
      for (let i = 0; i < n; ++i) {
        s += randomCodePoint(rand);
      }
    } else {
      const n = 1 + Math.floor(rand() * 10);
      for (let i = 0; i < n; ++i) {
        s += pick(fragments);
        const sep = rand();
        if (sep < 0.3) {
          s += ' ';
        } else if (sep < 0.4) {
          s += pick(['\n', '  ', '\t', '\u0085', "'", '\r\n']);
        }
      }
    }
    strings.push(s);
  }
  return strings;
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

/**
 * `count` texts mixing the given special-token strings with adversarial fragments; uses the stream of
 * seed + 1 so that it differs from adversarialStrings({seed}).
 */
export function specialTokenStrings({ count = 500, seed = 1, specials }) {
  const rand = mulberry32(seed + 1);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const strings = [];
  for (let i = 0; i < count; ++i) {
    let s = '';
    const n = 1 + Math.floor(rand() * 6);
    for (let k = 0; k < n; ++k) {
      s += rand() < 0.4 ? pick(specials) : pick(fragments) + pick(['', ' ', '\n', '  ']);
    }
    strings.push(s);
  }
  return strings;
}
