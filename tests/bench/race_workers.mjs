// Race benchmark (not a test): section 7's extrapolation race in chromium, in one Web Worker (?raceWorkers=1) and in
// as many as the page takes (navigator.hardwareConcurrency, at most 8), alternately for several rounds; reports the
// wall times (the page's own timer, from the click to the last job) and the median speed-up. The race's runs are
// independent, so on an idle machine the speed-up approaches the number of cores.
// `node tests/bench/race_workers.mjs` (or `node tests/bench/run.mjs 'Race workers'`); RACE_BENCH_STEPS and
// RACE_BENCH_FINE_TUNE set the steps per run (default: the page's own defaults), RACE_BENCH_ROUNDS the rounds (3).
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { launch, openPage } from '../browser/browser.mjs';

async function raceSeconds(browser, url, path, steps, fineTune) {
  const { context, page, problems } = await openPage(browser, url, { width: 1280, height: 900 }, {}, { path });
  try {
    await page.waitForFunction(() => document.getElementById('main')?.dataset.state === 'ready', null, {
      timeout: 300_000,
    });
    if (steps) {
      await page.getByTestId('beyond-race-steps').fill(steps);
    }
    if (fineTune) {
      await page.getByTestId('beyond-race-fine-tune').fill(fineTune);
    }
    await page.getByTestId('beyond-race-start').click();
    await page.waitForFunction(
      () =>
        ['done', 'error', 'stopped'].includes(
          document.querySelector('[data-testid="beyond-race-status"]').dataset.state,
        ),
      null,
      { timeout: 3_600_000, polling: 1000 },
    );
    const status = page.getByTestId('beyond-race-status');
    const { state, seconds, workers, options } = await status.evaluate((el) => ({ ...el.dataset }));
    if (state !== 'done' || problems.length > 0) {
      throw new Error(
        `the race ended '${state}': ${await page.getByTestId('beyond-race-error').textContent()} ${problems}`,
      );
    }
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    return { seconds: Number(seconds), workers: Number(workers), cores, options: JSON.parse(options) };
  } finally {
    await context.close();
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function benchRaceWorkers() {
  const steps = process.env.RACE_BENCH_STEPS;
  const fineTune = process.env.RACE_BENCH_FINE_TUNE;
  const rounds = Number(process.env.RACE_BENCH_ROUNDS ?? 3);
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 20) {
    throw new Error(`RACE_BENCH_ROUNDS must be an integer from 1 to 20, got ${process.env.RACE_BENCH_ROUNDS}`);
  }
  const { server, url, browser } = await launch();
  try {
    const loadBefore = loadavg()[0];
    // Alternating one worker and all of them, round after round, so that a slow spell of the machine falls on both.
    const one = [];
    const many = [];
    for (let round = 0; round < rounds; round++) {
      one.push(await raceSeconds(browser, url, '?raceWorkers=1', steps, fineTune));
      many.push(await raceSeconds(browser, url, '', steps, fineTune));
    }
    const loadAfter = loadavg()[0];
    const { steps: s, fineTuneSteps: f, seeds } = many[0].options;
    const oneSeconds = one.map((r) => r.seconds);
    const manySeconds = many.map((r) => r.seconds);
    const ratios = oneSeconds.map((t, i) => t / manySeconds[i]);
    const list = (values, digits) => values.map((v) => v.toFixed(digits)).join(', ');
    return [
      `Section 7's race (${s} steps, ${f} fine-tuning steps, ${seeds.length} seeds; navigator.hardwareConcurrency = ${many[0].cores}), ${rounds} rounds, load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after:`,
      '',
      '| workers | median wall time (s) | each round (s) | speed-up (median of rounds) | each round |',
      '|---|---|---|---|---|',
      `| 1 | ${median(oneSeconds).toFixed(1)} | ${list(oneSeconds, 1)} | 1.00× | |`,
      `| ${many[0].workers} | ${median(manySeconds).toFixed(1)} | ${list(manySeconds, 1)} | ${median(ratios).toFixed(2)}× | ${list(ratios, 2)} |`,
    ].join('\n');
  } finally {
    await browser.close();
    server.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await benchRaceWorkers());
}
