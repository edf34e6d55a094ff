#!/usr/bin/env node
// Token-for-token parity of our native tokenizer (embedlab_tokenize) with npm tiktoken, the reference, for
// r50k_base (and its alias gpt2), p50k_base, p50k_edit, cl100k_base and o200k_base on:
//   - a few MB of English (man pages, licences) and multilingual text (translated man pages), built from
//     what a Debian machine has;
//   - the cases of gpt-tokenizer's data/TestPlans.txt;
//   - seeded adversarial strings (combining marks, ZWJ emoji, CJK, RTL, NEL, BOM, lone surrogates, long
//     whitespace and digit runs, contractions in odd cases, random code points from every plane);
//   - texts with special tokens, encoded with every special token allowed, and with tiktoken's default
//     (all disallowed: both must reject exactly the texts that contain one).
//
//   node scripts/check-tiktoken-parity.mjs [--tool build/native-tok/embedlab_tokenize] [--seed 1]
//        [--adversarial 4000] [--english-mb 3] [--multilingual-mb 2] [--only cl100k_base]
// Exits 1 on any mismatch, printing the first few with the pieces around the first difference.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { get_encoding } = require('tiktoken');

const args = process.argv.slice(2);
function option(name, fallback) {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
}
const tool = option('--tool', join(root, 'build/native-tok/embedlab_tokenize'));
const seed = Number(option('--seed', '1'));
const adversarialCount = Number(option('--adversarial', '4000'));
const englishBytes = Number(option('--english-mb', '3')) * 1e6;
const multilingualBytes = Number(option('--multilingual-mb', '2')) * 1e6;
const only = option('--only', null);
const dataDir = join(root, 'node_modules/gpt-tokenizer/data');
const encodings = [
  // [encoding, vocabulary file]
  ['r50k_base', 'r50k_base'],
  ['gpt2', 'r50k_base'],
  ['p50k_base', 'p50k_base'],
  ['p50k_edit', 'p50k_base'],
  ['cl100k_base', 'cl100k_base'],
  ['o200k_base', 'o200k_base'],
].filter(([name]) => !only || name === only);

// ---- Corpora -------------------------------------------------------------------------------------------

const troffNamedChars = {
  em: '—', en: '–', aq: "'", dq: '"', bu: '•', co: '©', rg: '®', lq: '“', rq: '”', oq: '‘', cq: '’',
  ha: '^', ti: '~', mu: '×', di: '÷', '+-': '±', '<=': '≤', '>=': '≥', '->': '→', '<-': '←', hy: '-',
};

// Man page source -> plain text: macro names and font escapes go, their text stays.
function stripTroff(source) {
  const out = [];
  for (let line of source.split('\n')) {
    if (line.startsWith('.\\"') || line.startsWith("'\\\"") || line.startsWith('\\"')) continue;
    if (/^[.']/.test(line)) {
      line = line.replace(/^[.']\s*\S+\s*/, '').replace(/"/g, '');
      if (!line) continue;
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
      if (!st) continue;
      if (st.isDirectory()) walk(path);
      else if (predicate(path)) found.push(path);
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
      if (!text) continue;
      texts.push(text);
      total += Buffer.byteLength(text);
    }
  }
  return texts;
}

function englishCorpus() {
  const pages = listFiles('/usr/share/man', (p) => /\/man[1-8]\/[^/]+\.gz$/.test(p));
  const licences = listFiles('/usr/share/common-licenses', () => true).map((p) => readFileSync(p, 'utf8'));
  return [...licences, ...sampleTexts(pages, englishBytes, readManPage)];
}

function multilingualCorpus() {
  const languageDirs = readdirSync('/usr/share/man')
    .filter((d) => !d.startsWith('man'))
    .sort();
  const perLanguage = multilingualBytes / Math.max(1, languageDirs.length);
  const texts = [];
  for (const dir of languageDirs) {
    const pages = listFiles(join('/usr/share/man', dir), (p) => p.endsWith('.gz'));
    texts.push(...sampleTexts(pages, perLanguage, readManPage));
  }
  return texts;
}

// ---- Adversarial strings -------------------------------------------------------------------------------

function mulberry32(a) {
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const fragments = [
  // combining marks: alone, after letters, spaces, digits, punctuation; Mn, Mc, Me
  'e\u0301', '\u0301', 'a\u0308\u0323', '\u20dd', 'क\u0903', ' \u0301x', '1\u0301', '!\u0301', 'A\u0301B',
  '\u0301\u0302\u0303', 'Z\u0351a', 'ǅ\u0301', 'ʰ\u0301', '\u0e31', 'ก\u0e31', "x\u0301's", '\n\u0301',
  // emoji and ZWJ sequences
  '👨‍👩‍👧‍👦', '🏳️‍🌈', '👍🏽', '🇺🇸🇫🇷', '1️⃣', '🍏🍎', '\u200d', '❤️', '🧑🏿‍🚀',
  // CJK, Korean, fullwidth, Japanese
  '日本語のテキスト', '中文字符测试', '한국어 문장', 'ＡＢＣ１２３', 'カタカナー', '〇〻',
  // RTL and bidi controls
  'مرحبا بالعالم', 'שלום עולם', '\u200f', '\u202e', 'ال٣٤٥', 'فی‌الحال',
  // special whitespace and format characters
  '\u0085', '\ufeff', '\u00a0', '\u2028', '\u2029', '\u3000', '\u200b', '\u180e', '\u1680', '\u000b', '\u000c',
  '\u001c', '\u001f', '\u2000\u200a', ' \u0085 ', '\u0085\n', 'x\ufeffy',
  // lone surrogates (JS encodes them as U+FFFD)
  '\ud800', '\udc00', 'a\ud83dz', '\ud83d', '\ufffd',
  // whitespace runs
  ' ', '  ', '   ', '\t', '\n', '\r\n', ' \n ', '\n\n\n', '  \r\n  ', '\t\t x', ' \t\n', '\r', '\r\r\n',
  // digits and numbers of every kind
  '1234567', '１２３４', 'Ⅻ', '½', '²³', '٠١٢٣٤', '१२३', '3.14159', '1,000,000', '0x7f', '12ab34',
  // contractions in odd cases
  "'S", "'Ll", "'lL", "'RE", "'Ve", "'D", "'M", "'T", "'ſ", "'ſt", '’s', "''s", "don't", "DON'T", "I'M",
  "y'all", "'", "''", "it's'S", " 's", "'ll've", "L'Ll",
  // letter classes that o200k separates
  'ǅungla', 'ʰello', 'Aʰ', 'aʰB', 'getHTTPResponse', 'XMLHttpRequest', 'HELLOworld', 'helloWORLD',
  'ǈǋ', 'ᾈᾉ', 'ΣΊΣΥΦΟΣ', 'İstanbul', 'straße', 'ǲwx',
  // punctuation, slashes, code, markup, special-token text
  '/', '//', '\\', '...', '—', '–', '«»', '()', '{}', '<|endoftext|>', '<|fim_prefix|>', '<|endofprompt|>',
  'for (int i = 0; i < n; ++i) {\n\treturn x;\n}', 'https://example.com/a/b?c=d', '/usr/share/man/',
  '#include <stdio.h>', '  - item\n  - item', '**bold**', '$HOME/.bashrc', '\t\t}\n\n',
  // plain words
  'Hello', ' world', 'the', ' quick', 'brown', ' fox', 'The', 'a', 'I', 'ok',
];

function randomCodePoint(rand) {
  const r = rand();
  let cp;
  if (r < 0.3) cp = Math.floor(rand() * 0x80);
  else if (r < 0.6) cp = Math.floor(rand() * 0x800);
  else if (r < 0.9) cp = Math.floor(rand() * 0x10000);
  else cp = Math.floor(rand() * 0x110000);
  return String.fromCodePoint(cp);
}

function adversarialStrings(count) {
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
      for (let i = 0; i < n; ++i) s += randomCodePoint(rand);
    } else {
      const n = 1 + Math.floor(rand() * 10);
      for (let i = 0; i < n; ++i) {
        s += pick(fragments);
        const sep = rand();
        if (sep < 0.3) s += ' ';
        else if (sep < 0.4) s += pick(['\n', '  ', '\t', '\u0085', "'", '\r\n']);
      }
    }
    strings.push(s);
  }
  return strings;
}

function testPlanCases() {
  const cases = [];
  let current = null;
  for (const line of readFileSync(join(dataDir, 'TestPlans.txt'), 'utf8').split('\n')) {
    if (line.startsWith('EncodingName: ')) current = { encoding: line.slice(14).trim() };
    else if (line.startsWith('Sample: ') && current) current.text = line.slice(8);
    else if (line.startsWith('Encoded: ') && current) {
      current.expected = JSON.parse(line.slice(9));
      cases.push(current);
      current = null;
    }
  }
  return cases;
}

function specialTokenStrings(count, specials) {
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

// ---- Comparison ----------------------------------------------------------------------------------------

// specialMode: 'text' (encode_ordinary), 'allow' (allowed_special="all") or 'disallow' (tiktoken's
// default; a text with special-token text yields the string 'error').
function runTool(vocabFile, encoding, texts, specialMode = 'text') {
  const input = texts.map((t) => Buffer.from(t, 'utf8').toString('base64')).join('\n') + '\n';
  const toolArgs = ['--vocab', vocabFile, '--encoding', encoding, '--base64-lines'];
  if (specialMode !== 'text') toolArgs.push(`--${specialMode}-special`);
  const output = execFileSync(tool, toolArgs, { input, maxBuffer: 1 << 30 }).toString();
  const lines = output.split('\n');
  return texts.map((_, i) => {
    if (lines[i]?.startsWith('error:')) return 'error';
    return lines[i] ? lines[i].split(' ').map(Number) : [];
  });
}

function tiktokenOrError(encode) {
  try {
    return Array.from(encode());
  } catch {
    return 'error';
  }
}

function firstDifference(a, b) {
  if (a === 'error' || b === 'error') return a === b ? -1 : 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; ++i) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

function describeMismatch(enc, text, ours, theirs) {
  const at = firstDifference(ours, theirs);
  const show = (ids) =>
    ids === 'error'
      ? 'error'
      : ids
      .slice(Math.max(0, at - 3), at + 4)
      .map((id) => JSON.stringify(new TextDecoder().decode(enc.decode_single_token_bytes(id))) + `(${id})`)
      .join(' ');
  const head = JSON.stringify(text.length > 160 ? text.slice(0, 160) + '…' : text);
  return `  text ${head}\n    at token ${at}: ours   ${show(ours)}\n                  tiktoken ${show(theirs)}`;
}

function compare(label, enc, texts, ours, theirsOf, report) {
  let equalTexts = 0;
  let tokens = 0;
  let equalTokens = 0;
  for (let i = 0; i < texts.length; ++i) {
    const theirs = theirsOf(i);
    tokens += theirs === 'error' ? 1 : theirs.length;
    const at = firstDifference(ours[i], theirs);
    if (at < 0) {
      ++equalTexts;
      equalTokens += theirs === 'error' ? 1 : theirs.length;
    } else {
      equalTokens += at;
      if (report.shown < 5) {
        report.lines.push(`  [${label}]\n${describeMismatch(enc, texts[i], ours[i], theirs)}`);
        ++report.shown;
      }
    }
  }
  report.rows.push({ label, texts: texts.length, equalTexts, tokens, equalTokens });
  return equalTexts === texts.length;
}

// SHA-256 of OpenAI's files as tiktoken_ext/openai_public.py publishes them: parity is claimed for these.
const publishedSha256 = {
  r50k_base: '306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930',
  p50k_base: '94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069',
  cl100k_base: '223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7',
  o200k_base: '446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d',
};
for (const [, vocabName] of encodings) {
  const sha = createHash('sha256').update(readFileSync(join(dataDir, `${vocabName}.tiktoken`))).digest('hex');
  if (sha !== publishedSha256[vocabName]) {
    console.error(`${vocabName}.tiktoken has SHA-256 ${sha}, not the published ${publishedSha256[vocabName]}`);
    process.exit(2);
  }
}

if (!existsSync(tool)) {
  console.error(`${tool} not found: build it with cmake --build build/native-tok --target embedlab_tokenize`);
  process.exit(2);
}
const started = Date.now();
const corpora = {
  english: englishCorpus(),
  multilingual: multilingualCorpus(),
  adversarial: adversarialStrings(adversarialCount),
};
const mb = (texts) => (texts.reduce((s, t) => s + Buffer.byteLength(t), 0) / 1e6).toFixed(2);
console.log(
  `corpora: english ${corpora.english.length} texts ${mb(corpora.english)} MB, multilingual ` +
    `${corpora.multilingual.length} texts ${mb(corpora.multilingual)} MB, adversarial ` +
    `${corpora.adversarial.length} strings; seed ${seed}`,
);
const plans = testPlanCases();
let allEqual = true;
for (const [encoding, vocabName] of encodings) {
  const vocabFile = join(dataDir, `${vocabName}.tiktoken`);
  const enc = get_encoding(encoding);
  const report = { rows: [], lines: [], shown: 0 };
  const check = (label, texts, mode, reference) => {
    const ours = runTool(vocabFile, encoding, texts, mode);
    allEqual &= compare(label, enc, texts, ours, reference, report);
  };
  for (const [name, texts] of Object.entries(corpora)) {
    check(name, texts, 'text', (i) => Array.from(enc.encode_ordinary(texts[i])));
  }
  const planCases = plans.filter((c) => c.encoding === encoding);
  const planTexts = planCases.map((c) => c.text);
  check('TestPlans', planTexts, 'text', (i) => Array.from(enc.encode_ordinary(planTexts[i])));
  // The ids stored in TestPlans.txt, as a second, static reference.
  check('TestPlans stored', planTexts, 'text', (i) => planCases[i].expected);
  const encoderJson = readFileSync(require.resolve(`tiktoken/encoders/${encoding}.json`), 'utf8');
  const specialTexts = specialTokenStrings(500, Object.keys(JSON.parse(encoderJson).special_tokens));
  check('specials allowed', specialTexts, 'allow', (i) => Array.from(enc.encode(specialTexts[i], 'all')));
  check('specials disallowed', specialTexts, 'disallow', (i) =>
    tiktokenOrError(() => enc.encode(specialTexts[i])),
  );
  enc.free();
  const texts = report.rows.reduce((s, r) => s + r.texts, 0);
  const equalTexts = report.rows.reduce((s, r) => s + r.equalTexts, 0);
  const tokens = report.rows.reduce((s, r) => s + r.tokens, 0);
  const equalTokens = report.rows.reduce((s, r) => s + r.equalTokens, 0);
  console.log(
    `${encoding.padEnd(12)} ${equalTexts}/${texts} texts equal, ${equalTokens}/${tokens} tokens ` +
      `(${((100 * equalTokens) / tokens).toFixed(4)}%)  ` +
      report.rows.map((r) => `${r.label} ${r.equalTexts}/${r.texts}`).join(', '),
  );
  for (const line of report.lines) console.log(line);
}
const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log(`${allEqual ? 'PARITY: all equal' : 'PARITY: MISMATCHES'} (${seconds} s)`);
process.exit(allEqual ? 0 : 1);
