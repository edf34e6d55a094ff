// The page starts the chapters in view first: main.js marks each section's start (performance.mark
// 'section-start:ID') and the moment the chapters in view show their numbers ('page-shown'). Those near the window
// start before 'page-shown', the others after it (when the reader comes near them, or once the page is idle), and by
// 'ready' every section has started.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { launch, openPage, useSession, waitForPage } from './browser.mjs';

const CHAPTERS = [
  'tokenize',
  'embeddings',
  'order',
  'sinusoidal',
  'learned',
  'compare',
  'beyond',
  'scale',
  'exercises',
];

let env;
useSession(
  async () => {
    const session = await launch();
    const close = async () => {
      await session.browser.close();
      await new Promise((resolve) => session.server.close(resolve));
    };
    return { ...session, close };
  },
  (session) => {
    env = session;
  },
);

/** Loads the page at `path` in `viewport`; resolves to each section's start time and the time of 'page-shown'. */
async function starts(viewport, path = '') {
  const { context, page, problems } = await openPage(env.browser, env.url, viewport, {}, { path });
  try {
    await waitForPage(page, 120_000);
    const marks = await page.evaluate(() =>
      Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name, m.startTime])),
    );
    assert.deepEqual(problems, []);
    return { marks, page, context };
  } catch (error) {
    await context.close();
    throw error;
  }
}

// [name, viewport, path, chapters in view where the page opens, chapters far from there]
for (const [name, viewport, path, inView, far] of [
  ['desktop, top of the page', { width: 1280, height: 900 }, '', ['tokenize'], ['learned', 'beyond', 'exercises']],
  ['phone, top of the page', { width: 390, height: 844 }, '', ['tokenize'], ['embeddings', 'learned', 'exercises']],
  ['desktop, opened at section 7', { width: 1280, height: 900 }, '#beyond', ['beyond'], ['tokenize', 'exercises']],
]) {
  test(`${name}: the chapters near the window start before 'page-shown', the others after it`, async () => {
    const { marks, context } = await starts(viewport, path);
    try {
      const shown = marks['page-shown'];
      assert.ok(shown > 0, `no page-shown mark: ${JSON.stringify(marks)}`);
      assert.ok(marks['page-ready'] >= shown, 'page-ready comes after page-shown');
      for (const id of CHAPTERS) {
        assert.ok(marks[`section-start:${id}`] > 0, `section ${id} never started`);
      }
      const before = CHAPTERS.filter((id) => marks[`section-start:${id}`] < shown);
      for (const id of inView) {
        assert.ok(before.includes(id), `${id} is in view but started after page-shown (started before: ${before})`);
      }
      for (const id of far) {
        assert.ok(!before.includes(id), `${id} is far from the window but started before page-shown`);
      }
    } finally {
      await context.close();
    }
  });
}

// The trainings that start with the page: section 2's once the page is ready (it would hold a core while the other
// sections wait for theirs), section 5's only when the reader comes near it.
for (const [name, viewport] of [
  ['desktop', { width: 1280, height: 900 }],
  ['phone', { width: 390, height: 844 }],
]) {
  test(`${name}: section 2 trains once the page is ready; section 5 waits for the reader`, async () => {
    const { context, page, problems } = await openPage(env.browser, env.url, viewport);
    try {
      const status = (id) => page.getByTestId(id).evaluate((el) => ({ ...el.dataset, text: el.textContent }));
      await page.waitForFunction(() => document.getElementById('main').dataset.state === 'ready', null, {
        timeout: 120_000,
      });
      await page.waitForFunction(
        () => document.querySelector('[data-testid="embeddings-status"]').dataset.state === 'done',
        null,
        { timeout: 120_000 },
      );
      const started = await page.evaluate(() => ({
        ready: performance.getEntriesByName('page-ready')[0].startTime,
        shown: Object.fromEntries(
          performance
            .getEntriesByType('mark')
            .filter((m) => m.name.startsWith('section-shown:'))
            .map((m) => [m.name.slice('section-shown:'.length), m.startTime]),
        ),
      }));
      assert.deepEqual(
        Object.keys(started.shown).sort(),
        [...CHAPTERS].sort(),
        'every section marks its first numbers',
      );
      assert.ok(Math.max(...Object.values(started.shown)) <= started.ready, 'page-ready comes after every section');
      assert.match((await status('embeddings-status')).text, /^Trained 300 steps/);
      const waiting = await status('learned-status');
      assert.equal(waiting.state, 'waiting', 'section 5 trains before the reader comes near it');
      assert.equal(waiting.text, 'Trains when you scroll here.');
      await page.getByTestId('learned-status').evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await page.waitForFunction(
        () => document.querySelector('[data-testid="learned-status"]').dataset.state === 'done',
        null,
        { timeout: 120_000 },
      );
      assert.match((await status('learned-status')).text, /^Trained 400 steps \(seed 1\)/);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
}

// Opened at a #fragment, the reader lands on it: once every section has started, its element sits where the browser
// scrolls it (its scroll-margin below the contents bar), not pushed under the bar or down the page by the chapters
// drawn above and below it meanwhile.
for (const [name, viewport, path] of [
  ['desktop, opened at section 8', { width: 1280, height: 900 }, '#scale'],
  ['phone, opened at section 6', { width: 390, height: 844 }, '#compare'],
  ['desktop, opened at a figure of section 7', { width: 1280, height: 900 }, '#beyond-alibi-grid'],
]) {
  test(`${name}: the fragment's element is in place once the page is ready`, async () => {
    const { context, page, problems } = await openPage(env.browser, env.url, viewport, {}, { path });
    try {
      await waitForPage(page, 120_000);
      const place = await page.evaluate((id) => {
        const target = document.getElementById(id);
        return {
          top: target.getBoundingClientRect().top,
          margin: parseFloat(getComputedStyle(target).scrollMarginTop),
        };
      }, path.slice(1));
      assert.ok(place.margin > 0, 'the page gives chapters a scroll margin under its contents bar');
      assert.ok(
        Math.abs(place.top - place.margin) <= 2,
        `${path} at ${place.top} px from the top, not ${place.margin}`,
      );
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
}
