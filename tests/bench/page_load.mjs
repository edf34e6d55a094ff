// Page load benchmark (not a test): the tutorial page loaded in chromium as the browser tests load it, several times,
// each in a fresh context (no cache, no service worker), traced from before the navigation. Reports the medians of:
// time from navigation to section 1's first tokens, to 'shown' (#main data-state: the chapters in view have their
// numbers; those further down start when the reader comes near them or the page has a moment), to 'ready' (every
// section's first numbers), to section 2's training done (it starts at 'ready'; section 5's waits for the reader to
// come near it, so it is not part of a load), and the page's longest main-thread task over the whole load, in CPU
// time and wall time (a Chromium trace, tests/browser/heavy_input.mjs), with the load average: on a shared machine
// wall times say as much about the others. Untraced loads alternate with the traced ones: tracing and routing every
// request through Playwright slow the page by about half a second, so the times a reader meets come from plain loads
// (a fresh context, no trace, no routing), and the longest task from the traced ones.
// `node tests/bench/page_load.mjs` (or `node tests/bench/run.mjs 'Page load'`); PAGE_LOAD_RUNS sets the loads (7).
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { launch, openPage } from '../browser/browser.mjs';
import { measureLoad } from '../browser/heavy_input.mjs';
import { median } from './timing.mjs';

// Waits for section 2's training to finish (it starts once the page is ready; section 5's waits for the reader to come
// near it, so a load that stays at the top never runs it) and returns the page's own clock at 'shown', at 'ready' (the
// marks main.js sets, not when this script saw them) and now.
async function readyTimes(page) {
  await page.waitForFunction(
    () =>
      document.getElementById('main')?.dataset.state === 'ready' &&
      document.querySelector('[data-testid="embeddings-status"]')?.dataset.state === 'done',
    null,
    { timeout: 60_000 },
  );
  return page.evaluate(() => ({
    trained: performance.now(),
    // Section 1 is the tokenizer: its first numbers are the first tokens.
    tokens: performance.getEntriesByName('section-shown:tokenize')[0]?.startTime ?? NaN,
    shown: performance.getEntriesByName('page-shown')[0]?.startTime ?? NaN,
    ready: performance.getEntriesByName('page-ready')[0]?.startTime ?? NaN,
  }));
}

/** A load as a reader's: {tokens, shown, ready, trained} in ms after navigation, no trace, no request routing. */
async function plainLoad(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
  try {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(url);
    const times = await readyTimes(page);
    if (errors.length > 0) {
      throw new Error(`the page threw: ${errors.join('; ')}`);
    }
    return times;
  } finally {
    await context.close();
  }
}

/** One traced load: {tokens, shown, ready} in ms after navigation (the page's clock), and its longest main-thread task. */
async function load(browser, url) {
  const { context, page, problems } = await openPage(browser, url, undefined, {}, { path: 'about:blank' });
  try {
    const times = {};
    const tasks = await measureLoad(browser, page, url, async () => {
      Object.assign(times, await readyTimes(page));
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
    const plain = [];
    for (let i = 0; i < runs; i++) {
      plain.push(await plainLoad(browser, url));
      loads.push(await load(browser, url));
    }
    const loadAfter = loadavg()[0];
    const row = (label, key, unit, digits, from = loads) => {
      const values = from.map((l) => l[key] / unit);
      return `| ${label} | ${median(values).toFixed(digits)} | ${values.map((v) => v.toFixed(digits)).join(', ')} |`;
    };
    const worst = loads.reduce((a, b) => (b.cpu > a.cpu ? b : a));
    return [
      `The page loaded ${2 * runs} times at 1280 × 900, each in a fresh context, alternately plain (no trace, no ` +
        `request routing: as a reader loads it) and traced (every request routed through Playwright, a Chromium trace ` +
        `for the longest task); load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after:`,
      '',
      '| from navigation | median | each load |',
      '|---|---|---|',
      row('first tokens shown (s)', 'tokens', 1000, 2, plain),
      row('shown: the chapters in view with their numbers (s)', 'shown', 1000, 2, plain),
      row('ready: every section’s first numbers (s)', 'ready', 1000, 2, plain),
      row('section 2’s training done (300 steps in a worker, after ready) (s)', 'trained', 1000, 2, plain),
      row('traced loads: first tokens shown (s)', 'tokens', 1000, 2),
      row('traced loads: ready (s)', 'ready', 1000, 2),
      row('traced loads: section 2’s training done (s)', 'trained', 1000, 2),
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
