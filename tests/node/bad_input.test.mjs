// Bad input table: each call fails with a JS error naming the argument and the allowed range, and the same
// instance then still answers a valid call correctly.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';

import createEmbedLab from '../../dist/index.js';

let lab, embedding, sinusoidal, learned, attention, disposed;
before(async () => {
  lab = await createEmbedLab();
  embedding = lab.tokenEmbedding({ vocabSize: 10, dim: 8, seed: 1 });
  sinusoidal = lab.positionalEncoding('sinusoidal', { dim: 8, maxLength: 16 });
  learned = lab.positionalEncoding('learned', { dim: 8, maxLength: 16 });
  attention = lab.selfAttention({ dim: 8 });
  disposed = lab.tokenEmbedding({ vocabSize: 10, dim: 8 });
  disposed.dispose();
});

const CASES = [
  [
    'tokenEmbedding without options',
    () => lab.tokenEmbedding(),
    TypeError,
    /vocabSize must be an integer in \[1, 2097152\], got undefined/,
  ],
  [
    'tokenEmbedding options not an object',
    () => lab.tokenEmbedding(5),
    TypeError,
    /options must be an options object, got 5/,
  ],
  [
    'vocabSize as a string',
    () => lab.tokenEmbedding({ vocabSize: '10', dim: 8 }),
    TypeError,
    /vocabSize .*got the string "10"/,
  ],
  [
    'vocabSize 0',
    () => lab.tokenEmbedding({ vocabSize: 0, dim: 8 }),
    RangeError,
    /vocabSize must be an integer in \[1, 2097152\], got 0/,
  ],
  ['vocabSize negative', () => lab.tokenEmbedding({ vocabSize: -3, dim: 8 }), RangeError, /vocabSize .*got -3/],
  ['vocabSize NaN', () => lab.tokenEmbedding({ vocabSize: NaN, dim: 8 }), RangeError, /vocabSize .*got NaN/],
  [
    'dim Infinity',
    () => lab.tokenEmbedding({ vocabSize: 10, dim: Infinity }),
    RangeError,
    /dim must be an integer in \[1, 16384\], got Infinity/,
  ],
  [
    'dim 1e9',
    () => lab.tokenEmbedding({ vocabSize: 10, dim: 1e9 }),
    RangeError,
    /dim must be an integer in \[1, 16384\], got 1000000000/,
  ],
  ['dim 2.5', () => lab.tokenEmbedding({ vocabSize: 10, dim: 2.5 }), RangeError, /dim .*got 2\.5/],
  [
    'table over 1 GiB',
    () => lab.tokenEmbedding({ vocabSize: 2 ** 21, dim: 16384 }),
    RangeError,
    /limit is 268435456 floats/,
  ],
  [
    'seed negative',
    () => lab.tokenEmbedding({ vocabSize: 10, dim: 8, seed: -1 }),
    RangeError,
    /seed must be an integer in \[0, 9007199254740992\], got -1/,
  ],
  [
    'stddev NaN',
    () => lab.tokenEmbedding({ vocabSize: 10, dim: 8, stddev: NaN }),
    RangeError,
    /stddev must be a finite number in \[0, 100\], got NaN/,
  ],
  [
    'unknown positional kind',
    () => lab.positionalEncoding('rotary', { dim: 8 }),
    TypeError,
    /kind must be 'sinusoidal', 'learned' or 'none', got the string "rotary"/,
  ],
  [
    'odd dim for sinusoidal',
    () => lab.positionalEncoding('sinusoidal', { dim: 7 }),
    RangeError,
    /dim must be even for the sinusoidal encoding .*got 7/,
  ],
  [
    'maxLength 0',
    () => lab.positionalEncoding('sinusoidal', { dim: 8, maxLength: 0 }),
    RangeError,
    /maxLength must be an integer in \[1, 65536\], got 0/,
  ],
  [
    'maxLength above the cap',
    () => lab.positionalEncoding('learned', { dim: 8, maxLength: 70000 }),
    RangeError,
    /maxLength .*\[1, 65536\], got 70000/,
  ],
  [
    'base NaN',
    () => lab.positionalEncoding('sinusoidal', { dim: 8, base: NaN }),
    RangeError,
    /base must be a finite number in \[1, 1000000000000\], got NaN/,
  ],
  ['base 0', () => lab.positionalEncoding('sinusoidal', { dim: 8, base: 0 }), RangeError, /base .*got 0/],
  [
    'ids not an array',
    () => embedding.lookup('dog'),
    TypeError,
    /ids must be an array or typed array of token ids, got the string "dog"/,
  ],
  [
    'id out of range',
    () => embedding.lookup([1, 10]),
    RangeError,
    /ids\[1\] must be in \[0, 9\] \(vocabSize 10\), got 10/,
  ],
  ['id negative', () => embedding.lookup([-1]), RangeError, /ids\[0\] must be an integer in \[0, 2147483647\], got -1/],
  ['id fractional', () => embedding.lookup([0.5]), RangeError, /ids\[0\] .*got 0\.5/],
  ['id null', () => embedding.lookup([null]), TypeError, /ids\[0\] must be an integer token id, got null/],
  [
    'position beyond maxLength',
    () => sinusoidal.table(17),
    RangeError,
    /length must be in \[0, 16\] so that offset \+ length <= maxLength \(16\), got length 17/,
  ],
  ['row beyond maxLength', () => sinusoidal.row(16), RangeError, /position must be an integer in \[0, 15\], got 16/],
  ['setRow wrong length', () => learned.setRow(0, [1, 2]), RangeError, /values\.length must be 8, got 2/],
  [
    'setRow NaN value',
    () => learned.setRow(0, [0, 0, NaN, 0, 0, 0, 0, 0]),
    RangeError,
    /values\[2\] must be a finite number, got NaN/,
  ],
  [
    'compose past maxLength',
    () => lab.compose([1, 2, 3], { embedding, positional: sinusoidal, offset: 14 }),
    RangeError,
    /offset \+ length <= maxLength \(16\)/,
  ],
  [
    'compose without embedding',
    () => lab.compose([1], {}),
    TypeError,
    /embedding must be a TokenEmbedding from this EmbedLab, got undefined/,
  ],
  [
    'compose with a wrong positional',
    () => lab.compose([1], { embedding, positional: embedding }),
    TypeError,
    /positional must be a PositionalEncoding/,
  ],
  [
    'compose with mismatched dims',
    () => lab.compose([1], { embedding, positional: lab.positionalEncoding('none', { dim: 4 }) }),
    RangeError,
    /positional\.dim must equal embedding\.dim \(8\), got 4/,
  ],
  [
    'compare with an empty sequence',
    () => lab.compare([], [1], { embedding }),
    RangeError,
    /idsA\.length must be an integer in \[1, 65536\], got 0/,
  ],
  [
    'compare with attention of another dim',
    () => lab.compare([1], [1], { embedding, attention: lab.selfAttention({ dim: 4 }) }),
    RangeError,
    /attention\.dim must equal embedding\.dim \(8\), got 4/,
  ],
  ['disposed embedding', () => disposed.lookup([1]), Error, /TokenEmbedding has been disposed/],
  [
    'disposed embedding passed on',
    () => lab.compose([1], { embedding: disposed }),
    Error,
    /embedding has been disposed/,
  ],
  [
    'causal not boolean',
    () => lab.selfAttention({ dim: 8, causal: 'yes' }),
    TypeError,
    /causal must be true or false, got the string "yes"/,
  ],
  [
    'forward with a ragged input',
    () => attention.forward([1, 2, 3]),
    RangeError,
    /vectors\.length must be a multiple of dim \(8\), got 3/,
  ],
  ['kernel length mismatch', () => lab.kernels.dot([1, 2], [1]), RangeError, /b\.length must be 2, got 1/],
  ['kernel non-numbers', () => lab.kernels.norm(['a']), TypeError, /a\[0\] must be a number, got the string "a"/],
  [
    'cosineMatrix dim not dividing',
    () => lab.kernels.cosineMatrix([1, 2, 3], [1, 2], 2),
    RangeError,
    /dim must be a positive integer that divides a\.length \(3\)/,
  ],
];

test(`bad input table (${CASES.length} cases): clear errors, then a valid call still works`, () => {
  const expected = embedding.lookup([3]);
  for (const [name, call, type, message] of CASES) {
    assert.throws(
      call,
      (error) => {
        assert.ok(
          error instanceof type,
          `${name}: expected ${type.name}, got ${error.constructor.name}: ${error.message}`,
        );
        assert.match(error.message, message, name);
        return true;
      },
      name,
    );
    assert.deepEqual(embedding.lookup([3]), expected, `instance still works after: ${name}`);
  }
});

test('createEmbedLab rejects bad options', async () => {
  await assert.rejects(createEmbedLab({ simd: 'yes' }), {
    name: 'TypeError',
    message: /options\.simd must be true, false or 'auto'/,
  });
  await assert.rejects(createEmbedLab(null), { name: 'TypeError', message: /options must be an object, got null/ });
});
