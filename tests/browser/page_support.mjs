// Shared by the tutorial page's tests (page.test.mjs: sections 1–5; page_later.test.mjs: sections 6, 7 and 9, the
// phone layout and the strict-CSP fallback run): the page in headless Chromium next to the library in node, and the
// small helpers that read what the page shows.
import createEmbedLab from '../../dist/index.js';
import { launch, openPage, waitForPage } from './browser.mjs';

export const A = 'dog bites man';
export const B = 'man bites dog';
export const DEFAULT_TEXT = 'The dog bites the man. Unbelievably, the man bites the dog! Ünïcödé 🐕‍🦺 狗咬人';

const byTestId = (id) => `[data-testid="${id}"]`;

export async function setRange(page, testId, value) {
  await page.locator(byTestId(testId)).evaluate((el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, value);
}

/** Waits until section 3 shows the results of `ids` (it computes in a worker: they come after the vocabulary). */
export const orderIds = (page, ids) =>
  page.waitForFunction(
    (expected) => document.querySelector('[data-testid="order-pooled"]').dataset.ids === expected,
    Array.from(ids).join(' '),
  );
export const text = async (page, testId) => (await page.getByTestId(testId).textContent()).trim();
export const data = async (page, testId, key) => page.getByTestId(testId).evaluate((el, k) => el.dataset[k], key);

/**
 * Chromium with the page loaded at 1280 × 900 and the library in node: {env, lab, r50k, page, problems, open(viewport,
 * extras, options) for more pages, close()}.
 */
export async function startPage() {
  const contexts = [];
  const [env, lab] = await Promise.all([launch(), createEmbedLab()]);
  const open = async (viewport, extras = {}, options = {}) => {
    const opened = await openPage(env.browser, env.url, viewport, options, extras);
    contexts.push(opened.context);
    return opened;
  };
  const r50k = await lab.getTokenizer('r50k_base');
  const { page, problems } = await open({ width: 1280, height: 900 });
  await waitForPage(page);
  const close = async () => {
    for (const context of contexts) {
      await context.close().catch(() => {});
    }
    await env.browser.close();
    await new Promise((resolve) => env.server.close(resolve));
  };
  return { env, lab, r50k, page, problems, open, close };
}
