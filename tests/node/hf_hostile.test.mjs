// Hostile tokenizer.json files, texts and binary forms through the package (issue 24 item 4): each is a clear Error
// naming what is wrong and where; it comes in bounded time (wall bounds here are generous hang guards, not timing
// claims) and leaves the wasm heap's allocations where they were; the instance stays usable (a real file loads and
// encodes afterwards). The binary form truncated or corrupted anywhere is an Error, never a crash.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import createEmbedLab from '../../dist/index.js';
import { Tokenizer as ReferenceTokenizer } from '@huggingface/tokenizers';

import { readModelFiles, referenceIds, seededRandom } from './hf_support.mjs';

const HANG_GUARD_MS = 120_000;
let lab;
let llama2;
let helloIds; // Tokenizers.js' ids of SAMPLE in Llama 2
let keeper; // a tiny tokenizer kept open: its `lab` is the instance's Hugging Face module, whose heap is measured

const SAMPLE = 'Hello world, still here';

before(async () => {
  lab = await createEmbedLab();
  llama2 = readModelFiles('llama2');
  helloIds = referenceIds(new ReferenceTokenizer(llama2.json, llama2.config), SAMPLE, true);
  keeper = await lab.tokenizerFromHuggingFace(tinyJson());
});

after(() => {
  keeper.dispose();
});

// The Hugging Face module's heap (src/hf runs there, not in the lab's own module).
function hfMemory() {
  return keeper.lab.memory();
}

// A small valid tokenizer.json with these model members (and others) replaced.
function tinyJson({ vocab = { a: 0, b: 1, ab: 2 }, merges = ['a b'], ...rest } = {}) {
  return JSON.stringify({
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [],
    normalizer: null,
    pre_tokenizer: null,
    post_processor: null,
    decoder: null,
    model: { type: 'BPE', dropout: null, unk_token: null, fuse_unk: false, byte_fallback: false, vocab, merges },
    ...rest,
  });
}

// The real file still loads and encodes as it should: the instance survived.
async function assertUsable() {
  const tokenizer = await lab.tokenizerFromHuggingFace(llama2.jsonText, { config: llama2.configText });
  assert.deepEqual(tokenizer.encode(SAMPLE), helloIds);
  tokenizer.dispose();
}

// `make` throws (or rejects) an Error whose message matches `message`, within the hang guard, and leaves the heap's
// allocations as they were (within 1 MiB) once `settle` has run (a small call that lets a long input's buffer go).
async function assertRefused(make, message, settle = () => {}) {
  const allocated = hfMemory().allocatedBytes;
  const started = performance.now();
  await assert.rejects(
    async () => make(),
    (error) => {
      assert.ok(error instanceof Error, `not an Error: ${error}`);
      assert.match(error.message, message);
      return true;
    },
  );
  const elapsed = performance.now() - started;
  assert.ok(elapsed < HANG_GUARD_MS, `took ${elapsed} ms`);
  settle();
  const grown = hfMemory().allocatedBytes - allocated;
  assert.ok(grown < 1 << 20, `the heap's allocations grew by ${grown} bytes`);
  await assertUsable();
}

test('a truncated tokenizer.json is refused naming where it ends', async () => {
  const next = seededRandom(5);
  for (let i = 0; i < 8; i++) {
    const length = Math.floor(next() * llama2.jsonText.length);
    await assertRefused(
      () => lab.tokenizerFromHuggingFace(llama2.jsonText.slice(0, length)),
      /^tokenizer\.json: .+: the text ends .+ \(truncated\?\) \(line \d+, column \d+\)$/,
    );
  }
  await assertRefused(
    () => lab.tokenizerFromHuggingFace(llama2.jsonText.slice(0, 100_000)),
    /^tokenizer\.json: model\.vocab\."ém": the text ends where ',' or '}' was expected \(truncated\?\) \(line 4992, column 18\)$/,
  );
});

test('nesting 10,000 deep is refused at the depth limit, naming the path', async () => {
  await assertRefused(
    () => lab.tokenizerFromHuggingFace('{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000)),
    /^tokenizer\.json: (a\.){10,}a: nesting deeper than \d+ levels \(line 1, column \d+\)$/,
  );
  const deepNormalizer = tinyJson({ normalizer: 'DEEP' }).replace('"DEEP"', '['.repeat(5000) + ']'.repeat(5000));
  await assertRefused(
    () => lab.tokenizerFromHuggingFace(deepNormalizer),
    /^tokenizer\.json: normalizer.*nesting deeper/,
  );
});

test('merges naming tokens missing from the vocabulary are refused naming the merge and the token', async () => {
  await assertRefused(
    () => lab.tokenizerFromHuggingFace(tinyJson({ merges: ['a b', 'a c'] })),
    /^tokenizer\.json: model\.merges\[1\]: the merge's second token "c" is not in the vocabulary$/,
  );
  await assertRefused(
    () => lab.tokenizerFromHuggingFace(tinyJson({ merges: [['x', 'b']] })),
    /^tokenizer\.json: model\.merges\[0\]: the merge's first token "x" is not in the vocabulary$/,
  );
});

test('duplicate, negative and too large ids are refused naming the token', async () => {
  await assertRefused(
    () => lab.tokenizerFromHuggingFace(tinyJson({ vocab: { a: 0, b: 0 }, merges: [] })),
    /^tokenizer\.json: model\.vocab: the id 0 is given to two tokens, "a" and "b"$/,
  );
  await assertRefused(
    () => lab.tokenizerFromHuggingFace(tinyJson({ vocab: { a: 0, b: -1 }, merges: [] })),
    /^tokenizer\.json: model\.vocab\.b: -1 is out of range \(allowed: 0 to \d+\)/,
  );
  for (const id of [2 ** 31, 2 ** 31 + 5, 2 ** 40]) {
    await assertRefused(
      () => lab.tokenizerFromHuggingFace(tinyJson({ vocab: { a: 0, b: id }, merges: [] })),
      new RegExp(`^tokenizer\\.json: model\\.vocab\\.b: ${id} is out of range \\(allowed: 0 to \\d+\\)`),
    );
  }
  const added = [{ id: 5, content: '<x>', special: true, normalized: false }];
  await assertRefused(
    () => lab.tokenizerFromHuggingFace(tinyJson({ added_tokens: [...added, { ...added[0], content: '<y>', id: -3 }] })),
    /^tokenizer\.json: added_tokens\[1\]/,
  );
});

test('a vocabulary of 10 million entries is refused at the id limit, naming the first id past it', async () => {
  const blocks = [];
  for (let block = 0; block < 100; block++) {
    const entries = [];
    for (let i = block * 100_000; i < (block + 1) * 100_000; i++) {
      entries.push(`"t${i}":${i}`);
    }
    blocks.push(entries.join(','));
  }
  const json = tinyJson({ vocab: {}, merges: [] }).replace('"vocab":{}', `"vocab":{${blocks.join(',')}}`);
  blocks.length = 0;
  await assertRefused(
    () => lab.tokenizerFromHuggingFace(json),
    /^tokenizer\.json: model\.vocab\.t4194304: 4194304 is out of range \(allowed: 0 to 4194303\)/,
  );
});

test('a regex that would backtrack for ever is an unknown regex: refused quoting it, naming where', async () => {
  for (const regex of ['(a+)+$', '(x|x)*y', '(?:\\s*)*\\S']) {
    const split = { type: 'Split', pattern: { Regex: regex }, behavior: 'Isolated', invert: false };
    await assertRefused(
      () => lab.tokenizerFromHuggingFace(tinyJson({ pre_tokenizer: { type: 'Sequence', pretokenizers: [split] } })),
      new RegExp(
        `^tokenizer\\.json: pre_tokenizer\\.pretokenizers\\[0\\]\\.pattern\\.Regex: the Split regex ${JSON.stringify(
          regex,
        ).replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')} is not supported`,
      ),
    );
  }
});

test('100 MB of whitespace as the file is refused naming where it ends', async () => {
  await assertRefused(
    () => lab.tokenizerFromHuggingFace(' '.repeat(100 << 20)),
    /^tokenizer\.json: the top level: the text ends where an object was expected \(truncated\?\) \(line 1, column 104857601\)$/,
  );
});

test('100 MB of whitespace as text: refused naming the byte where the unsplittable run starts', async () => {
  for (const model of ['llama3', 'llama2']) {
    const { jsonText, configText } = readModelFiles(model);
    const tokenizer = await lab.tokenizerFromHuggingFace(jsonText, { config: configText });
    const text = `word ${' '.repeat(100 << 20)}`;
    await assertRefused(
      () => tokenizer.count(text),
      model === 'llama3'
        ? /^text: the text from byte 4 has no place to split it for 104857601 bytes \(the model merges at most 8 MiB/
        : /^text: the text from about byte \d+ \(of the normalized text\) has no place to split it for \d+ bytes/,
      () => tokenizer.count('x'),
    );
    // A stream of it is refused the same way: its buffer limit comes first.
    await assertRefused(
      async () => {
        for await (const ids of tokenizer.encodeStream([text])) {
          assert.ok(ids.length >= 0);
        }
      },
      /^options\.maxBufferBytes: found no place to cut the text/,
      () => tokenizer.count('x'),
    );
    assert.equal(tokenizer.count('word  word'), tokenizer.encode('word  word').length); // still usable
    tokenizer.dispose();
  }
});

test('the binary form truncated or corrupted anywhere is an Error, never a crash', async () => {
  const tokenizer = await lab.tokenizerFromHuggingFace(llama2.jsonText, { config: llama2.configText });
  const binary = tokenizer.save();
  tokenizer.dispose();
  const next = seededRandom(9);
  for (let i = 0; i < 40; i++) {
    const at = Math.floor(next() * binary.length);
    await assertRefused(
      () => lab.tokenizerFromHuggingFace(binary.subarray(0, at)),
      /binary HF tokenizer: |not a|unknown/,
    );
    const changed = binary.slice();
    changed[at] ^= 1 + Math.floor(next() * 255);
    await assertRefused(
      () => lab.tokenizerFromHuggingFace(changed),
      at < 8 ? /./ : /^binary HF tokenizer: the checksum does not match \(the data is truncated or corrupted\)$/,
    );
  }
  const loaded = await lab.tokenizerFromHuggingFace(binary);
  assert.deepEqual(loaded.encode(SAMPLE), helloIds);
  loaded.dispose();
});
