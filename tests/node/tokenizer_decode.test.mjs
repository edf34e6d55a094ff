// decode() and decodeBytes() take a plain Array or a typed array, short or longer than one part (tokenizer/parts.js):
// every path gives tiktoken's bytes, and as a string what TextDecoder makes of them (invalid UTF-8 → U+FFFD); the
// ASCII fast path is taken only when every part is ASCII; a bad id is named at its index in the whole array.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { get_encoding } from 'tiktoken';

import createEmbedLab from '../../dist/index.js';
import { LARGE_IDS, PART_IDS } from '../../dist/tokenizer/parts.js';
import { textOfBytes, transcodes } from '../../dist/tokenizer/text_of_bytes.js';

const lab = await createEmbedLab();
const utf8 = new TextDecoder('utf-8');
const NAMES = ['r50k_base', 'p50k_base', 'cl100k_base', 'o200k_base'];

// `count` seeded ids below 50,000: ordinary tokens of all four vocabularies, single bytes (lone continuation bytes,
// cut characters) among them.
function randomIds(count, seed) {
  let state = seed >>> 0;
  const ids = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    ids[i] = i % 5 === 0 ? state % 256 : state % 50000;
  }
  return ids;
}

for (const name of NAMES) {
  test(`${name}: decode of random ids as Array, Uint32Array, Int32Array and Float64Array equals tiktoken's bytes through TextDecoder, short and over ${LARGE_IDS} ids`, async () => {
    const tokenizer = await lab.getTokenizer(name);
    const reference = get_encoding(name);
    for (const [count, seed] of [
      [1, 1],
      [1000, 2],
      [LARGE_IDS + 12345, 3],
    ]) {
      const ids = randomIds(count, seed);
      const bytes = reference.decode(ids);
      const text = utf8.decode(bytes);
      assert.ok(text.includes('\ufffd'), 'the ids include invalid UTF-8');
      for (const kind of [Array.from(ids), ids, Int32Array.from(ids), Float64Array.from(ids)]) {
        const label = `${count} ids as ${kind.constructor.name}`;
        assert.equal(tokenizer.decode(kind), text, label);
        assert.deepEqual(tokenizer.decodeBytes(kind), bytes, label);
      }
    }
    reference.free();
    tokenizer.dispose();
  });
}

test('over one part: the ASCII fast path only when every part is ASCII; a character cut between parts', async () => {
  const tokenizer = await lab.getTokenizer('cl100k_base');
  const ascii = tokenizer.encode('ab '.repeat(LARGE_IDS)); // 'ab' and ' ab' are one token each
  assert.ok(ascii.length > LARGE_IDS);
  const euro = tokenizer.encode('€');
  const crab = tokenizer.encode('🦀');
  assert.ok(crab.length > 1, 'the crab is several tokens');
  const join = (...arrays) => Uint32Array.from(arrays.flatMap((a) => Array.from(a)));
  for (const [label, ids] of [
    ['all ASCII', ascii],
    ['€ in the first part only', join(euro, ascii)],
    ['€ in the last part only', join(ascii, euro)],
    ['a crab cut where the first part ends', join(ascii.subarray(0, PART_IDS - 1), crab, ascii)],
  ]) {
    const expected = utf8.decode(tokenizer.decodeBytes(ids));
    assert.equal(tokenizer.decode(ids), expected, label);
    assert.equal(tokenizer.decode(Array.from(ids)), expected, `${label}, Array`);
  }
  assert.equal(tokenizer.decode(join(ascii.subarray(0, PART_IDS - 1), crab, ascii)).includes('🦀'), true);
  assert.equal(tokenizer.decode(join(ascii, euro)).endsWith('ab €'), true);
  tokenizer.dispose();
});

test('a bad id deep in a long plain Array is named at its index in the whole array, and the tokenizer still works', async () => {
  const tokenizer = await lab.getTokenizer('r50k_base');
  const ids = Array.from(randomIds(LARGE_IDS + 100, 4));
  const at = PART_IDS + 7;
  for (const [bad, error] of [
    ['7', { name: 'TypeError', message: new RegExp(`^ids\\[${at}\\] must be an integer token id, got`) }],
    [
      1.5,
      {
        name: 'RangeError',
        message: new RegExp(`^ids\\[${at}\\] must be an integer in \\[0, 4294967295\\], got 1\\.5`),
      },
    ],
    [-1, { name: 'RangeError', message: new RegExp(`^ids\\[${at}\\] must be an integer`) }],
    [2 ** 32, { name: 'RangeError', message: new RegExp(`^ids\\[${at}\\] must be an integer`) }],
    [50257, { message: new RegExp(`ids\\[${at}\\]: 50257 is not a token id`) }],
  ]) {
    const copy = ids.slice();
    copy[at] = bad;
    assert.throws(() => tokenizer.decode(copy), error, `decode with ${bad}`);
    assert.throws(() => tokenizer.decodeBytes(copy), error, `decodeBytes with ${bad}`);
  }
  const valueOf = ids.slice();
  let called = false;
  valueOf[at] = {
    valueOf() {
      called = true;
      return 1;
    },
  };
  assert.throws(() => tokenizer.decode(valueOf), { name: 'TypeError' });
  assert.equal(called, false, 'no valueOf is called');
  assert.equal(tokenizer.decode([15496, 995]), 'Hello world');
  tokenizer.dispose();
});

test('textOfBytes: what TextDecoder gives, on the transcoding path (node) and off it', () => {
  assert.equal(transcodes, typeof process.getBuiltinModule === 'function', 'node >= 20.16 transcodes');
  const encoder = new TextEncoder();
  const words = 'naïve Straße слово λόγος 日本語 中文 👍🏽 \u0000 text ';
  const valid = encoder.encode(words.repeat(200)); // over TRANSCODE_BYTES
  const concat = (...arrays) => Uint8Array.from(arrays.flatMap((a) => Array.from(a)));
  for (const [label, bytes] of [
    ['valid, long', valid],
    ['valid, short', valid.subarray(0, 100)],
    ['a leading byte-order mark (TextDecoder drops it)', concat([0xef, 0xbb, 0xbf], valid)],
    ['a byte-order mark inside (kept)', concat(valid, [0xef, 0xbb, 0xbf], valid)],
    ['a cut character', concat(valid, [0xe2, 0x82], valid)],
    ['a lone continuation byte at the end', concat(valid, [0x80])],
    ['an encoded surrogate', concat(valid, [0xed, 0xa0, 0x80], valid)],
    ['an overlong', concat([0xc0, 0xaf], valid)],
  ]) {
    assert.equal(textOfBytes(bytes, false), utf8.decode(bytes), label);
  }
  const ascii = encoder.encode('plain ASCII text\n'.repeat(300));
  assert.equal(textOfBytes(ascii, true), utf8.decode(ascii));
});
