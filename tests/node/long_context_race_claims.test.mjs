// Section 7's race logic (web/js/race: claims, passkey learning, smoothing, the wide NTK run), on constructed runs
// whose verdicts are known by construction: a passkey run that never learned the task at T is left out of the
// passkey verdicts and said so, the NTK claim reads the s = 2L/T row, a negative change reads as a fall. And the
// race's plan: at least 50 passkeys per cell, consecutive seeds from any first seed, its RoPE base the model's.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import createEmbedLab from '../../dist/index.js';
import { raceClaims, verdict } from '../../web/js/race/claims.js';
import { learnedSeeds, unlearnedRuns } from '../../web/js/race/passkey_learning.js';
import {
  LEARNED_AT_T,
  NTK_WIDE,
  RACE_EVAL_ROWS,
  RACE_ROPE_BASE,
  raceJobs,
  raceSeeds,
  taskOptions,
  wideRun,
} from '../../web/js/race/plan.js';
import { smoothWithinRanges } from '../../web/js/race/stats.js';

const T = 4;
const L = 16;
const LENGTHS = [4, 8, 16];

/** A passkey run: accuracy at T and at L (every depth alike), and 0.5 at 2T. */
function passkeyRun(scheme, seed, atT, atL) {
  const reading = (length, accuracy, fineTuned = false) => ({
    length,
    fineTuned,
    available: true,
    accuracyByDepth: [accuracy, accuracy],
  });
  return {
    scheme,
    seed,
    readings: [reading(4, atT), reading(8, 0.5), reading(16, atL), reading(8, 0.5, true), reading(16, atL, true)],
  };
}

/** A language run: loss `inside` at positions below T, `far` from 2T on, their mean between; fine-tuned: `tuned`. */
function languageRun(scheme, seed, inside, far, tuned = far) {
  const curve = (length, a, b) => Array.from({ length }, (_, p) => (p < T ? a : p < 2 * T ? (a + b) / 2 : b));
  const readings = LENGTHS.map((length) => ({
    length,
    fineTuned: false,
    available: true,
    lossByPosition: curve(length, inside, far),
  }));
  readings.push(
    { length: 8, fineTuned: true, available: true, lossByPosition: curve(8, inside, tuned) },
    { length: 16, fineTuned: true, available: true, lossByPosition: curve(16, inside, tuned) },
  );
  return { scheme, seed, readings };
}

function raceOf(passkeyBySchemes, languageBySchemes) {
  return { passkey: new Map(Object.entries(passkeyBySchemes)), language: new Map(Object.entries(languageBySchemes)) };
}

const claimOf = (claims, id) => claims.find((c) => c.id === id);

test('verdict counts only the seeds it is told to, and says when none counts', () => {
  assert.deepEqual(
    verdict([1, 2, 3], [0, 0, 0], (a, b) => a > b),
    {
      k: 3,
      n: 3,
      text: 'holds for every seed (3 of 3)',
    },
  );
  assert.deepEqual(
    verdict([1, -1, 3], [0, 0, 0], (a, b) => a > b, [true, true, false]),
    {
      k: 1,
      n: 2,
      text: 'holds for 1 of 2 seeds',
    },
  );
  assert.equal(verdict([1], [0], (a, b) => a > b, [false]).text, 'cannot be checked (no seed counts)');
  assert.equal(verdict([0, 0], [1, 1], (a, b) => a > b).text, 'does not hold (0 of 2 seeds)');
});

test('a passkey verdict that no seed can count says so', () => {
  const passkey = { rope: [passkeyRun('rope', 0, 0.2, 0.1), passkeyRun('rope', 1, 0.5, 0.1)] };
  const language = { rope: [0, 1].map((seed) => languageRun('rope', seed, 4.0, 4.6)) };
  const rope = claimOf(raceClaims(raceOf(passkey, language), T, L), 'rope');
  assert.match(
    rope.seen,
    /Passkey accuracy at 16 below that at 4 cannot be checked: no seed learned the passkey at 4\./,
  );
});

test('a passkey run below 90 % at T never learned the task; exactly 90 % did', () => {
  assert.equal(LEARNED_AT_T, 0.9);
  const runs = [passkeyRun('rope', 3, 0.95, 0.2), passkeyRun('rope', 4, 0.9, 0.3), passkeyRun('rope', 5, 0.1, 0.6)];
  assert.deepEqual(learnedSeeds(runs, T), [true, true, false]);
  const never = unlearnedRuns(new Map([['rope', runs]]), T);
  assert.deepEqual(never, [{ scheme: 'rope', seed: 5, accuracy: 0.1 }]);
});

test('RoPE: the passkey verdict leaves out the seed that never learned it, and says how many it counts', () => {
  // Seed 5 never learned (10 % at T) and scores more at L than at T: counted, it would break "lower at L".
  const passkey = {
    rope: [passkeyRun('rope', 3, 0.95, 0.2), passkeyRun('rope', 4, 0.92, 0.3), passkeyRun('rope', 5, 0.1, 0.6)],
  };
  const language = { rope: [3, 4, 5].map((seed) => languageRun('rope', seed, 4.0, 4.6)) };
  const rope = claimOf(raceClaims(raceOf(passkey, language), T, L), 'rope');
  assert.match(rope.seen, /higher there holds for every seed \(3 of 3\)/);
  assert.match(
    rope.seen,
    /Passkey accuracy at 16 below that at 4 holds for every seed \(2 of 2\) \(counting the 2 of 3 seeds that learned it at 4\)/,
  );
});

test('NoPE and T5 are checked against RoPE and ALiBi on the seeds where both learned the passkey', () => {
  const passkey = {
    rope: [passkeyRun('rope', 0, 0.95, 0.2), passkeyRun('rope', 1, 0.95, 0.3), passkeyRun('rope', 2, 0.95, 0.9)],
    alibi: [passkeyRun('alibi', 0, 0.95, 0.8), passkeyRun('alibi', 1, 0.95, 0.8), passkeyRun('alibi', 2, 0.2, 0.1)],
    // Seed 2 of NoPE never learned: its 0.5 at L would lose to RoPE's 0.9, but it does not count.
    none: [passkeyRun('none', 0, 0.95, 0.85), passkeyRun('none', 1, 0.95, 0.7), passkeyRun('none', 2, 0.3, 0.5)],
    t5: [passkeyRun('t5', 0, 0.95, 0.6), passkeyRun('t5', 1, 0.95, 0.6), passkeyRun('t5', 2, 0.95, 0.6)],
  };
  const language = {
    rope: [0, 1, 2].map((seed) => languageRun('rope', seed, 4.0, 4.6)),
    alibi: [0, 1, 2].map((seed) => languageRun('alibi', seed, 4.1, 4.09)),
    t5: [0, 1, 2].map((seed) => languageRun('t5', seed, 4.0, 4.2)),
  };
  const claims = raceClaims(raceOf(passkey, language), T, L);
  const nope = claimOf(claims, 'nope');
  assert.match(nope.prediction, /Kazemnejad et al\. 2023/);
  assert.match(nope.seen, /NoPE above RoPE holds for every seed \(2 of 2\) \(seeds where both learned it at 4\)/);
  // Against ALiBi: seed 2 of ALiBi never learned either; seed 1: NoPE 0.7 < ALiBi 0.8.
  assert.match(nope.seen, /above ALiBi holds for 1 of 2 seeds/);
  const t5 = claimOf(claims, 't5');
  assert.match(t5.prediction, /Press et al\. 2022/);
  assert.match(
    t5.seen,
    /higher there holds for every seed \(3 of 3\); a smaller rise than RoPE’s holds for every seed/,
  );
  assert.match(t5.seen, /T5 above RoPE holds for 2 of 3 seeds/);
  const alibi = claimOf(claims, 'alibi');
  assert.equal(alibi.prediction, 'ALiBi holds its loss far past T (Press et al. 2022).');
  assert.match(alibi.seen, /\(a fall of 0\.01, against a rise of 0\.60 for RoPE\)/);
  assert.match(alibi.seen, /no prediction/);
  assert.match(alibi.seen, /\(the 2 of 3 seeds that learned it at 4\)/);
});

test('the NTK claim reads NTK at s = L/T and at s = 2L/T against PI, each with its own verdict', () => {
  const seeds = [0, 1, 2];
  const language = {
    rope: seeds.map((s) => languageRun('rope', s, 4.0, 4.6)),
    rope_pi: seeds.map((s) => languageRun('rope_pi', s, 4.3, 4.3, 4.1)),
    rope_ntk: seeds.map((s) => languageRun('rope_ntk', s, 4.0, 4.5)),
    [NTK_WIDE]: seeds.map((s) => languageRun(NTK_WIDE, s, 4.0, 4.2)),
    rope_yarn: seeds.map((s) => languageRun('rope_yarn', s, 4.0, 4.25)),
  };
  const claim = claimOf(raceClaims(raceOf({}, language), T, L), 'ntk-yarn');
  assert.match(claim.prediction, /s = 4 and s = 8/);
  assert.match(claim.seen, /NTK \(s = 4\) below PI does not hold \(0 of 3 seeds\)/);
  assert.match(claim.seen, /NTK \(s = 8\) below PI holds for every seed \(3 of 3\)/);
  assert.match(claim.seen, /YaRN below PI holds for every seed \(3 of 3\)/);
  assert.match(
    claim.seen,
    /at 4–7 PI 4\.30, NTK 4\.25 \/ 4\.10, YaRN [\d.]+; at 8–15 PI 4\.30, NTK 4\.50 \/ 4\.20, YaRN 4\.25/,
  );
  assert.deepEqual(claim.verdict, { k: 3, n: 3 });
});

test('wideRun: positions 0…L−1 of the reading at 2L stand for the reading at L', () => {
  const run = {
    scheme: 'rope_ntk',
    seed: 7,
    readings: [
      { length: 4, fineTuned: false, available: true, lossByPosition: [1, 2, 3, 4] },
      { length: 32, fineTuned: false, available: true, lossByPosition: Array.from({ length: 32 }, (_, p) => p) },
    ],
  };
  const wide = wideRun(run, 16);
  assert.equal(wide.scheme, NTK_WIDE);
  assert.equal(wide.seed, 7);
  assert.deepEqual(wide.readings[0].lossByPosition, [1, 2, 3, 4]);
  assert.equal(wide.readings[1].length, 16);
  assert.equal(wide.readings[1].fromLength, 32);
  assert.deepEqual(
    wide.readings[1].lossByPosition,
    Array.from({ length: 16 }, (_, p) => p),
  );
});

test('smoothing averages within each position range, never across T', () => {
  const values = [0, 0, 0, 0, 10, 10, 10, 10];
  // Radius 1: each position with its neighbours inside [0, 4) and [4, 8); the jump at 4 stays sharp.
  assert.deepEqual(Array.from(smoothWithinRanges(values, [4, 8], 1)), values);
  const ramp = [0, 1, 2, 3, 4, 5];
  assert.deepEqual(Array.from(smoothWithinRanges(ramp, [6], 1)), [0.5, 1, 2, 3, 4, 4.5]);
});

test('the race plan: 50 passkeys per cell, seeds from any first seed, the NTK-wide job, the model RoPE base', async () => {
  assert.ok(RACE_EVAL_ROWS.passkey >= 50);
  assert.deepEqual(raceSeeds(3, 3), [3, 4, 5]);
  assert.deepEqual(raceSeeds(0, 1), [0]);
  const language = raceJobs('language', [3, 4, 5]);
  assert.deepEqual(
    language.filter((j) => j.wide).map((j) => [j.seed, j.schemes]),
    [3, 4, 5].map((seed) => [seed, ['rope_ntk']]),
  );
  assert.equal(raceJobs('passkey', [3, 4, 5]).filter((j) => j.wide).length, 0);
  const wide = taskOptions('language', { steps: 100, fineTuneSteps: 20 }, true);
  assert.deepEqual([wide.factors, wide.fineTuneSteps], [[1, 8], 0]);
  const lab = await createEmbedLab();
  assert.equal(RACE_ROPE_BASE, lab.modelDefaults.ropeBase);
});
