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
//   node scripts/check-tiktoken-parity.mjs [--tool build/native/embedlab_tokenize] [--seed 1]
//        [--adversarial 4000] [--english-mb 3] [--multilingual-mb 2] [--only cl100k_base]
// Exits 1 on any mismatch, printing the first few with the pieces around the first difference.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  englishCorpus,
  gptTokenizerDataDir,
  multilingualCorpus,
  testPlanCases,
} from '../tests/reference/tokenizer_corpora.mjs';
import { adversarialStrings, specialTokenStrings } from '../tests/reference/adversarial_strings.mjs';
import { firstDifference } from '../tests/reference/token_comparison.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { get_encoding } = require('tiktoken');

const args = process.argv.slice(2);
function option(name, fallback) {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
}
const tool = option('--tool', join(root, 'build/native/embedlab_tokenize'));
const seed = Number(option('--seed', '1'));
const adversarialCount = Number(option('--adversarial', '4000'));
const englishBytes = Number(option('--english-mb', '3')) * 1e6;
const multilingualBytes = Number(option('--multilingual-mb', '2')) * 1e6;
const only = option('--only', null);
const dataDir = gptTokenizerDataDir;
const encodings = [
  // [encoding, vocabulary file]
  ['r50k_base', 'r50k_base'],
  ['gpt2', 'r50k_base'],
  ['p50k_base', 'p50k_base'],
  ['p50k_edit', 'p50k_base'],
  ['cl100k_base', 'cl100k_base'],
  ['o200k_base', 'o200k_base'],
].filter(([name]) => !only || name === only);

// Corpora: tests/reference/tokenizer_corpora.mjs.

// ---- Comparison ----------------------------------------------------------------------------------------

// specialMode: 'text' (encode_ordinary), 'allow' (allowed_special="all") or 'disallow' (tiktoken's
// default; a text with special-token text yields the string 'error').
function runTool(vocabFile, encoding, texts, specialMode = 'text') {
  const input = texts.map((t) => Buffer.from(t, 'utf8').toString('base64')).join('\n') + '\n';
  const toolArgs = ['--vocab', vocabFile, '--encoding', encoding, '--base64-lines'];
  if (specialMode !== 'text') {
    toolArgs.push(`--${specialMode}-special`);
  }
  const output = execFileSync(tool, toolArgs, { input, maxBuffer: 1 << 30 }).toString();
  const lines = output.split('\n');
  return texts.map((_, i) => {
    if (lines[i]?.startsWith('error:')) {
      return 'error';
    }
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
  const sha = createHash('sha256')
    .update(readFileSync(join(dataDir, `${vocabName}.tiktoken`)))
    .digest('hex');
  if (sha !== publishedSha256[vocabName]) {
    console.error(`${vocabName}.tiktoken has SHA-256 ${sha}, not the published ${publishedSha256[vocabName]}`);
    process.exit(2);
  }
}

if (!existsSync(tool)) {
  console.error(`${tool} not found: build it with npm run build`);
  process.exit(2);
}
const started = Date.now();
const corpora = {
  english: englishCorpus({ bytes: englishBytes }),
  multilingual: multilingualCorpus({ bytes: multilingualBytes }),
  adversarial: adversarialStrings({ count: adversarialCount, seed }),
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
  const specialTexts = specialTokenStrings({
    count: 500,
    seed,
    specials: Object.keys(JSON.parse(encoderJson).special_tokens),
  });
  check('specials allowed', specialTexts, 'allow', (i) => Array.from(enc.encode(specialTexts[i], 'all')));
  check('specials disallowed', specialTexts, 'disallow', (i) => tiktokenOrError(() => enc.encode(specialTexts[i])));
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
  for (const line of report.lines) {
    console.log(line);
  }
}
const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log(`${allEqual ? 'PARITY: all equal' : 'PARITY: MISMATCHES'} (${seconds} s)`);
process.exit(allEqual ? 0 : 1);
