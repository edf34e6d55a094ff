// Page load benchmark (not a test): the tutorial page loaded in chromium as the browser tests load it, several times,
// each in a fresh context (no cache, no service worker), traced from before the navigation. Reports the medians of:
// time from navigation to section 1's first tokens, to 'shown' (#main data-state: the chapters in view have their
// numbers; those further down start when the reader comes near them or the page has a moment), to 'ready' (every
// section's first numbers), to section 2's training done (it starts at 'ready'; section 5's waits for the reader to
// come near it, so it is not part of a load), and the page's longest main-thread task over the whole load, in CPU
// time and wall time (a Chromium trace, tests/browser/heavy_input.mjs), with the load average: on a shared machine
// wall times say as much about the others.
// `node tests/bench/page_load.mjs` (or `node tests/bench/run.mjs 'Page load'`); PAGE_LOAD_RUNS sets the loads (7).
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { launch, openPage } from '../browser/browser.mjs';
import { measureLoad } from '../browser/heavy_input.mjs';
import { median } from './timing.mjs';

/** One load: {tokens, shown, ready} in ms after navigation (the page's clock), and its longest main-thread task. */
async function load(browser, url) {
  const { context, page, problems } = await openPage(browser, url, undefined, {}, { path: 'about:blank' });
  try {
    const times = {};
    const tasks = await measureLoad(browser, page, url, async () => {
      await page.waitForFunction(
        () => document.querySelector('[data-testid="tokenize-output"]')?.dataset.vocab !== undefined,
        null,
        { timeout: 60_000 },
      );
      times.tokens = await page.evaluate(() => performance.now());
      // Section 2's training (a worker job with its progress bar) starts once the page is ready; section 5's waits
      // for the reader to come near it, so a load that stays at the top never runs it.
      await page.waitForFunction(
        () =>
          document.getElementById('main')?.dataset.state === 'ready' &&
          document.querySelector('[data-testid="embeddings-status"]')?.dataset.state === 'done',
        null,
        { timeout: 60_000 },
      );
      times.trained = await page.evaluate(() => performance.now());
      // The page's own clock when it said 'shown' and 'ready' (main.js marks them), not when this script saw them.
      Object.assign(
        times,
        await page.evaluate(() => ({
          shown: performance.getEntriesByName('page-shown')[0]?.startTime ?? NaN,
          ready: performance.getEntriesByName('page-ready')[0]?.startTime ?? NaN,
        })),
      );
    });
    if (problems.length > 0) {
      throw new Error(`the page reported problems: ${problems.join('; ')}`);
    }
    const longest = tasks[0];
    return { ...times, cpu: longest.cpu, wall: Math.max(...tasks.map((t) => t.wall)), inside: longest.inside };
  } finally {
    await context.close();
  }
}

export async function benchPageLoad() {
  const runs = Number(process.env.PAGE_LOAD_RUNS ?? 7);
  if (!Number.isInteger(runs) || runs < 1 || runs > 50) {
    throw new Error(`PAGE_LOAD_RUNS must be an integer from 1 to 50, got ${process.env.PAGE_LOAD_RUNS}`);
  }
  const { server, url, browser } = await launch();
  try {
    const loadBefore = loadavg()[0];
    const loads = [];
    for (let i = 0; i < runs; i++) {
      loads.push(await load(browser, url));
    }
    const loadAfter = loadavg()[0];
    const column = (key) => loads.map((l) => l[key]);
    const row = (label, key, unit, digits) => {
      const values = column(key).map((v) => v / unit);
      return `| ${label} | ${median(values).toFixed(digits)} | ${values.map((v) => v.toFixed(digits)).join(', ')} |`;
    };
    const worst = loads.reduce((a, b) => (b.cpu > a.cpu ? b : a));
    return [
      `The page loaded ${runs} times at 1280 × 900, each in a fresh context, load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after:`,
      '',
      '| from navigation | median | each load |',
      '|---|---|---|',
      row('first tokens shown (s)', 'tokens', 1000, 2),
      row('shown: the chapters in view with their numbers (s)', 'shown', 1000, 2),
      row('ready: every section’s first numbers (s)', 'ready', 1000, 2),
      row('section 2’s training done (300 steps in a worker, after ready) (s)', 'trained', 1000, 2),
      row('longest main-thread task, CPU (ms)', 'cpu', 1, 0),
      row('longest main-thread task, wall (ms)', 'wall', 1, 0),
      '',
      `Inside the longest task (${Math.round(worst.cpu)} ms CPU): ${worst.inside.join(', ') || 'no traced event (script alone)'}.`,
    ].join('\n');
  } finally {
    await browser.close();
    server.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await benchPageLoad());
}
