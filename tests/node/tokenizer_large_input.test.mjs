// Large inputs are encoded in parts inside the library (tokenizer/parts.js): the ids are tiktoken's, the spans tile
// the input, errors name the byte in the whole text, and the wasm memory grows by a bounded amount, not with the text.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { get_encoding } from 'tiktoken';

import createEmbedLab from '../../dist/index.js';
import { LARGE_INPUT, PART_IDS } from '../../dist/tokenizer/parts.js';

const lab = await createEmbedLab();
const encoder = new TextEncoder();

// A seeded, varied text of about `length` code units: words in several scripts, numbers, punctuation, line breaks,
// CJK runs with their punctuation, emoji, special-token text now and then.
function variedText(length, seed) {
  const words = [
    'the',
    'Quick',
    'fox',
    "don't",
    'naïve',
    'Straße',
    'слово',
    'λόγος',
    '日本語',
    '中文',
    'ひらがな',
    '👍🏽',
    'é',
  ];
  const glue = [' ', ' ', ' ', ', ', '. ', '\n', '\n\n', '\r\n', '。', '、', '  ', '\t', '/', '<|endoftext|>'];
  let state = seed >>> 0;
  const next = (n) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return Math.floor((state / 2 ** 32) * n);
  };
  const parts = [];
  for (let size = 0; size < length;) {
    const word = next(8) === 0 ? String(next(1e6)) : words[next(words.length)];
    const part = word + glue[next(glue.length)];
    parts.push(part);
    size += part.length;
  }
  return parts.join('');
}

const tokenizers = {
  cl100k_base: await lab.getTokenizer('cl100k_base'),
  o200k_base: await lab.getTokenizer('o200k_base'),
};
const ALL = { allowedSpecial: 'all' };

test('encode and count of texts larger than one part give tiktoken ids (cl100k, o200k)', () => {
  const text = variedText(2 * LARGE_INPUT + 30000, 1);
  for (const [name, tokenizer] of Object.entries(tokenizers)) {
    const reference = get_encoding(name);
    const expected = reference.encode(text, 'all');
    reference.free();
    const ids = tokenizer.encode(text, ALL);
    assert.equal(ids.length, expected.length, name);
    assert.ok(
      ids.every((id, i) => id === expected[i]),
      `${name}: ids differ`,
    );
    assert.equal(tokenizer.count(text, ALL), expected.length);
    assert.deepEqual(tokenizer.encode(encoder.encode(text), ALL), ids, `${name}: bytes input`);
    const ordinary = variedText(LARGE_INPUT + 30000, 2).replaceAll('<|endoftext|>', '<|');
    assert.equal(tokenizer.encodeOrdinary(ordinary).length, tokenizer.count(ordinary));
  }
});

test("tokens() of a large text: spans tile the input and each holds its token's bytes", () => {
  const tokenizer = tokenizers.o200k_base;
  const text = variedText(LARGE_INPUT + 50000, 3);
  const bytes = encoder.encode(text);
  const tokens = tokenizer.tokens(text, ALL);
  assert.deepEqual(
    tokens.map((t) => t.id),
    Array.from(tokenizer.encode(text, ALL)),
  );
  let at = 0;
  for (const token of tokens) {
    assert.equal(token.start, at);
    assert.equal(token.end - token.start, tokenizer.tokenBytes(token.id).length, `token at byte ${at}`);
    at = token.end;
  }
  assert.equal(at, bytes.length);
  assert.deepEqual(tokens.at(-1).bytes, bytes.subarray(tokens.at(-1).start)); // the last part's spans are shifted
});

test('a disallowed special token deep in a large text is named at its byte in the whole text', () => {
  const tokenizer = tokenizers.cl100k_base;
  const head = variedText(3 * LARGE_INPUT, 4).replaceAll('<|endoftext|>', '<|');
  const text = `${head} x <|endoftext|> y`;
  const at = encoder.encode(head).length + 3;
  assert.throws(() => tokenizer.count(text), {
    message: new RegExp(`disallowed special token <\\|endoftext\\|> at byte ${at};`),
  });
  assert.throws(() => tokenizer.encode(encoder.encode(text)), new RegExp(`at byte ${at};`));
});

test('decode and decodeBytes of long id arrays: a character split between parts, errors at the right index', () => {
  const tokenizer = tokenizers.cl100k_base;
  // 'a' and ' a' are one token each, so the crab's three tokens straddle the first part's end.
  const text = `a${' a'.repeat(PART_IDS - 2)}🦀${' b'.repeat(PART_IDS + 10)}`;
  const ids = tokenizer.encode(text);
  assert.ok(tokenizer.decode(ids.subarray(PART_IDS - 1, PART_IDS)).includes('\ufffd'), 'the boundary splits the crab');
  assert.equal(tokenizer.decode(ids), text);
  assert.equal(tokenizer.decode(Array.from(ids)), text);
  assert.deepEqual(tokenizer.decodeBytes(ids), encoder.encode(text));
  const bad = ids.slice();
  bad[PART_IDS + 5] = 4e9;
  assert.throws(() => tokenizer.decode(bad), new RegExp(`ids\\[${PART_IDS + 5}\\]: 4000000000 is not a token id`));
});

test("encode, count and decode of 12 MB grow the wasm memory by less than 24 MiB (one part's buffers, not the text's)", () => {
  const tokenizer = tokenizers.o200k_base;
  const text = variedText(12e6, 5);
  const bytes = encoder.encode(text);
  const ids = tokenizer.encode(bytes, ALL);
  for (const [what, run] of [
    ['count(string)', () => tokenizer.count(text, ALL)],
    ['encode(bytes)', () => tokenizer.encode(bytes, ALL).length],
    ['encodeOrdinary(string)', () => tokenizer.encodeOrdinary(text).length],
    ['decode', () => tokenizer.decode(ids).length],
    ['decodeBytes', () => tokenizer.decodeBytes(ids).length],
  ]) {
    const before = lab.memory().heapBytes;
    assert.ok(run() > 3e6, what);
    const growth = lab.memory().heapBytes - before;
    // Whole, the text and its ids took ~80 MB: the input (x3 for a string's worst case), the ids and their growth;
    // decoding took ~55 MB (the ids and the bytes).
    assert.ok(growth < 24 * 2 ** 20, `${what}: the wasm memory grew by ${(growth / 2 ** 20).toFixed(1)} MiB`);
  }
});
