// Regressions for defects a new user met (issue "good citizen", item 7): each asserts the clear error or the
// sensible default that replaced the confusing one.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';

import createEmbedLab from '../../dist/index.js';

let lab;
before(async () => {
  lab = await createEmbedLab();
});

test("getTokenizer('toString' | '__proto__' | 'constructor') is an unknown name, not a file lookup", async () => {
  for (const name of ['toString', '__proto__', 'constructor', 'hasOwnProperty']) {
    await assert.rejects(lab.getTokenizer(name), (error) => {
      assert.match(error.message, /^name must be one of gpt2, /);
      assert.doesNotMatch(error.message, /ENOENT|emblvoc/);
      return true;
    });
  }
  assert.throws(
    () => lab.tokenizerFromVocabulary({ tiktoken: 'YQ== 0\n', encoding: 'toString' }),
    /files.encoding must be one of gpt2, /,
  );
});

test('WordVectors.nearest: its default k works on a small file, an unknown word is named as such', async () => {
  const vectors = await lab.loadWordVectors('a 1 0\nb 0 1\nc 1 1\n');
  const near = vectors.nearest('a');
  assert.deepEqual(
    near.map(({ word }) => word),
    ['c', 'b'],
  );
  assert.equal(near[0].cosine, Math.fround(1 / Math.sqrt(2)));
  assert.equal(vectors.nearest([1, 0]).length, 3);
  assert.throws(() => vectors.nearest('zzz'), /query must be a word of the file, got the string "zzz"/);
  assert.throws(() => vectors.nearest('a', 4), /k must be an integer in \[1, 3\]/);
});

test('positionalEncoding without its kind names the kind, not dim', () => {
  assert.throws(() => lab.positionalEncoding({ dim: 8 }), /^TypeError: kind must be 'sinusoidal', 'learned' or 'none'/);
  assert.throws(() => lab.positionalEncoding('rope', { dim: 8 }), /kind must be .* got the string "rope"/);
});

test('model.config shows the optimizer settings as given, not float32 expansions', () => {
  const model = lab.createModel({ vocabSize: 16, optimizer: { learningRate: 1e-3, weightDecay: 0.1, beta2: 0.95 } });
  assert.deepEqual(model.config.optimizer, {
    learningRate: 0.001,
    beta1: 0.9,
    beta2: 0.95,
    eps: 1e-8,
    weightDecay: 0.1,
    maxGradNorm: 1,
  });
  assert.equal(lab.loadModel(model.save()).config.optimizer.learningRate, 0.001);
  model.dispose();
});

test('model.train takes an async batch source and refuses a signal that is not an AbortSignal', async () => {
  const model = lab.createModel({ vocabSize: 16, contextLength: 8, seed: 2 });
  const batch = { ids: [[1, 2, 3, 4]], targets: [[2, 3, 4, 5]] };
  const { losses } = await model.train({ steps: 3, batches: async () => batch });
  assert.equal(losses.length, 3);
  assert.equal(model.step, 3);
  await assert.rejects(
    model.train({ steps: 1, batches: () => batch, signal: { aborted: 'no' } }),
    /signal must be an AbortSignal/,
  );
  await assert.rejects(model.train({ steps: 1, batches: () => batch, signal: null }), /signal must be an AbortSignal/);
  const controller = new AbortController();
  controller.abort();
  assert.deepEqual(await model.train({ steps: 2, batches: () => batch, signal: controller.signal }), {
    losses: [],
    aborted: true,
  });
  model.dispose();
});

test('readSafetensors reads a file with a U8 tensor; only that tensor is refused, as floats', async () => {
  const header = JSON.stringify({
    w: { dtype: 'F32', shape: [2], data_offsets: [0, 8] },
    q: { dtype: 'U8', shape: [4], data_offsets: [8, 12] },
  });
  const bytes = new Uint8Array(8 + header.length + 12);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(header.length), true);
  bytes.set(new TextEncoder().encode(header), 8);
  new DataView(bytes.buffer).setFloat32(8 + header.length, 0.5, true);
  new DataView(bytes.buffer).setFloat32(12 + header.length, -2, true);
  const file = await lab.readSafetensors(bytes);
  assert.deepEqual(
    file.tensors.map(({ name, dtype }) => [name, dtype]),
    [
      ['w', 'F32'],
      ['q', 'U8'],
    ],
  );
  assert.deepEqual(Array.from(await file.get('w')), [0.5, -2]);
  await assert.rejects(file.get('q'), /tensor "q" has dtype U8, not a float type/);
  assert.deepEqual(Array.from(await file.get('w')), [0.5, -2]); // the file still works
  file.dispose();
});

test("tokenizerFromVocabulary refuses another encoding's .tiktoken file under a name, and takes the right one", async () => {
  const cl100k = await lab.getTokenizer('cl100k_base');
  const saved = new TextDecoder().decode(cl100k.save());
  const plain = saved.slice(saved.indexOf('\n') + 1); // the .tiktoken text behind the header line
  assert.throws(
    () => lab.tokenizerFromVocabulary({ tiktoken: plain, encoding: 'o200k_base' }),
    /o200k_base has 199998 tokens with " the" at rank 290; this file has 100256 tokens and " the" at rank 279/,
  );
  assert.throws(() => lab.tokenizerFromVocabulary({ tiktoken: plain, encoding: 'r50k_base' }), /another encoding/);
  const loaded = lab.tokenizerFromVocabulary({ tiktoken: plain, encoding: 'cl100k_base' });
  const text = 'Who did what to whom? 狗咬人 <|endoftext|>';
  assert.deepEqual(loaded.encode(text, { allowedSpecial: 'all' }), cl100k.encode(text, { allowedSpecial: 'all' }));
  loaded.dispose();
  cl100k.dispose();
});

test('option typos are refused with the closest known name, not ignored', async () => {
  assert.throws(
    () => lab.tokenEmbedding({ vocabSize: 3, dim: 4, sed: 1 }),
    /options has no option "sed" \(did you mean "seed"\?\); its options are vocabSize, dim, seed, stddev/,
  );
  assert.throws(() => lab.positionalEncoding('sinusoidal', { dim: 4, maxLenght: 8 }), /did you mean "maxLength"/);
  assert.throws(
    () => lab.tokenizerFromVocabulary({ tiktokn: 'YQ== 0' }),
    /files has no option "tiktokn" \(did you mean "tiktoken"\?\)/,
  );
  await assert.rejects(lab.trainTokenizer('abc', { vocabSize: 300, patern: 'gpt2' }), /did you mean "pattern"/);
  assert.throws(() => lab.corpusBatches([1, 2, 3, 4], { batch: 1, length: 2, seeds: 1 }), /did you mean "seed"/);
  assert.throws(
    () => lab.principalComponents(new Float32Array(4), 2, 2, { components: 1 }),
    /has no option "components"; its options are count/,
  );
  const embedding = lab.tokenEmbedding({ vocabSize: 3, dim: 4 });
  assert.throws(() => lab.compare([0, 1], [1, 0], { embedding, attention: { casual: true } }), /did you mean "causal"/);
  embedding.dispose();
});

test('a file path given where file contents belong is named as such', async () => {
  await assert.rejects(
    lab.loadWordVectors('glove.6B.50d.txt'),
    /source looks like a file path .*pass the file's contents/,
  );
  await assert.rejects(lab.loadWordVectors('/data/vectors.vec'), /looks like a file path/);
  assert.throws(() => lab.loadTokenizer('./my.tiktoken'), /bytes looks like a file path/);
  assert.throws(
    () => lab.tokenizerFromVocabulary({ tiktoken: 'C:\\vocab\\cl100k_base.tiktoken', encoding: 'cl100k_base' }),
    /files.tiktoken looks like a file path/,
  );
  const vectors = await lab.loadWordVectors('a 1 0\n'); // contents, even on one line, still parse
  assert.equal(vectors.words.length, 1);
  assert.equal((await lab.loadWordVectors('word 0.5 0.25')).dim, 2);
});

test('model option typos are refused: posiitons, optimizer.lr, ropeScaling.factr', () => {
  assert.throws(
    () => lab.createModel({ vocabSize: 8, posiitons: 'rope' }),
    /config has no option "posiitons" \(did you mean "positions"\?\)/,
  );
  assert.throws(
    () => lab.createModel({ vocabSize: 8, optimizer: { lr: 0.1 } }),
    /config.optimizer has no option "lr"; its options are learningRate/,
  );
  assert.throws(
    () => lab.createModel({ vocabSize: 8, positions: 'rope', ropeScaling: { type: 'linear', factr: 2 } }),
    /config\.ropeScaling has no option "factr" \(did you mean "factor"\?\)/,
  );
  assert.throws(() => lab.ropeFrequencies({ headDim: 8, bse: 500 }), /did you mean "base"/);
});
