// Names and caps the C++ core defines once and the package reads from it: lab.limits, lab.patternNames and
// lab.positionSchemes. Each is frozen, and each name or cap is the one the core accepts.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';

import createEmbedLab from '../../dist/index.js';

let lab;
before(async () => {
  lab = await createEmbedLab();
});

test('limits are the caps of errors/argument_checks.h, and the core enforces exactly them', () => {
  assert.ok(Object.isFrozen(lab.limits));
  assert.deepEqual({ ...lab.limits }, { maxDim: 16384, maxVocabSize: 2 ** 21, maxSequenceLength: 65536 });
  const encoding = lab.positionalEncoding('none', { dim: 1, maxLength: lab.limits.maxSequenceLength });
  assert.equal(encoding.maxLength, lab.limits.maxSequenceLength);
  encoding.dispose();
  assert.throws(() => lab.positionalEncoding('none', { dim: 1, maxLength: lab.limits.maxSequenceLength + 1 }), {
    name: 'RangeError',
    message: /maxLength must be an integer in \[1, 65536\]/,
  });
});

test('patternNames lists the pre-tokenizers; each one trains a tokenizer that reports it', async () => {
  assert.ok(Object.isFrozen(lab.patternNames));
  assert.deepEqual([...lab.patternNames], ['gpt2', 'cl100k', 'o200k']);
  for (const pattern of lab.patternNames) {
    const tokenizer = await lab.trainTokenizer('the dog bites the man. '.repeat(10), { vocabSize: 260, pattern });
    assert.equal(tokenizer.pattern, pattern);
    tokenizer.dispose();
  }
});

test('ropeLayouts lists the RoPE layouts; each one makes a model that reports it, and others are refused', () => {
  assert.ok(Object.isFrozen(lab.ropeLayouts));
  assert.deepEqual([...lab.ropeLayouts], ['interleaved', 'rotate_half']);
  const config = { vocabSize: 8, contextLength: 4, channels: 8, layers: 1, heads: 2, positions: 'rope' };
  for (const ropeLayout of lab.ropeLayouts) {
    const model = lab.createModel({ ...config, ropeLayout });
    assert.equal(model.config.ropeLayout, ropeLayout);
    model.dispose();
  }
  assert.throws(() => lab.createModel({ ...config, ropeLayout: 'half' }), {
    name: 'TypeError',
    message: "ropeLayout must be 'interleaved' or 'rotate_half', got the string \"half\"",
  });
});

test('positionSchemes lists the model schemes; each one makes a model that reports it', () => {
  assert.ok(Object.isFrozen(lab.positionSchemes));
  assert.deepEqual([...lab.positionSchemes], ['learned', 'sinusoidal', 'rope', 'alibi', 't5', 'none']);
  for (const positions of lab.positionSchemes) {
    const model = lab.createModel({ vocabSize: 8, contextLength: 4, channels: 8, layers: 1, heads: 2, positions });
    assert.equal(model.config.positions, positions);
    model.dispose();
  }
});
