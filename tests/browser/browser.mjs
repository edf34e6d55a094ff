// Shared set-up for the browser tests and the screenshot script: Debian's chromium driven by playwright-core,
// the site served from 127.0.0.1 by scripts/serve.mjs.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { pinSite, startServer } from '../../scripts/serve.mjs';
import { after, before } from 'node:test';

export const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
// One build of the site for the whole test file, served and read from its own folder: a rebuild meanwhile (npm start
// beside npm test) switches build/site to a new build but leaves this one in place until the file's process ends.
export const siteRoot = pinSite(resolve(process.env.EMBEDLAB_SITE ?? resolve(repoRoot, 'build/site'))).root;

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export async function launch() {
  const { server, url } = await startServer({ root: siteRoot, port: 0 });
  let browser;
  try {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    });
  } catch (error) {
    server.close();
    throw error;
  }
  return { server, url, browser };
}

/** True for requests the page may make: the local server, and data:/blob: URLs. */
export function isLocal(requestUrl) {
  const u = new URL(requestUrl);
  if (u.protocol === 'data:' || u.protocol === 'blob:') {
    return true;
  }
  return (u.protocol === 'http:' || u.protocol === 'https:' || u.protocol === 'ws:') && u.hostname === '127.0.0.1';
}

/** A strict Content-Security-Policy for the page: no eval (the package links with -sDYNAMIC_EXECUTION=0),
 * no inline script or style, nothing from other origins; only wasm compilation is allowed. */
export const STRICT_CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Opens a page that records console errors, page errors and non-local requests (which are aborted).
 * Returns {context, page, problems}; problems is an array of strings that a test asserts to be empty.
 * extras.path is appended to url; extras.csp serves the document with that Content-Security-Policy header.
 */
export async function openPage(browser, url, viewport = { width: 1280, height: 900 }, options = {}, extras = {}) {
  // Service workers blocked unless a test asks for them (offline.test.mjs): otherwise every test would install the
  // page's worker and copy its 6.8 MB precache in the background, competing with what the test measures.
  const context = await browser.newContext({ viewport, serviceWorkers: 'block', ...options });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') {
      problems.push(`console error: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    if (isLocal(request.url())) {
      problems.push(`request failed: ${request.url()} (${request.failure()?.errorText})`);
    }
  });
  await context.route('**/*', (route) => {
    const requestUrl = route.request().url();
    if (isLocal(requestUrl)) {
      return route.continue();
    }
    problems.push(`non-local request: ${requestUrl}`);
    return route.abort('blockedbyclient');
  });
  const pageUrl = new URL(extras.path ?? '', url).href;
  if (extras.csp) {
    await page.route(pageUrl, async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': extras.csp } });
    });
  }
  await page.goto(pageUrl);
  return { context, page, problems };
}

/** Waits until the page shows results computed for these inputs. */
export async function waitForResults(page, { positions, a, b }) {
  await page.waitForFunction(
    ([positions, a, b]) => {
      const results = document.querySelector('[data-testid="compare-results"]');
      const value = document.querySelector('[data-testid="compare-pooled-cosine-attention"]')?.textContent ?? '';
      return (
        results?.dataset.positions === positions &&
        results.dataset.sentenceA === a &&
        results.dataset.sentenceB === b &&
        /^-?\d\.\d{3}$/.test(value)
      );
    },
    [positions, a, b],
    { timeout: 15_000 },
  );
}

/** Once the page is ready: section 5's first training, unless the reader's coming near has started it already. */
export async function startLearnedTraining(page, timeout = 60_000) {
  await page.waitForFunction(() => document.getElementById('main')?.dataset.state === 'ready', null, { timeout });
  await page.evaluate(() => {
    if (document.querySelector('[data-testid="learned-status"]').dataset.state === 'waiting') {
      document.querySelector('[data-testid="learned-train"]').click();
    }
  });
}

/**
 * Waits until every section shows its first results, the trainings of sections 2 and 5 included. Section 5's starts
 * when the reader comes near it: unless it has, this starts it with its own button (the page stays where it is).
 */
export async function waitForPage(page, timeout = 60_000) {
  await startLearnedTraining(page, timeout);
  await page.waitForFunction(
    () => {
      const state = (id) => document.querySelector(`[data-testid="${id}"]`)?.dataset.state;
      return (
        document.getElementById('main')?.dataset.state === 'ready' &&
        document.querySelector('[data-testid="tokenize-output"]')?.dataset.vocab !== undefined &&
        ['embeddings-status', 'learned-status'].every((id) => state(id) === 'done') && // the race waits for a click
        document.querySelector('[aria-busy="true"]') === null && // results of the workers (section 1, embeddings)
        /^-?\d\.\d{3}$/.test(
          document.querySelector('[data-testid="compare-pooled-cosine-attention"]')?.textContent ?? '',
        )
      );
    },
    null,
    { timeout },
  );
}

/**
 * Registers before and after hooks on the current suite: before, `start()` resolves to a session with a close()
 * method and `assign(session)` hands its parts to the suite's variables; after, the session is closed.
 */
export function useSession(start, assign) {
  let session;
  before(async () => {
    session = await start();
    assign(session);
  });
  after(async () => {
    await session?.close();
  });
}
