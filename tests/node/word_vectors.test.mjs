// GloVe / word2vec text files through the package: parsed by the C++ parser, searched with the kernels.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';

import createEmbedLab from '../../dist/index.js';
import { cosine } from './reference.mjs';

let lab;
before(async () => {
  lab = await createEmbedLab();
});

const FILE = ['4 3', 'king 0.8 0.6 0.1', 'queen 0.75 0.65 0.2', 'apple -0.2 0.1 0.97', 'pear -0.1 0.2 0.9', ''].join(
  '\r\n',
);

test('a word2vec file with a header parses into words and vectors', async () => {
  const vectors = await lab.loadWordVectors(FILE);
  assert.deepEqual(vectors.words, ['king', 'queen', 'apple', 'pear']);
  assert.equal(vectors.dim, 3);
  assert.deepEqual(Array.from(vectors.vector('apple')), [-0.2, 0.1, 0.97].map(Math.fround));
});

test('nearest() ranks by cosine like a double-precision reference', async () => {
  const vectors = await lab.loadWordVectors(new TextEncoder().encode(FILE));
  const found = vectors.nearest('king', 3);
  const expected = ['queen', 'apple', 'pear']
    .map((word) => ({ word, cosine: cosine(vectors.vector('king'), vectors.vector(word)) }))
    .sort((a, b) => b.cosine - a.cosine);
  assert.deepEqual(
    found.map((entry) => entry.word),
    expected.map((entry) => entry.word),
  );
  found.forEach((entry, i) => assert.ok(Math.abs(entry.cosine - expected[i].cosine) <= 2e-6));
});

test('malformed files name the line; the instance keeps working', async () => {
  await assert.rejects(lab.loadWordVectors('a 1 2\nb 1\n'), { name: 'TypeError', message: /line 2/ });
  await assert.rejects(lab.loadWordVectors('a 1 nan\n'), { name: 'TypeError', message: /line 1/ });
  await assert.rejects(lab.loadWordVectors('3 2\na 1 2\n'), /header/);
  await assert.rejects(lab.loadWordVectors(42), { name: 'TypeError', message: /source must be text/ });
  assert.equal((await lab.loadWordVectors('x 1 2\n')).dim, 2);
});
