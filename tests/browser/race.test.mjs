// Section 7's extrapolation race: for one small configuration, every number the page draws (loss at each position,
// passkey accuracy by depth x length, mean and min-max over seeds) equals the library's longContextRun in node with
// the same options, computed here from the runs and not by the page's modules.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import createEmbedLab from '../../dist/index.js';
import { launch, openPage, siteRoot } from './browser.mjs';

const STEPS = 20;
const FINE_TUNE_STEPS = 10;
const SEEDS = [0, 1, 2];
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
const EVAL_ROWS = { passkey: 20, language: 64 };
const SCHEMES = ['learned', 'sinusoidal', 'rope', 'rope_pi', 'rope_ntk', 'rope_yarn', 'alibi', 't5', 'none'];

const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;

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

  test('the page runs the race in parallel workers and draws the library numbers for every scheme and seed', async () => {
    await page.waitForFunction(() => document.getElementById('main')?.dataset.state === 'ready', null, {
      timeout: 120_000,
    });
    await page.getByTestId('beyond-race-steps').fill(String(STEPS));
    await page.getByTestId('beyond-race-fine-tune').fill(String(FINE_TUNE_STEPS));
    await page.getByTestId('beyond-race-seeds').fill(String(SEEDS.length));
    await page.getByTestId('beyond-race-start').click();
    // One progress bar per job: the corpus, then per task and seed the RoPE family and the five other schemes.
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
    assert.equal(await page.locator('#beyond-race-runs > li[data-state="done"]').count(), 1 + 2 * SEEDS.length * 6);

    // The reference: the same corpus file, the same BPE, the library's runs one by one.
    const text = new Uint8Array(readFileSync(join(siteRoot, stated.corpus.url)));
    const tokenizer = await lab.trainTokenizer(text, { vocabSize: stated.corpus.vocabSize, pattern: 'gpt2' });
    const corpus = tokenizer.encodeOrdinary(text);
    const vocabSize = tokenizer.vocabSize;
    tokenizer.dispose();
    const T = OPTIONS.trainLength;
    const L = T * OPTIONS.factors.at(-1);
    for (const scheme of SCHEMES) {
      const run = (task, seed, extra = {}) =>
        lab.longContextRun({ ...OPTIONS, task, scheme, seed, evalRows: EVAL_ROWS[task], ...extra });
      const language = [];
      const passkey = [];
      for (const seed of SEEDS) {
        language.push(await run('language', seed, { corpus, vocabSize }));
        passkey.push(await run('passkey', seed));
      }
      const drawn = JSON.parse(
        await page.getByTestId(`beyond-race-loss-${scheme}`).evaluate((el) => el.dataset.series),
      );
      const zeroShot = expectedCurve(language, L, false) ?? expectedCurve(language, T, false);
      assert.deepEqual(drawn.zeroShot, zeroShot, `${scheme}: zero-shot loss by position`);
      assert.deepEqual(drawn.fineTuned, expectedCurve(language, L, true), `${scheme}: fine-tuned loss by position`);
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
    const claims = await page
      .locator('#beyond-race-claims > li')
      .evaluateAll((list) => list.map((li) => li.dataset.claim));
    assert.deepEqual(claims, ['rope', 'pi', 'ntk-yarn', 'alibi', 'learned']);
    assert.deepEqual(problems, []);
  });
});
