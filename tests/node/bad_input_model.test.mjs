// Bad input table for the model and safetensors APIs (companion of bad_input.test.mjs; the tokenizer's:
// bad_input_tokenizer.test.mjs): each call fails with a JS error naming the argument and the allowed range, and the
// same model then still answers a valid call exactly as before, its parameters untouched.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';

import createEmbedLab from '../../dist/index.js';
import { checkError, tampered } from './bad_input_support.mjs';

const SMALL = { vocabSize: 64, contextLength: 16, channels: 16, layers: 1, heads: 2, seed: 3 };
const VALID = { ids: [[1, 2, 3, 4]], targets: [[2, 3, 4, 5]] };
let lab, model, goneModel, saved, safetensors;

before(async () => {
  lab = await createEmbedLab();
  model = lab.createModel(SMALL);
  goneModel = lab.createModel(SMALL);
  goneModel.dispose();
  saved = model.save();
  safetensors = await lab.readSafetensors(saved);
});

const headerLength = (bytes) => Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(0, true));
const withNaNWeight = (bytes) => {
  const copy = bytes.slice();
  new DataView(copy.buffer).setFloat32(8 + headerLength(copy) + 8, NaN, true);
  return copy;
};

const MODEL_CASES = [
  [
    'createModel without config',
    () => lab.createModel(),
    TypeError,
    /config\.vocabSize must be an integer, got undefined/,
  ],
  [
    'vocabSize 0',
    () => lab.createModel({ vocabSize: 0 }),
    RangeError,
    /config\.vocabSize must be an integer in \[1, 2097152\], got 0/,
  ],
  ['vocabSize negative', () => lab.createModel({ vocabSize: -1 }), RangeError, /config\.vocabSize .*got -1/],
  ['vocabSize NaN', () => lab.createModel({ vocabSize: NaN }), RangeError, /config\.vocabSize .*got NaN/],
  [
    'vocabSize a string',
    () => lab.createModel({ vocabSize: '64' }),
    TypeError,
    /config\.vocabSize .*got the string "64"/,
  ],
  [
    'channels 1e9',
    () => lab.createModel({ vocabSize: 64, channels: 1e9 }),
    RangeError,
    /config\.channels must be an integer in \[1, 16384\], got 1000000000/,
  ],
  [
    'channels Infinity',
    () => lab.createModel({ vocabSize: 64, channels: Infinity }),
    RangeError,
    /config\.channels must be an integer, got Infinity/,
  ],
  [
    'heads not dividing channels',
    () => lab.createModel({ vocabSize: 64, channels: 16, heads: 3 }),
    RangeError,
    /config\.channels \(16\) must be a multiple of config\.heads \(3\)/,
  ],
  [
    'layers 0',
    () => lab.createModel({ vocabSize: 64, layers: 0 }),
    RangeError,
    /config\.layers must be an integer in \[1, 64\], got 0/,
  ],
  ['layers 1e6', () => lab.createModel({ vocabSize: 64, layers: 1e6 }), RangeError, /config\.layers .*got 1000000/],
  [
    'contextLength 0',
    () => lab.createModel({ vocabSize: 64, contextLength: 0 }),
    RangeError,
    /config\.contextLength must be an integer in \[1, 65536\], got 0/,
  ],
  [
    'a model over 1 GiB',
    () => lab.createModel({ vocabSize: 2 ** 21, channels: 16384 }),
    RangeError,
    /limit is 268435456 floats/,
  ],
  [
    'unknown positions',
    () => lab.createModel({ vocabSize: 64, positions: 'relative' }),
    TypeError,
    /config\.positions must be one of learned, sinusoidal, rope, alibi, t5, none, got the string "relative"/,
  ],
  [
    'learningRate NaN',
    () => lab.createModel({ vocabSize: 64, optimizer: { learningRate: NaN } }),
    RangeError,
    /config\.optimizer\.learningRate must be a finite number in \[0, 10\], got NaN/,
  ],
  [
    'learningRate negative',
    () => lab.createModel({ vocabSize: 64, optimizer: { learningRate: -1 } }),
    RangeError,
    /config\.optimizer\.learningRate .*got -1/,
  ],
  [
    'beta1 = 1',
    () => lab.createModel({ vocabSize: 64, optimizer: { beta1: 1 } }),
    RangeError,
    /^config\.optimizer\.beta1 must be a finite number in \[0, 0\.999999\], got 1$/,
  ],
  [
    'seed negative',
    () => lab.createModel({ vocabSize: 64, seed: -1 }),
    RangeError,
    /^config\.seed must be an integer in \[0, 9007199254740992\], got -1$/,
  ],
  [
    'causal a string',
    () => lab.createModel({ vocabSize: 64, causal: 'yes' }),
    TypeError,
    /config\.causal must be true or false, got the string "yes"/,
  ],
  ['trainStep without a batch', () => model.trainStep(), TypeError, /batch must be .*got undefined/],
  [
    'trainStep id = vocabSize',
    () => model.trainStep({ ids: [[1, 64]], targets: [[1, 2]] }),
    RangeError,
    /ids\[1\] must be a token id in \[0, 63\], got 64/,
  ],
  [
    'trainStep id negative',
    () => model.trainStep({ ids: [[1, -1]], targets: [[1, 2]] }),
    RangeError,
    /ids\[1\] must be a token id in \[0, 63\], got -1/,
  ],
  [
    'trainStep target out of range',
    () => model.trainStep({ ids: [[1, 2]], targets: [[1, 64]] }),
    RangeError,
    /targets\[1\] must be -1 \(ignored\) or a token id in \[0, 63\], got 64/,
  ],
  [
    'trainStep id NaN',
    () => model.trainStep({ ids: [[1, NaN]], targets: [[1, 2]] }),
    TypeError,
    /batch\.ids\[0\]\[1\] must be an integer, got NaN/,
  ],
  [
    'trainStep ragged batch',
    () => model.trainStep({ ids: [[1, 2], [3]], targets: [[1, 2], [3]] }),
    RangeError,
    /batch\.ids\[1\]\.length must be 2 like batch\.ids\[0\], got 1/,
  ],
  [
    'trainStep past contextLength',
    () => model.trainStep({ ids: [Array(17).fill(1)], targets: [Array(17).fill(1)] }),
    RangeError,
    /length must be an integer in \[1, 16\].*got 17/,
  ],
  ['trainStep without targets', () => model.trainStep({ ids: [[1, 2]] }), TypeError, /batch\.targets is required/],
  [
    'trainStep targets of another shape',
    () => model.trainStep({ ids: [[1, 2]], targets: [[1]] }),
    RangeError,
    /batch\.targets must have the shape of batch\.ids \(1 × 2\), got 1 × 1/,
  ],
  [
    'trainStep empty batch',
    () => model.trainStep({ ids: [], targets: [] }),
    TypeError,
    /batch\.batch and batch\.length/,
  ],
  [
    'evaluate id out of range',
    () => model.evaluate({ ids: [[1, 99]], targets: [[1, 2]] }),
    RangeError,
    /ids\[1\] must be a token id in \[0, 63\], got 99/,
  ],
  [
    'logits ids a string',
    () => model.logits({ ids: 'abc' }),
    TypeError,
    /batch\.ids must be an array of sequences .*got the string "abc"/,
  ],
  [
    'positionEmbeddings past contextLength',
    () => model.positionEmbeddings(17),
    RangeError,
    /length must be an integer in \[0, 16\], got 17/,
  ],
  [
    'positionEmbeddings negative',
    () => model.positionEmbeddings(-1),
    RangeError,
    /length must be an integer in \[0, 16\], got -1/,
  ],
  [
    'hiddenStates id out of range',
    () => model.hiddenStates([1, 100]),
    RangeError,
    /ids\[1\] must be a token id in \[0, 63\], got 100/,
  ],
  ['hiddenStates empty', () => model.hiddenStates([]), RangeError, /length must be an integer in \[1, 16\], got 0/],
  [
    'hiddenStates past contextLength',
    () => model.hiddenStates(Array(17).fill(1)),
    RangeError,
    /length must be an integer in \[1, 16\].*got 17/,
  ],
  [
    'setLearningRate NaN',
    () => model.setLearningRate(NaN),
    RangeError,
    /^learningRate must be a finite number in \[0, 10\], got NaN$/,
  ],
  ['setLearningRate 1e9', () => model.setLearningRate(1e9), RangeError, /learningRate .*got 1000000000/],
  ['setLearningRate a string', () => model.setLearningRate('0.1'), TypeError, /learningRate .*got the string "0\.1"/],
  ['disposed model trainStep', () => goneModel.trainStep(VALID), Error, /Model has been disposed/],
  ['disposed model save', () => goneModel.save(), Error, /Model has been disposed/],
  [
    'loadModel without bytes',
    () => lab.loadModel(),
    TypeError,
    /bytes must be a Uint8Array from model\.save\(\), got undefined/,
  ],
  ['loadModel a string', () => lab.loadModel('abc'), TypeError, /bytes must be a Uint8Array .*got the string "abc"/],
  [
    'loadModel empty file',
    () => lab.loadModel(new Uint8Array()),
    RangeError,
    /safetensors: the file has 0 bytes, fewer than the 8-byte header length/,
  ],
  [
    'loadModel truncated data',
    () => lab.loadModel(saved.slice(0, saved.length - 10)),
    RangeError,
    /spans data bytes .* \(truncated or tampered file\)/,
  ],
  [
    'loadModel truncated header',
    () => lab.loadModel(saved.slice(0, 30)),
    RangeError,
    /the header claims \d+ bytes but the file has 22 after the length field/,
  ],
  [
    'loadModel tampered header length',
    () => lab.loadModel(tampered(saved, 5, 1)),
    TypeError,
    /header length \d+ is not in \[2, 100 MiB\]/,
  ],
  [
    'loadModel tampered JSON',
    () => lab.loadModel(tampered(saved, 8, 0x5b)),
    TypeError,
    /safetensors: the header is not valid JSON/,
  ],
  // Needs the wasm built from src/training/gpt_trainer.cc of the reliability commit (GptTrainer::Load checks values).
  [
    'loadModel with a NaN weight',
    () => lab.loadModel(withNaNWeight(saved)),
    TypeError,
    /checkpoint: parameter wte\.weight\[2\] is NaN; a checkpoint must hold finite values/,
  ],
];

const ASYNC_CASES = [
  [
    'getTokenizer unknown name',
    () => lab.getTokenizer('gpt5'),
    TypeError,
    /name must be one of gpt2, r50k_base, p50k_base, p50k_edit, cl100k_base, o200k_base, o200k_harmony; got the string "gpt5"/,
  ],
  ['getTokenizer a number', () => lab.getTokenizer(5), TypeError, /name must be one of .*got 5/],
  ['getTokenizer without name', () => lab.getTokenizer(), TypeError, /name must be one of .*got undefined/],
  [
    'trainTokenizer vocabSize 0',
    () => lab.trainTokenizer('abc', { vocabSize: 0 }),
    RangeError,
    /vocabSize must be an integer in \[256, 2097152\], got 0/,
  ],
  [
    'trainTokenizer vocabSize 1e9',
    () => lab.trainTokenizer('abc', { vocabSize: 1e9 }),
    RangeError,
    /vocabSize .*got 1000000000/,
  ],
  [
    'trainTokenizer vocabSize NaN',
    () => lab.trainTokenizer('abc', { vocabSize: NaN }),
    RangeError,
    /vocabSize .*got NaN/,
  ],
  ['trainTokenizer without options', () => lab.trainTokenizer('abc'), TypeError, /vocabSize .*got undefined/],
  [
    'trainTokenizer corpus a number',
    () => lab.trainTokenizer(5, { vocabSize: 300 }),
    TypeError,
    /corpus must be a string or a Uint8Array, got 5/,
  ],
  [
    'trainTokenizer unknown pattern',
    () => lab.trainTokenizer('abc', { vocabSize: 300, pattern: 'x' }),
    TypeError,
    /pattern must be 'gpt2', 'cl100k' or 'o200k', got the string "x"/,
  ],
  [
    'train steps negative',
    () => model.train({ steps: -1, batches: () => VALID }),
    RangeError,
    /steps must be an integer in \[0, 1000000000\], got -1/,
  ],
  [
    'train without batches',
    () => model.train({ steps: 1 }),
    TypeError,
    /batches must be a function \(step\) => batch, got undefined/,
  ],
  [
    'readSafetensors a number',
    () => lab.readSafetensors(5),
    TypeError,
    /source must be a Uint8Array, an ArrayBuffer or a Blob\/File, got 5/,
  ],
  [
    'readSafetensors zeros',
    () => lab.readSafetensors(new Uint8Array(20)),
    TypeError,
    /header length 0 is not in \[2, 100 MiB\]/,
  ],
  [
    'readSafetensors truncated',
    () => lab.readSafetensors(saved.slice(0, 20)),
    RangeError,
    /the header claims \d+ bytes but the file has 12 after the length field/,
  ],
  [
    'safetensors get unknown name',
    () => safetensors.get('nope'),
    RangeError,
    /name must be one of the file's tensors \(wte\.weight, .*got the string "nope"/,
  ],
  ['safetensors get a number', () => safetensors.get(5), TypeError, /name must be a tensor name string, got 5/],
];

test(`model bad input table (${MODEL_CASES.length} cases), parameters untouched, then a valid call still works`, async (t) => {
  const loss = model.evaluate(VALID);
  const step = model.step;
  for (const [name, call, type, message] of MODEL_CASES) {
    await t.test(name, () => {
      assert.throws(call, checkError(name, type, message), name);
      assert.equal(model.evaluate(VALID), loss, `model unchanged after: ${name}`);
      assert.equal(model.step, step);
    });
  }
});

test(`async bad input table (${ASYNC_CASES.length} cases): rejections name the argument`, async (t) => {
  const tensor = await safetensors.get('wte.weight');
  for (const [name, call, type, message] of ASYNC_CASES) {
    await t.test(name, async () => {
      await assert.rejects(async () => call(), checkError(name, type, message), name);
      assert.deepEqual(await safetensors.get('wte.weight'), tensor, `file still reads after: ${name}`);
    });
  }
});

// Needs the wasm built from src/model of the reliability commit (non-finite detection in GptTrainer::TrainStep).
test('a learning rate far too high: the step that goes non-finite throws, the model stays at the last good step', () => {
  const wild = lab.createModel({ ...SMALL, optimizer: { learningRate: 10, weightDecay: 10, maxGradNorm: 0 } });
  let failure;
  let before;
  for (let i = 0; i < 300 && failure === undefined; ++i) {
    before = { step: wild.step, embeddings: wild.tokenEmbeddings() };
    try {
      wild.trainStep(VALID);
    } catch (error) {
      failure = error;
    }
  }
  console.log(`# high learning rate: ${failure?.message}`);
  assert.ok(failure, 'training with learningRate 10 and weightDecay 10 should fail within 300 steps');
  assert.match(
    failure.message,
    new RegExp(`training step ${before.step + 1}: .*(NaN|Infinity|Inf).*those of step ${before.step}`),
  );
  assert.equal(wild.step, before.step);
  assert.deepEqual(wild.tokenEmbeddings(), before.embeddings);
  // The last good step's weights are finite (if huge: evaluating them may still give NaN), so the model saves
  // and loads back.
  assert.ok(before.embeddings.every(Number.isFinite));
  const copy = lab.loadModel(wild.save());
  assert.equal(copy.step, before.step);
  copy.dispose();
  wild.dispose();
});
