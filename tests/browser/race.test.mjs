// Section 7's extrapolation race: the small race that runs by itself when the reader comes near fills every panel with
// the library's numbers; and for one small configuration started from seed 3, every number the page draws (loss at
// each position, raw and smoothed, passkey accuracy by depth x length, mean and min-max over seeds, NTK at s = 2L/T)
// equals the library's longContextRun in node with the same options, computed here from the runs and not by the
// page's modules.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import createEmbedLab from '../../dist/index.js';
import { launch, openPage, siteRoot } from './browser.mjs';
import { longContextRuns } from './long_context_runs.mjs';

const STEPS = 20;
const FINE_TUNE_STEPS = 10;
const SEEDS = [3, 4, 5]; // through the page's first-seed control
// The page's configuration as its text states it (T = 32, read at 32, 64, 128, ...), written out independently.
const OPTIONS = {
  trainLength: 32,
  factors: [1, 2, 4],
  batch: 16,
  learningRate: 3e-3,
  fineTuneLearningRate: 3e-4,
  channels: 32,
  layers: 2,
  heads: 4,
  depths: [0, 0.25, 0.5, 0.75, 1],
  digits: 2,
  steps: STEPS,
  fineTuneSteps: FINE_TUNE_STEPS,
};
const EVAL_ROWS = { passkey: 50, language: 64 };
const SCHEMES = ['learned', 'sinusoidal', 'rope', 'rope_pi', 'rope_ntk', 'rope_yarn', 'alibi', 't5', 'none'];
// The small race: one seed, 100 steps and 10 fine-tuning steps, as its status states.
const SMALL = { steps: 100, fineTuneSteps: 10, seeds: [0] };

const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;

/** The mean of the positions within `radius` of each, inside its range [0, 32), [32, 64), [64, 128). */
function smoothed(values, radius = 4) {
  const edges = [0, 32, 64, 128].filter((e) => e < values.length).concat(values.length);
  return values.map((_, p) => {
    const range = edges.findIndex((e) => e > p);
    const [from, to] = [Math.max(edges[range - 1], p - radius), Math.min(edges[range], p + radius + 1)];
    return mean(values.slice(from, to));
  });
}

/** Per position: mean, min and max over the seeds' readings at this length (null when a seed refuses it). */
function expectedCurve(runs, length, fineTuned) {
  const readings = runs.map((run) => run.readings.find((r) => r.length === length && r.fineTuned === fineTuned));
  if (readings.some((r) => !r?.available)) {
    return null;
  }
  const at = (p) => readings.map((r) => r.lossByPosition[p]);
  const positions = Array.from({ length }, (_, p) => p);
  return {
    mean: positions.map((p) => mean(at(p))),
    min: positions.map((p) => Math.min(...at(p))),
    max: positions.map((p) => Math.max(...at(p))),
  };
}

describe('the extrapolation race (section 7)', { timeout: 1_800_000 }, () => {
  let server;
  let browser;
  let page;
  let problems;
  let lab;
  before(async () => {
    const launched = await launch();
    ({ server, browser } = launched);
    ({ page, problems } = await openPage(browser, launched.url));
    page.setDefaultTimeout(300_000); // a loaded machine can starve the page for longer than playwright's 30 s
    lab = await createEmbedLab();
  });
  after(async () => {
    await browser?.close();
    server?.close();
  });

  test('a small race runs by itself when the reader comes near it and fills every panel with the library numbers', async () => {
    await page.waitForFunction(() => document.getElementById('main')?.dataset.state === 'ready', null, {
      timeout: 120_000,
    });
    // At the top of the page, once it is idle, no race has started: it costs no training unless the reader comes near.
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 2000 })));
    assert.equal(await page.getByTestId('beyond-race-small-status').evaluate((el) => el.dataset.state), 'waiting');
    // The page's own scrollIntoView: Playwright's lands elsewhere on a phone, where chapters off screen (not rendered,
    // content-visibility) are estimated shorter than they are.
    await page.getByTestId('beyond-race-loss').evaluate((el) => el.scrollIntoView({ block: 'center' }));
    // The full race waits for a click; the small one reports in its own status.
    assert.equal(await page.getByTestId('beyond-race-status').evaluate((el) => el.dataset.state), 'idle');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="beyond-race-small-status"]').dataset.state === 'done',
      null,
      { timeout: 600_000 },
    );
    const stated = JSON.parse(await page.getByTestId('beyond-race-small-status').evaluate((el) => el.dataset.options));
    assert.deepEqual(
      [stated.steps, stated.fineTuneSteps, stated.seeds],
      [SMALL.steps, SMALL.fineTuneSteps, SMALL.seeds],
    );
    assert.match(await page.getByTestId('beyond-race-setup').textContent(), /small race.*numbers and no verdicts/);
    const settings = await page.getByTestId('beyond-race-settings').textContent();
    assert.match(settings, /d_head = 8.*RoPE base 10000.*T = 32.*seed 0/);
    // And what reading the numbers needs: batch, both learning rates, the weight decay the runs take from the
    // library, the key's digits with the chance of guessing them, the depths.
    for (const part of [
      `batch ${OPTIONS.batch}`,
      `learning rate ${OPTIONS.learningRate}`,
      `weight decay ${lab.longContextDefaults.weightDecay}`,
      `(learning rate ${OPTIONS.fineTuneLearningRate})`,
      `passkeys of ${OPTIONS.digits} digits (chance ${100 / 10 ** OPTIONS.digits} %)`,
      `depths ${OPTIONS.depths.join(', ')}`,
    ]) {
      assert.ok(settings.includes(part), `settings state “${part}”: ${settings}`);
    }
    for (const scheme of [...SCHEMES, 'rope_ntk_wide']) {
      const series = await page.getByTestId(`beyond-race-loss-${scheme}`).evaluate((el) => el.dataset.series);
      assert.ok(series, `${scheme}: loss panel drawn`);
    }
    for (const scheme of SCHEMES) {
      const heatmap = await page.getByTestId(`beyond-race-passkey-${scheme}`).evaluate((el) => ({ ...el.dataset }));
      assert.ok(heatmap.values, `${scheme}: heatmap drawn`);
      // Every depth and every column labelled, the columns side by side ("64 ft" as "64" over "ft"), not cut.
      const drawn = JSON.parse(heatmap.drawnText);
      assert.deepEqual(drawn.rows, OPTIONS.depths.map(String), `${scheme}: depth labels`);
      assert.deepEqual(
        drawn.cols.map((label) => label.replace('\n', ' ')),
        JSON.parse(heatmap.columns),
        `${scheme}: column labels`,
      );
      assert.equal(drawn.rotated, false, `${scheme}: column labels side by side`);
    }
    const legend = await page
      .getByTestId('beyond-race-passkey-legend')
      .evaluate((el) => [el.dataset.min, el.dataset.max, el.querySelector('canvas').width > 0]);
    assert.deepEqual(legend, ['0', '1', true], 'the heatmaps have their 0–1 colour bar');
    // One panel against the library: ALiBi's passkey, seed 0, the small race's options.
    const alibi = await lab.longContextRun({
      ...OPTIONS,
      steps: SMALL.steps,
      fineTuneSteps: SMALL.fineTuneSteps,
      task: 'passkey',
      scheme: 'alibi',
      seed: 0,
      evalRows: EVAL_ROWS.passkey,
    });
    const columns = [
      [32, false],
      [64, false],
      [128, false],
      [64, true],
      [128, true],
    ];
    const expected = OPTIONS.depths.flatMap((_, d) =>
      columns.map(
        ([length, ft]) => alibi.readings.find((r) => r.length === length && r.fineTuned === ft).accuracyByDepth[d],
      ),
    );
    const drawn = JSON.parse(await page.getByTestId('beyond-race-passkey-alibi').evaluate((el) => el.dataset.values));
    assert.deepEqual(drawn, expected);
    // Each cell is a share of 50 passkeys.
    assert.ok(
      drawn.every((v) => Number.isInteger(Math.round(v * EVAL_ROWS.passkey * 1e6) / 1e6)),
      'cells of 50',
    );
    assert.ok(
      (await page.locator('#beyond-race-claims > li[data-claim]').count()) >= 5,
      'the claims are set against the small race',
    );
    // One seed of 100 steps: numbers, no verdicts, and the page says why.
    assert.equal(await page.locator('#beyond-race-claims > li[data-seeds]').count(), 0, 'no verdicts');
    const claimsText = await page.getByTestId('beyond-race-claims').textContent();
    assert.doesNotMatch(claimsText, /holds for|does not hold|within noise for/);
    assert.match(
      await page.getByTestId('beyond-race-verdict-rule').textContent(),
      /^No verdicts: one seed .*too undertrained/,
    );
    // Once the small race is done, the full race's status estimates its time from the small race's.
    assert.match(
      await page.getByTestId('beyond-race-status').textContent(),
      /The small race took \d+ s on \d+ workers?; the full one has 3× its runs, each training 5× the steps, so expect between about \d+ and \d+ min here/,
    );
  });

  test('the page runs the race in parallel workers and draws the library numbers for every scheme and seed', async () => {
    await page.getByTestId('beyond-race-steps').fill(String(STEPS));
    await page.getByTestId('beyond-race-fine-tune').fill(String(FINE_TUNE_STEPS));
    await page.getByTestId('beyond-race-first-seed').fill(String(SEEDS[0]));
    await page.getByTestId('beyond-race-seeds').fill(String(SEEDS.length));
    await page.getByTestId('beyond-race-start').click();
    // One progress bar per job: the corpus, then per task and seed the RoPE family (for language with its reading
    // of NTK at s = 2L/T, no job of its own: it reads the family's model) and the five other schemes.
    assert.equal(await page.locator('#beyond-race-runs > li').count(), 1 + 2 * SEEDS.length * 6);
    await page.waitForFunction(
      () =>
        ['done', 'error', 'stopped'].includes(
          document.querySelector('[data-testid="beyond-race-status"]').dataset.state,
        ),
      null,
      { timeout: 1_500_000 },
    );
    assert.equal(await page.getByTestId('beyond-race-error').textContent(), '');
    const status = page.getByTestId('beyond-race-status');
    assert.equal(await status.evaluate((el) => el.dataset.state), 'done');
    const stated = JSON.parse(await status.evaluate((el) => el.dataset.options));
    assert.deepEqual(
      { ...stated, evalRows: undefined, seeds: undefined, corpus: undefined },
      { ...OPTIONS, evalRows: undefined, seeds: undefined, corpus: undefined },
    );
    assert.deepEqual(stated.evalRows, EVAL_ROWS);
    assert.deepEqual(stated.seeds, SEEDS);
    assert.equal(await page.locator('#beyond-race-runs > li[data-state="done"]').count(), 1 + 2 * SEEDS.length * 6);

    // The reference: the same corpus file, the same BPE, the library's runs one by one.
    const text = new Uint8Array(readFileSync(join(siteRoot, stated.corpus.url)));
    const tokenizer = await lab.trainTokenizer(text, { vocabSize: stated.corpus.vocabSize, pattern: 'gpt2' });
    const corpus = tokenizer.encodeOrdinary(text);
    const vocabSize = tokenizer.vocabSize;
    tokenizer.dispose();
    const T = OPTIONS.trainLength;
    const L = T * OPTIONS.factors.at(-1);
    // Every run the page drew, one by one, then NTK at s = 2L/T: the same model read at 2L = 256 with factor 8,
    // positions 0–127 (the model is causal).
    const runOptions = (task, scheme, seed, extra = {}) => ({
      ...OPTIONS,
      task,
      scheme,
      seed,
      evalRows: EVAL_ROWS[task],
      ...(task === 'language' ? { corpus, vocabSize } : {}),
      ...extra,
    });
    const wanted = SCHEMES.flatMap((scheme) =>
      SEEDS.flatMap((seed) => [runOptions('language', scheme, seed), runOptions('passkey', scheme, seed)]),
    );
    const wideOptions = SEEDS.map((seed) =>
      runOptions('language', 'rope_ntk', seed, { factors: [1, 8], fineTuneSteps: 0 }),
    );
    const runs = await longContextRuns([...wanted, ...wideOptions]);
    const runOf = (task, scheme, seed) =>
      runs[wanted.findIndex((o) => o.task === task && o.scheme === scheme && o.seed === seed)];
    for (const scheme of SCHEMES) {
      const language = SEEDS.map((seed) => runOf('language', scheme, seed));
      const passkey = SEEDS.map((seed) => runOf('passkey', scheme, seed));
      const drawn = JSON.parse(
        await page.getByTestId(`beyond-race-loss-${scheme}`).evaluate((el) => el.dataset.series),
      );
      const zeroShot = expectedCurve(language, L, false) ?? expectedCurve(language, T, false);
      const { smoothed: drawnSmooth, ...drawnRaw } = drawn.zeroShot;
      assert.deepEqual(drawnRaw, zeroShot, `${scheme}: zero-shot loss by position`);
      assert.deepEqual(
        drawnSmooth.map((v) => v.toFixed(12)),
        smoothed(zeroShot.mean).map((v) => v.toFixed(12)),
        scheme,
      );
      const fineTuned = expectedCurve(language, L, true);
      assert.deepEqual(
        drawn.fineTuned && { ...drawn.fineTuned, smoothed: undefined },
        fineTuned && { ...fineTuned, smoothed: undefined },
        `${scheme}: fine-tuned loss by position`,
      );
      if (scheme === 'learned') {
        assert.equal(drawn.zeroShot.mean.length, T, 'learned positions are read at T only');
        assert.equal(drawn.fineTuned, null);
      }

      const heatmap = page.getByTestId(`beyond-race-passkey-${scheme}`);
      const columns = JSON.parse(await heatmap.evaluate((el) => el.dataset.columns));
      const readings = columns.map((label) => ({
        length: Number.parseInt(label, 10),
        fineTuned: label.endsWith('ft'),
      }));
      const expectedColumns = scheme === 'learned' ? ['32'] : ['32', '64', '128', '64 ft', '128 ft'];
      assert.deepEqual(columns, expectedColumns, scheme);
      const expected = [];
      OPTIONS.depths.forEach((_, d) => {
        for (const { length, fineTuned } of readings) {
          expected.push(
            mean(
              passkey.map(
                (r) => r.readings.find((x) => x.length === length && x.fineTuned === fineTuned).accuracyByDepth[d],
              ),
            ),
          );
        }
      });
      assert.deepEqual(JSON.parse(await heatmap.evaluate((el) => el.dataset.values)), expected, `${scheme}: heatmap`);

      // The table row: accuracy averaged over depths, mean (min–max) over seeds, in %.
      const perSeed = (length, fineTuned) =>
        passkey.map((r) =>
          mean(Array.from(r.readings.find((x) => x.length === length && x.fineTuned === fineTuned).accuracyByDepth)),
        );
      const cells = await page
        .locator(`[data-testid="beyond-race-passkey-table"] tr[data-scheme="${scheme}"] td`)
        .allTextContents();
      const first = perSeed(T, false);
      const percent = (x) => (100 * x).toFixed(0);
      assert.equal(cells[0], `${percent(mean(first))} (${percent(Math.min(...first))}–${percent(Math.max(...first))})`);
      if (scheme === 'learned') {
        assert.deepEqual(cells.slice(1), ['n/a', 'n/a', 'n/a', 'n/a']);
      }
    }
    const wide = runs.slice(wanted.length).map((run) => {
      const long = run.readings.find((r) => r.length === 2 * L);
      return {
        readings: [
          { length: L, fineTuned: false, available: true, lossByPosition: Array.from(long.lossByPosition).slice(0, L) },
        ],
      };
    });
    const drawnWide = JSON.parse(
      await page.getByTestId('beyond-race-loss-rope_ntk_wide').evaluate((el) => el.dataset.series),
    );
    const expectedWide = expectedCurve(wide, L, false);
    assert.deepEqual(
      { ...drawnWide.zeroShot, smoothed: undefined },
      { ...expectedWide, smoothed: undefined },
      'NTK at 2L/T',
    );
    assert.equal(drawnWide.fineTuned, null);

    const claims = await page
      .locator('#beyond-race-claims > li')
      .evaluateAll((list) => list.map((li) => li.dataset.claim));
    assert.deepEqual(claims, [
      'rope',
      'pi',
      'ntk-yarn',
      'alibi',
      't5',
      'nope',
      'sinusoidal',
      'passkey-at-L',
      'learned',
    ]);
    // Three seeds: the predictions have verdicts, each past a stated margin.
    assert.equal(await page.locator('#beyond-race-claims > li[data-seeds]').count(), 6);
    assert.match(await page.getByTestId('beyond-race-verdict-rule').textContent(), /past a margin: 0\.05 nats of loss/);
    // Passkey models that never learned the task at T are named and counted (20 steps: most of them); the RoPE
    // family is one trained model per seed.
    const unlearned = page.getByTestId('beyond-race-unlearned');
    assert.equal(await unlearned.evaluate((el) => el.dataset.counted), String((SCHEMES.length - 3) * SEEDS.length));
    assert.deepEqual(problems, []);
  });
});
