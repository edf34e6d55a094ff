// getTokenizer(name, {vocabulary}): the caller brings the vocabulary's bytes (Cloudflare Workers has no file
// system and no fetch of package files). Ids are checked against npm tiktoken; wrong bytes are refused.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { before, test } from 'node:test';

import { get_encoding } from 'tiktoken';

import createEmbedLab from '../../dist/index.js';

const require = createRequire(import.meta.url);
const emblvoc = (file) => readFileSync(new URL(`../../dist/vocab/${file}.emblvoc`, import.meta.url));
const tiktokenFile = (file) => readFileSync(require.resolve(`gpt-tokenizer/data/${file}.tiktoken`));
const TEXT = 'Hello, world! Positional encodings tell a transformer where each token sits. 你好 🌍\n\n  x';

let lab;
before(async () => {
  lab = await createEmbedLab();
});

for (const [name, file] of [
  ['cl100k_base', 'cl100k_base'],
  ['o200k_base', 'o200k_base'],
  ['gpt2', 'r50k_base'],
  ['p50k_edit', 'p50k_base'],
]) {
  test(`${name}: the package's .emblvoc bytes, an ArrayBuffer and the .tiktoken file give tiktoken's ids`, async () => {
    const reference = get_encoding(name);
    const expected = Array.from(reference.encode(TEXT));
    reference.free();
    const bytes = emblvoc(file);
    const arrayBuffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
    for (const vocabulary of [bytes, arrayBuffer, tiktokenFile(file)]) {
      const tokenizer = await lab.getTokenizer(name, { vocabulary });
      assert.equal(tokenizer.name, name);
      assert.deepEqual(Array.from(tokenizer.encode(TEXT)), expected);
      assert.equal(tokenizer.decode(tokenizer.encode(TEXT)), TEXT);
      tokenizer.dispose();
    }
  });
}

test("o200k_harmony on the caller's o200k_base bytes: the package's own o200k_harmony ids, special tokens included", async () => {
  const text = '<|start|>user<|message|>dog bites man 狗咬人<|end|><|start|>assistant';
  const own = await lab.getTokenizer('o200k_harmony');
  const given = await lab.getTokenizer('o200k_harmony', { vocabulary: emblvoc('o200k_base') });
  assert.equal(given.name, 'o200k_harmony');
  assert.deepEqual(Array.from(given.encode(text, 'all')), Array.from(own.encode(text, 'all')));
  assert.ok(given.encode(text, 'all').length < given.encodeOrdinary(text).length); // the specials were found
  given.dispose();
  own.dispose();
});

test("another encoding's bytes are refused with both figures", async () => {
  await assert.rejects(
    lab.getTokenizer('o200k_base', { vocabulary: emblvoc('cl100k_base') }),
    /o200k_base has 199998 tokens with " the" at rank 290; this file has 100256 tokens and " the" at rank 279/,
  );
  await assert.rejects(lab.getTokenizer('cl100k_base', { vocabulary: tiktokenFile('r50k_base') }), /cl100k_base has /);
});

test('bad options are refused naming the option and what it takes', async () => {
  await assert.rejects(
    lab.getTokenizer('cl100k_base', { vocabulary: 'cl100k_base.emblvoc' }),
    /^TypeError: options.vocabulary must be the bytes \(Uint8Array or ArrayBuffer\) of cl100k_base's vocabulary/,
  );
  await assert.rejects(lab.getTokenizer('cl100k_base', { vocabulary: [1, 2] }), /options.vocabulary must be/);
  await assert.rejects(
    lab.getTokenizer('cl100k_base', { vocabulay: emblvoc('cl100k_base') }),
    /did you mean "vocabulary"/,
  );
  await assert.rejects(lab.getTokenizer('cl100k_base', 'x'), /options must be an options object/);
  await assert.rejects(lab.getTokenizer('cl100k_base', { vocabulary: new Uint8Array(10) }), /vocabulary|tiktoken|line/);
});
