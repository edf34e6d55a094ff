// A file path given where a file's contents belong (trainTokenizer, loadModel, readSafetensors, on both entries) is
// refused by name, while contents of one short line that only resemble a path still work.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';

import createEmbedLab from '../../dist/index.js';
import * as tokenizerEntry from '../../dist/tokenizer.js';

let lab;
before(async () => {
  lab = await createEmbedLab();
});

const PATH_MESSAGE = /looks like a file path .*pass the file's contents: readFileSync\(path\) in node/;

test('trainTokenizer refuses a path string on both entries, and trains on nothing of it', async () => {
  for (const path of ['/home/me/corpus.txt', './corpus.txt', 'corpus.txt', 'C:\\data\\corpus.txt', '~/books']) {
    await assert.rejects(lab.trainTokenizer(path, { vocabSize: 300 }), (error) => {
      assert.ok(error instanceof TypeError);
      assert.match(error.message, /^corpus looks like a file path/);
      assert.match(error.message, PATH_MESSAGE);
      return true;
    });
  }
  await assert.rejects(
    tokenizerEntry.trainTokenizer('/data/brown.txt', { vocabSize: 300 }),
    /^TypeError: corpus looks/,
  );
  const entryLab = await tokenizerEntry.createTokenizers();
  await assert.rejects(entryLab.trainTokenizer('../corpus.md', { vocabSize: 300 }), /corpus looks like a file path/);
});

test('a corpus of one short line trains, even when it starts with a slash or ends with a file name', async () => {
  const lines = [
    'the cat sat on the mat',
    '/r/rust is where the crabs are, said the crab to the crab',
    'I saved the results to output.json',
    'a/b a/b a/b 1/2 1/2',
    'hello',
  ];
  for (const line of lines) {
    const trained = await lab.trainTokenizer(line, { vocabSize: 260 });
    assert.equal(trained.decode(trained.encode(line)), line);
    assert.ok(trained.merges.length > 0, line);
    trained.dispose();
  }
  // The same rule for every reader: a one-line GloVe file of the token "/" is contents.
  assert.equal((await lab.loadWordVectors('/ 0.5 0.25')).words[0], '/');
  // Text that really is a path, wanted as a corpus, goes through as bytes.
  const bytes = new TextEncoder().encode('/home/me/corpus.txt');
  const trained = await lab.trainTokenizer(bytes, { vocabSize: 260 });
  assert.equal(trained.decode(trained.encode('/home/me/corpus.txt')), '/home/me/corpus.txt');
  assert.equal(trained.merges.length, 4); // vocabSize 260: four merges over the path's own letters
  trained.dispose();
});

test('loadModel and readSafetensors name a path given as the file', async () => {
  assert.throws(
    () => lab.loadModel('x.safetensors'),
    /^TypeError: bytes looks like a file path .*readFileSync\(path\)/,
  );
  assert.throws(() => lab.loadModel('/models/tiny.safetensors'), PATH_MESSAGE);
  // Any other string is not a model either; the message still says what to pass.
  assert.throws(
    () => lab.loadModel('models'),
    /bytes must be a Uint8Array from model.save\(\), got the string "models" \(a file's bytes: readFileSync\(path\) in node\)/,
  );
  await assert.rejects(lab.readSafetensors('model.safetensors'), /^TypeError: source looks like a file path/);
  await assert.rejects(lab.readSafetensors('/tmp/gpt2/model.safetensors'), PATH_MESSAGE);
  await assert.rejects(lab.readSafetensors('hello'), /source must be a Uint8Array, an ArrayBuffer or a Blob\/File/);
});
