// The package in a module Web Worker in Chromium, under a strict Content-Security-Policy: the same program as the
// server-side runtimes (tests/runtimes/smoke_core.mjs); ids against tiktoken, model numbers bit-identical to node's.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { chromium } from 'playwright-core';

import { startServer } from '../../scripts/serve.mjs';
import { checkReport, expectations } from '../runtimes/expected.mjs';
import { CHROMIUM_ARGS, openPage, repoRoot, STRICT_CSP } from './browser.mjs';

let root, server, url, browser;

before(async () => {
  // The page and worker from tests/runtimes/, the package from dist/ (what npm ships), side by side.
  root = mkdtempSync(join(tmpdir(), 'embedlab-worker-'));
  symlinkSync(join(repoRoot, 'tests/runtimes'), join(root, 'runtimes'));
  symlinkSync(join(repoRoot, 'dist'), join(root, 'embedlab'));
  ({ server, url } = await startServer({ root }));
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  server?.close();
  if (root) {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a module Web Worker imports the package, tokenizes and trains a tiny model', async () => {
  const expected = await expectations(pathToFileURL(join(repoRoot, 'dist/index.js')).href);
  const { context, page, problems } = await openPage(
    browser,
    url,
    undefined,
    {},
    {
      path: 'runtimes/worker.html',
      csp: STRICT_CSP,
    },
  );
  try {
    await page.waitForFunction(() => document.getElementById('result').dataset.state !== 'loading', null, {
      timeout: 30_000,
    });
    const text = await page.textContent('#result');
    assert.equal(await page.getAttribute('#result', 'data-state'), 'done', text);
    const report = JSON.parse(text);
    assert.match(report.runtime, /Chrome\//);
    checkReport(report, expected, { hasProcess: false }); // a worker has no process object
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
