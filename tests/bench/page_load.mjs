// Page load benchmark (not a test): the tutorial page loaded in chromium as the browser tests load it, several times,
// each in a fresh context (no cache, no service worker), traced from before the navigation. Reports the medians of:
// time from navigation to section 1's first tokens, to 'shown' (#main data-state: the chapters in view have their
// numbers; those further down start when the reader comes near them or the page is idle), to 'ready' (what
// waitForPage waits for: every section's first numbers, sections 2 and 5's trainings done), and the page's longest
// main-thread task over the whole load, in CPU time and wall time (a Chromium trace,
// tests/browser/heavy_input.mjs), with the load average: on a shared machine wall times say as much about the others.
// `node tests/bench/page_load.mjs` (or `node tests/bench/run.mjs 'Page load'`); PAGE_LOAD_RUNS sets the loads (7).
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { launch, openPage, waitForPage } from '../browser/browser.mjs';
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
      await waitForPage(page);
      times.ready = await page.evaluate(() => performance.now());
      // The page's own clock when it said 'shown' (main.js marks it), not when this script saw it.
      times.shown = await page.evaluate(() => performance.getEntriesByName('page-shown')[0]?.startTime ?? NaN);
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
      row('ready: every section’s first numbers, both trainings done (s)', 'ready', 1000, 2),
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
