// The package through a bundler: a Vite app installs the packed tarball, builds, and runs in Chromium; the same app
// under Vite's dev server (which pre-bundles the package into node_modules/.vite/deps) runs too.
import assert from 'node:assert/strict';
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';
import { get_encoding } from 'tiktoken';
import { build, createServer } from 'vite';

import { startServer } from '../../scripts/serve.mjs';
import { installPackedPackage } from '../node/pack.mjs';
import { CHROMIUM_ARGS, openPage } from './browser.mjs';

let project, server, url, browser;

before(async () => {
  project = installPackedPackage('embedlab-vite-');
  cpSync(fileURLToPath(new URL('./vite-app/', import.meta.url)), project, { recursive: true });
  await build({ root: project, logLevel: 'error', build: { outDir: 'dist', target: 'es2022' } });
  ({ server, url } = await startServer({ root: join(project, 'dist') }));
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  server?.close();
  if (project) {
    rmSync(project, { recursive: true, force: true });
  }
});

async function checkApp(appUrl) {
  const { page, problems } = await openPage(browser, appUrl);
  await page.waitForFunction(() => document.getElementById('result').textContent !== 'loading');
  const text = await page.textContent('#result');
  assert.ok(!text.startsWith('error'), text);
  const { target, without, withPositions, ids, hfIds } = JSON.parse(text);
  assert.equal(target, 'WASM');
  const cl100k = get_encoding('cl100k_base');
  assert.deepEqual(ids, Array.from(cl100k.encode('dog bites man, 狗咬人 🐕')));
  cl100k.free();
  assert.deepEqual(hfIds, [2, 4]); // Tokenizers.js' ids for this file (tests/node/hf_api.test.mjs)
  assert.ok(Math.abs(without - 1) <= 1e-6);
  assert.ok(withPositions < 0.999);
  assert.deepEqual(problems, []);
}

test('a Vite build of an app importing embedlab loads the wasm, a vocabulary and the Hugging Face module, and computes', async () => {
  await checkApp(url);
});

test("the same app under Vite's dev server (the package pre-bundled) loads them too", async () => {
  const dev = await createServer({ root: project, logLevel: 'error', server: { host: '127.0.0.1', port: 0 } });
  try {
    await dev.listen();
    await checkApp(dev.resolvedUrls.local[0]);
  } finally {
    await dev.close();
  }
});
