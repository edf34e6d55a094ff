// Race benchmark (not a test): section 7's extrapolation race in chromium, once in one Web Worker (?raceWorkers=1)
// and once in as many as the page takes (navigator.hardwareConcurrency, at most 8); reports the wall time of each
// (the page's own timer, from the click to the last job) and the speed-up. The race's runs are independent, so on
// an idle machine the speed-up approaches the number of cores.
// `node tests/bench/race_workers.mjs` (or `node tests/bench/run.mjs 'Race workers'`); RACE_BENCH_STEPS and
// RACE_BENCH_FINE_TUNE set the steps per run (default: the page's own defaults).
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

export async function benchRaceWorkers() {
  const steps = process.env.RACE_BENCH_STEPS;
  const fineTune = process.env.RACE_BENCH_FINE_TUNE;
  const { server, url, browser } = await launch();
  try {
    const loadBefore = loadavg()[0];
    const one = await raceSeconds(browser, url, '?raceWorkers=1', steps, fineTune);
    const many = await raceSeconds(browser, url, '', steps, fineTune);
    const loadAfter = loadavg()[0];
    const { steps: s, fineTuneSteps: f, seeds } = many.options;
    return [
      `Section 7's race (${s} steps, ${f} fine-tuning steps, ${seeds.length} seeds; navigator.hardwareConcurrency = ${many.cores}), load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after:`,
      '',
      '| workers | wall time (s) | speed-up |',
      '|---|---|---|',
      `| 1 | ${one.seconds.toFixed(1)} | 1.00× |`,
      `| ${many.workers} | ${many.seconds.toFixed(1)} | ${(one.seconds / many.seconds).toFixed(2)}× |`,
    ].join('\n');
  } finally {
    await browser.close();
    server.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await benchRaceWorkers());
}
