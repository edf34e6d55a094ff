// Bad input table for the tokenizer API (companion of bad_input.test.mjs; the model's: bad_input_model.test.mjs):
// each call fails with a JS error naming the argument and the allowed range, and the same tokenizer then still
// answers a valid call exactly as before.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';

import createEmbedLab from '../../dist/index.js';
import { checkError, tampered } from './bad_input_support.mjs';

let lab, tokenizer, gone, tokenizerFile, tokenizerBinary;

before(async () => {
  lab = await createEmbedLab();
  tokenizer = await lab.getTokenizer('r50k_base');
  gone = await lab.getTokenizer('r50k_base');
  gone.dispose();
  const trained = await lab.trainTokenizer('the dog bites the man. the man bites the dog. '.repeat(30), {
    vocabSize: 280,
  });
  tokenizerFile = trained.save();
  tokenizerBinary = trained.save({ binary: true });
  trained.dispose();
});

const TOKENIZER_CASES = [
  ['encode a number', () => tokenizer.encode(5), TypeError, /text must be a string or a Uint8Array, got 5/],
  ['encode without text', () => tokenizer.encode(), TypeError, /text must be a string or a Uint8Array, got undefined/],
  ['encode null', () => tokenizer.encode(null), TypeError, /text must be a string or a Uint8Array, got null/],
  [
    'encode a disallowed special token',
    () => tokenizer.encode('hi <|endoftext|>'),
    TypeError,
    /disallowed special token <\|endoftext\|> at byte 3/,
  ],
  ['encode options not an object', () => tokenizer.encode('x', 5), TypeError, /options must be an object, got 5/],
  [
    'encode option typo',
    () => tokenizer.encode('x', { allowSpecial: 'all' }),
    TypeError,
    /options has no option "allowSpecial" \(did you mean "allowedSpecial"\?\)/,
  ],
  [
    'count option typo',
    () => tokenizer.count('x', { disalowedSpecial: [] }),
    TypeError,
    /options has no option "disalowedSpecial" \(did you mean "disallowedSpecial"\?\)/,
  ],
  [
    'tokens option typo',
    () => tokenizer.tokens('x', { disalowedSpecial: [] }),
    TypeError,
    /options has no option "disalowedSpecial" \(did you mean "disallowedSpecial"\?\)/,
  ],
  [
    'isWithinTokenLimit option typo',
    () => tokenizer.isWithinTokenLimit('x', 5, { disalowedSpecial: [] }),
    TypeError,
    /options has no option "disalowedSpecial" \(did you mean "disallowedSpecial"\?\)/,
  ],
  [
    'allowedSpecial a number',
    () => tokenizer.encode('x', { allowedSpecial: 5 }),
    TypeError,
    /allowedSpecial must be 'all' or an array\/Set of special-token strings, got 5/,
  ],
  [
    'allowedSpecial unknown token',
    () => tokenizer.encode('x', { allowedSpecial: ['<|nope|>'] }),
    TypeError,
    /'<\|nope\|>' is not a special token of this tokenizer \(it has: <\|endoftext\|>\)/,
  ],
  [
    'encodeOrdinary an object',
    () => tokenizer.encodeOrdinary({}),
    TypeError,
    /text must be a string or a Uint8Array, got an object/,
  ],
  ['count a number', () => tokenizer.count(1), TypeError, /text must be a string or a Uint8Array, got 1/],
  ['tokens a number', () => tokenizer.tokens(1), TypeError, /text must be a string or a Uint8Array, got 1/],
  [
    'decode a string',
    () => tokenizer.decode('abc'),
    TypeError,
    /ids must be an array or typed array of token ids, got the string "abc"/,
  ],
  [
    'decode without ids',
    () => tokenizer.decode(),
    TypeError,
    /ids must be an array or typed array of token ids, got undefined/,
  ],
  [
    'decode id = vocabSize',
    () => tokenizer.decode([1, 50257]),
    RangeError,
    /ids\[1\]: 50257 is not a token id of r50k_base \(ids are in \[0, 50257\)\)/,
  ],
  [
    'decode id 1e12',
    () => tokenizer.decode([1e12]),
    RangeError,
    /ids\[0\] must be an integer in \[0, 4294967295\], got 1000000000000/,
  ],
  [
    'decode id negative',
    () => tokenizer.decode([-1]),
    RangeError,
    /ids\[0\] must be an integer in \[0, 4294967295\], got -1/,
  ],
  [
    'decode id NaN',
    () => tokenizer.decode([NaN]),
    RangeError,
    /ids\[0\] must be an integer in \[0, 4294967295\], got NaN/,
  ],
  ['decode id Infinity', () => tokenizer.decode([Infinity]), RangeError, /ids\[0\] .*got Infinity/],
  ['decode id 1.5', () => tokenizer.decode([1.5]), RangeError, /ids\[0\] .*got 1\.5/],
  [
    'decodeBytes id out of range',
    () => tokenizer.decodeBytes([60000]),
    RangeError,
    /ids\[0\]: 60000 is not a token id of r50k_base \(ids are in \[0, 50257\)\)/,
  ],
  [
    'tokenBytes id = vocabSize',
    () => tokenizer.tokenBytes(50257),
    RangeError,
    /id must be an integer in \[0, 50256\], got 50257/,
  ],
  ['tokenBytes negative', () => tokenizer.tokenBytes(-1), RangeError, /id must be an integer in \[0, 50256\], got -1/],
  ['tokenBytes NaN', () => tokenizer.tokenBytes(NaN), RangeError, /id must be an integer in \[0, 50256\], got NaN/],
  [
    'tokenBytes without id',
    () => tokenizer.tokenBytes(),
    TypeError,
    /id must be an integer in \[0, 50256\], got undefined/,
  ],
  [
    'streaming decoder id out of range',
    () => tokenizer.decoder().write([99999]),
    RangeError,
    /ids\[0\]: 99999 is not a token id of r50k_base/,
  ],
  ['save options a number', () => tokenizer.save(5), TypeError, /options must be an object, got 5/],
  ['disposed tokenizer encode', () => gone.encode('x'), Error, /Tokenizer has been disposed/],
  ['disposed tokenizer decode', () => gone.decode([1]), Error, /Tokenizer has been disposed/],
  [
    'loadTokenizer a number',
    () => lab.loadTokenizer(5),
    TypeError,
    /bytes must be a Uint8Array from tokenizer\.save\(\), got 5/,
  ],
  [
    'loadTokenizer without bytes',
    () => lab.loadTokenizer(),
    TypeError,
    /bytes must be a Uint8Array from tokenizer\.save\(\), got undefined/,
  ],
  [
    'loadTokenizer empty file',
    () => lab.loadTokenizer(new Uint8Array()),
    TypeError,
    /tokenizer file: the first line must start with '#embedlab-bpe '/,
  ],
  [
    'loadTokenizer plain text',
    () => lab.loadTokenizer('hello'),
    TypeError,
    /tokenizer file: the first line must start with '#embedlab-bpe '/,
  ],
  [
    'loadTokenizer truncated in the header',
    () => lab.loadTokenizer(tokenizerFile.slice(0, 40)),
    TypeError,
    /tokenizer file: the header is not a JSON object/,
  ],
  [
    'loadTokenizer truncated in the vocabulary',
    () => lab.loadTokenizer(tokenizerFile.slice(0, tokenizerFile.length >> 1)),
    TypeError,
    /line \d+/,
  ],
  [
    'loadTokenizer tampered magic',
    () => lab.loadTokenizer(tampered(tokenizerFile, 3, 0x41)),
    TypeError,
    /the first line must start with '#embedlab-bpe '/,
  ],
  [
    'loadTokenizer truncated binary',
    () => lab.loadTokenizer(tokenizerBinary.slice(0, 100)),
    TypeError,
    /binary vocabulary: the data is truncated/,
  ],
  [
    'loadTokenizer binary of another format',
    () => lab.loadTokenizer(tampered(tokenizerBinary, tokenizerBinary.indexOf(0x0a) + 8 /* the 2 of EMBLVOC2 */, 0x39)),
    TypeError,
    /binary vocabulary: not an EMBLVOC2 \(or EMBLVOC1\) file/,
  ],
];

// One subtest per case, so that every case is counted and reported (a known-bad case does not hide the rest).
test(`tokenizer bad input table (${TOKENIZER_CASES.length} cases), then a valid call still works`, async (t) => {
  const ids = tokenizer.encode('hello world, again');
  for (const [name, call, type, message] of TOKENIZER_CASES) {
    await t.test(name, async () => {
      // A thrown error or a rejected Promise (some calls are async), each with the type and message of the case.
      await assert.rejects(async () => call(), checkError(name, type, message), name);
      assert.deepEqual(tokenizer.encode('hello world, again'), ids, `tokenizer still works after: ${name}`);
      assert.equal(tokenizer.decode(ids), 'hello world, again');
    });
  }
});
