// GloVe text written by the package (SIMD and fallback modules): byte for byte what the page wrote before in
// JS (String(Number(v.toPrecision(9))) per value, the independent reference here), and a round trip through
// lab.loadWordVectors that gives back every float32 bit for bit.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import createEmbedLab from '../../dist/index.js';
import { testVector } from './reference.mjs';

// web/js/sections/embeddings/glove_text.js gloveText before it used the package, for words that are all kept.
function formerPageText(words, table, dim) {
  const lines = words.map((word, i) => {
    const values = Array.from(table.subarray(i * dim, (i + 1) * dim), (v) => String(Number(v.toPrecision(9))));
    return `${word} ${values.join(' ')}`;
  });
  return `${lines.join('\n')}\n`;
}

// Floats whose text takes every form: exponents both ways, the -6 < n ≤ 21 bounds, exact ties, extremes.
const SPECIAL = [
  0,
  -0,
  1,
  -2.5,
  0.1,
  1e-7,
  1e-6,
  1e-5,
  1e20,
  1e21,
  123456789,
  16777.21875,
  -16777.21875,
  99999999.5,
  1.401298464324817e-45,
  1.1754943508222875e-38,
  3.4028234663852886e38,
  -3.4028234663852886e38,
  0.5,
  1 / 3,
];

for (const simd of [true, false]) {
  describe(`wordVectorsText (${simd ? 'SIMD128' : 'fallback'})`, () => {
    let lab;
    before(async () => {
      lab = await createEmbedLab({ simd });
    });

    test("the page's former text, byte for byte, for random and special values", () => {
      const dim = 10;
      const words = Array.from({ length: 50 }, (_, i) => `w${i}`);
      const table = testVector(words.length * dim, 3).map((v, i) => v * 10 ** ((i % 13) - 6));
      assert.equal(lab.wordVectorsText(words, table, dim), formerPageText(words, table, dim));
      const special = Float32Array.from(SPECIAL);
      const names = SPECIAL.map((_, i) => `s${i}`);
      assert.equal(lab.wordVectorsText(names, special, 1), formerPageText(names, special, 1));
      // Random bit patterns of finite floats cover every exponent.
      const bits = new Uint32Array(4000);
      let state = 12345;
      for (let i = 0; i < bits.length; i++) {
        state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
        bits[i] = (state & 0x7f800000) === 0x7f800000 ? state ^ 0x40000000 : state;
      }
      const floats = new Float32Array(bits.buffer);
      const many = Array.from({ length: 400 }, (_, i) => `b${i}`);
      assert.equal(lab.wordVectorsText(many, floats, 10), formerPageText(many, floats, 10));
    });

    test('loadWordVectors reads the text back: the same words and the same float32 bits', async () => {
      const words = ['the', 'dog', 'bites', 'man', 'ünïcödé', '狗', '1'];
      const dim = 5;
      const table = testVector(words.length * dim, 8);
      table.set([1e-30, -3e30, 1.401298464324817e-45], 2);
      const vectors = await lab.loadWordVectors(lab.wordVectorsText(words, table, dim));
      assert.deepEqual(vectors.words, words);
      assert.equal(vectors.dim, dim);
      assert.deepEqual(new Uint32Array(vectors.vectors.buffer), new Uint32Array(table.buffer));
      assert.equal(lab.wordVectorsText([], [], 3), '');
    });

    test('bad arguments throw errors that name them', () => {
      assert.throws(() => lab.wordVectorsText(['a b'], [1], 1), { name: 'TypeError', message: /words\[0\]/ });
      assert.throws(() => lab.wordVectorsText([''], [1], 1), { name: 'TypeError', message: /words\[0\]/ });
      assert.throws(() => lab.wordVectorsText(['a', 'b\n'], [1, 2], 1), { name: 'TypeError', message: /words\[1\]/ });
      assert.throws(() => lab.wordVectorsText([1], [1], 1), { name: 'TypeError', message: /words\[0\]/ });
      assert.throws(() => lab.wordVectorsText('a', [1], 1), { name: 'TypeError', message: /words/ });
      assert.throws(() => lab.wordVectorsText(['a'], [1, 2], 1), { name: 'RangeError', message: /table\.length/ });
      assert.throws(() => lab.wordVectorsText(['a'], [1], 0), { name: 'RangeError', message: /dim/ });
      assert.throws(() => lab.wordVectorsText(['a'], [Infinity], 1), { name: 'RangeError', message: /table\[0\]/ });
    });
  });
}
