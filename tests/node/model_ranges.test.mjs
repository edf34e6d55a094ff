// createModel's ranges and defaults are the C++ core's alone (ValidateGptConfig, ValidateAdamWOptions, GptConfig's
// and AdamWOptions' defaults): the JS layer checks option names and types, so it accepts what the core (and a loaded
// checkpoint) accepts, refuses what the core refuses, and every message names the option as createModel's argument
// (config.heads, config.optimizer.beta1). And a seed is the core's RequireSeed range, [0, 2^53], in every method.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';

import createEmbedLab from '../../dist/index.js';

let lab;
before(async () => {
  lab = await createEmbedLab();
});

test('modelDefaults: the config createModel fills in, frozen, as a model reports it', () => {
  const { modelDefaults } = lab;
  assert.ok(Object.isFrozen(modelDefaults) && Object.isFrozen(modelDefaults.optimizer));
  assert.deepEqual(modelDefaults.optimizer, {
    learningRate: 1e-3,
    beta1: 0.9,
    beta2: 0.95,
    eps: 1e-8,
    weightDecay: 0.1,
    maxGradNorm: 1,
  });
  assert.equal(modelDefaults.vocabSize, undefined);
  const model = lab.createModel({ vocabSize: 8 });
  const { vocabSize, ...config } = model.config;
  assert.equal(vocabSize, 8);
  assert.deepEqual(config, JSON.parse(JSON.stringify(modelDefaults)));
  model.dispose();
});

test('what the core accepts, createModel accepts: heads above 1024, beta1 near 1, maxGradNorm -1', () => {
  const wide = lab.createModel({ vocabSize: 8, contextLength: 2, channels: 1030, heads: 1030, layers: 1 });
  assert.equal(wide.config.heads, 1030);
  const copy = lab.loadModel(wide.save());
  assert.equal(copy.config.heads, 1030);
  copy.dispose();
  wide.dispose();
  const optimizer = { beta1: 0.999999, beta2: 0.999999, eps: 1e-30, maxGradNorm: -1 };
  const model = lab.createModel({ vocabSize: 8, channels: 8, optimizer });
  assert.deepEqual(
    { ...model.config.optimizer, learningRate: 0, weightDecay: 0 },
    {
      ...optimizer,
      learningRate: 0,
      weightDecay: 0,
    },
  );
  model.dispose();
});

test('what the core refuses, createModel refuses, naming the option as config.*', () => {
  const cases = [
    [
      { optimizer: { beta1: 1 } },
      RangeError,
      /^config\.optimizer\.beta1 must be a finite number in \[0, 0\.999999\], got 1$/,
    ],
    [{ optimizer: { beta1: '0.9' } }, TypeError, /^config\.optimizer\.beta1 must be a number, got the string "0\.9"$/],
    [{ optimizer: { eps: 0 } }, RangeError, /^config\.optimizer\.eps must be a finite number in \[1e-30, 1\], got 0$/],
    [
      { optimizer: { maxGradNorm: -2 } },
      RangeError,
      /^config\.optimizer\.maxGradNorm must be a finite number in \[-1, /,
    ],
    [{ channels: 16, heads: 32 }, RangeError, /^config\.heads must be an integer in \[1, 16\], got 32$/],
    [{ heads: 1.5 }, RangeError, /^config\.heads must be an integer, got 1\.5$/],
    [
      { seed: 2 ** 53 + 2 },
      RangeError,
      /^config\.seed must be an integer in \[0, 9007199254740992\], got 9007199254740994$/,
    ],
    [{ seed: 0.5 }, RangeError, /^config\.seed must be an integer in \[0, 9007199254740992\], got 0\.5$/],
  ];
  for (const [options, type, message] of cases) {
    assert.throws(() => lab.createModel({ vocabSize: 8, ...options }), { name: type.name, message });
  }
  assert.throws(() => lab.createModel({ vocabSize: 8, optimizer: { beta: 0.9 } }), {
    name: 'TypeError',
    message: /^config\.optimizer has no option "beta" \(did you mean "beta1"\?\)/,
  });
});

test('a seed is [0, 2^53] in every method: 2^53 - 1 and 2^53 taken, 2^53 + 2 refused alike', async () => {
  const run = { trainLength: 16, factors: [1], steps: 0, fineTuneSteps: 0, batch: 1, channels: 8 };
  Object.assign(run, { layers: 1, heads: 2, evalRows: 1, depths: [0] });
  for (const seed of [2 ** 53 - 1, 2 ** 53]) {
    lab.tokenEmbedding({ vocabSize: 4, dim: 2, seed }).dispose();
    lab.createModel({ vocabSize: 4, channels: 4, seed }).dispose();
    lab.randomUniform(1, { seed });
    lab.passkeySample({ length: 16, seed });
    const result = await lab.longContextRun({ ...run, seed });
    assert.equal(result.seed, seed);
  }
  const refusal = {
    name: 'RangeError',
    message: /^seed must be an integer in \[0, 9007199254740992\], got 9007199254740994$/,
  };
  const seed = 2 ** 53 + 2;
  assert.throws(() => lab.tokenEmbedding({ vocabSize: 4, dim: 2, seed }), refusal);
  assert.throws(() => lab.randomUniform(1, { seed }), refusal);
  assert.throws(() => lab.passkeySample({ length: 16, seed }), refusal);
  await assert.rejects(lab.longContextRun({ ...run, seed }), refusal);
  await assert.rejects(lab.longContextExperiment({ ...run, seeds: [0, seed] }), {
    message: /^seeds\[1\] must be an integer in \[0, 9007199254740992\]/,
  });
});
