// Offline use in headless Chromium: the page is loaded once (the service worker copies the site), the browser goes
// offline, the page is loaded again and every section is used; no request may fail. The tokens shown are checked
// against the library in node, so a vocabulary that failed to load cannot pass. A file the worker does not keep
// must then fail to load (proof that the browser really is offline), and a rebuilt site must be shown at once.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { execFileSync } from 'node:child_process';
import createEmbedLab from '../../dist/index.js';
import { startServer } from '../../scripts/serve.mjs';
import { launch, openPage, repoRoot, siteRoot } from './browser.mjs';

const DEFAULT_TEXT = 'The dog bites the man. Unbelievably, the man bites the dog! Ünïcödé 🐕‍🦺 狗咬人';
// Files of the site the page never loads, which the worker leaves out: the package's node CLI and tokenizer-only entry.
const NOT_FOR_THE_PAGE = /^(sw\.js|embedlab\/(cli\/\w+\.js|tokenizer\.js|embedlab-tokenizer-\w+\.(js|wasm)))$/;
// Section 1's open-model vocabularies and the library's Hugging Face module that reads them: fetched when the reader
// picks one (and copied then, tests/browser/hf_offline.test.mjs), never at install.
const FETCHED_WHEN_PICKED = /^(vocab\/hf\/\w+\.bin|embedlab\/embedlab-hf-\w+\.(js|wasm))$/;
const LEFT_OUT = 'embedlab/tokenizer.js';

const tokenizers = new Map(); // name → the library's tokenizer in node, the reference for the page's tokens
const tokenizer = async (lab, name) => {
  if (!tokenizers.has(name)) {
    tokenizers.set(name, await lab.getTokenizer(name));
  }
  return tokenizers.get(name);
};

const byTestId = (id) => `[data-testid="${id}"]`;

function siteFiles(dir, root = dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? siteFiles(join(dir, entry.name), root)
      : [relative(root, join(dir, entry.name)).split(sep).join('/')],
  );
}

/** Waits until the service worker controls the page and its footer line says the copy is complete. */
async function waitForOfflineCopy(page) {
  await page.waitForFunction(
    () =>
      document.querySelector('[data-testid="page-offline"]').dataset.state === 'error' ||
      (navigator.serviceWorker.controller !== null &&
        document.querySelector('[data-testid="page-offline"]').dataset.state !== undefined),
    null,
    { timeout: 120_000 },
  );
  const footer = page.getByTestId('page-offline');
  assert.equal(await footer.getAttribute('data-state'), 'saved', await footer.textContent());
  assert.match(await footer.textContent(), /both builds \(SIMD and fallback\) of the library and 4 vocabularies/);
}

/** Paths (relative to the site) of the requests in the page's copy, read with the page's Cache Storage API. */
function copiedPaths(page) {
  return page.evaluate(async () => {
    const names = (await caches.keys()).filter((name) => name.startsWith('embedlab-precache-'));
    const cache = await caches.open(names[0]);
    const paths = (await cache.keys()).map((request) => new URL(request.url).pathname.slice(1));
    return { names, paths };
  });
}

const fetchStatus = (page, path) =>
  page.evaluate(
    (p) =>
      fetch(p).then(
        (r) => `HTTP ${r.status}`,
        (error) => `failed: ${error.message}`,
      ),
    path,
  );

/** Sets a status line's state aside, presses the button and waits for the state the run ends in. */
async function runUntilDone(page, buttonId, statusId, timeout = 120_000) {
  await page.locator(byTestId(statusId)).evaluate((el) => {
    el.dataset.state = 'pressed-by-test';
  });
  await page.getByTestId(buttonId).click();
  await page.waitForFunction(
    (id) => !['pressed-by-test', 'running'].includes(document.querySelector(`[data-testid="${id}"]`).dataset.state),
    statusId,
    { timeout },
  );
  const status = page.getByTestId(statusId);
  const error = await page.evaluate(
    (id) => document.getElementById(id)?.textContent ?? '',
    statusId.replace(/-status$/, '-error'),
  );
  assert.equal(await status.getAttribute('data-state'), 'done', `${statusId}: ${await status.textContent()} ${error}`);
}

/** The fewest training steps (fine-tuning steps, seeds) a section's fields allow: the runs offline stay short. */
async function fewestSteps(page, sectionId) {
  const fields = ['steps', 'fine-tune', 'seeds'].map((name) => `#${sectionId} input[type="number"][id$="-${name}"]`);
  await page.locator(fields.join(', ')).evaluateAll((inputs) => {
    for (const input of inputs) {
      input.value = input.min;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      input.dispatchEvent(new Event('change', { bubbles: true }));
    }
  });
}

async function waitForVocab(page, name, count) {
  await page.waitForFunction(
    ([n, c]) => {
      const out = document.querySelector('[data-testid="tokenize-output"]');
      return out.dataset.vocab === n && out.dataset.count === String(c) && out.getAttribute('aria-busy') !== 'true';
    },
    [name, count],
    { timeout: 60_000 },
  );
}

/** What each section does offline; a section of the page missing here fails the test (add its controls). */
const SECTION_USES = {
  async tokenize(page, lab) {
    const names = await page
      .locator(`${byTestId('tokenize-vocab')} option:not([disabled])`)
      .evaluateAll((options) => options.map((o) => o.value).filter((value) => value !== 'trained'));
    assert.ok(names.length >= 3, `vocabularies to pick: ${names}`); // the trained one is trained below
    for (const name of names) {
      await page.getByTestId('tokenize-vocab').selectOption(name);
      const expected = Array.from((await tokenizer(lab, name)).encode(DEFAULT_TEXT));
      await waitForVocab(page, name, expected.length);
      assert.equal(await page.getByTestId('tokenize-output').getAttribute('data-ids'), expected.join(' '), name);
    }
    // A long text goes to the tokenizer worker, which loads the vocabulary itself.
    const long = `${DEFAULT_TEXT}\n`.repeat(400);
    await page.getByTestId('tokenize-text').fill(long);
    await waitForVocab(page, names.at(-1), (await tokenizer(lab, names.at(-1))).count(long));
    await page.getByTestId('tokenize-text').fill(DEFAULT_TEXT);
    await page.getByTestId('tokenize-bpe-corpus').fill('the cat sat on the mat. the dog sat on the log. '.repeat(40));
    await page.getByTestId('tokenize-bpe-size').fill('300');
    await runUntilDone(page, 'tokenize-bpe-train', 'tokenize-bpe-status');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="tokenize-output"]').dataset.vocab === 'trained',
    );
    await page.getByTestId('tokenize-vocab').selectOption('r50k_base');
    await waitForVocab(page, 'r50k_base', (await tokenizer(lab, 'r50k_base')).count(DEFAULT_TEXT));
  },
  async embeddings(page) {
    await fewestSteps(page, 'embeddings');
    await runUntilDone(page, 'embeddings-train', 'embeddings-status');
    await runUntilDone(page, 'embeddings-frozen-train', 'embeddings-frozen-status');
  },
  async order(page) {
    const second = await page
      .locator(`${byTestId('order-j')} option`)
      .nth(1)
      .getAttribute('value');
    await page.getByTestId('order-j').selectOption(second);
    assert.match(await page.getByTestId('order-pooled').textContent(), /\d\.\d{3}/);
  },
  async sinusoidal(page) {
    await page.locator(byTestId('sinusoidal-dim')).evaluate((el) => {
      el.value = '32';
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await page.waitForFunction(() => document.getElementById('sinusoidal-residual').dataset.state.startsWith('32/'));
  },
  async learned(page) {
    await fewestSteps(page, 'learned');
    await runUntilDone(page, 'learned-train', 'learned-status');
  },
  async compare(page) {
    await page.getByTestId('compare-positions-learned').check();
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="compare-results"]').dataset.positions === 'learned' &&
        /^-?\d\.\d{3}$/.test(document.querySelector('[data-testid="compare-pooled-cosine-attention"]').textContent),
    );
  },
  async beyond(page) {
    await page.locator(byTestId('beyond-alibi-len')).evaluate((el) => {
      el.value = '5';
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="beyond-alibi-grid"]').dataset.state.endsWith('/5'),
    );
    // The race: its workers load the library and the corpus excerpt; a few finished jobs show they work, then stop.
    await fewestSteps(page, 'beyond');
    await page.getByTestId('beyond-race-start').click();
    await page.waitForFunction(
      () => {
        const runs = [...document.querySelectorAll('#beyond-race-runs > li')];
        const done = runs.filter((li) => li.dataset.state === 'done').length;
        return runs.some((li) => li.dataset.state === 'error') || (runs[0]?.dataset.state === 'done' && done >= 3);
      },
      null,
      { timeout: 300_000 },
    );
    await page.getByTestId('beyond-race-stop').click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="beyond-race-status"]').dataset.state === 'stopped',
    );
    const failed = await page.locator('#beyond-race-runs > li[data-state="error"]').allTextContents();
    assert.deepEqual(failed, [], 'race jobs that failed');
  },
  async scale(page) {
    for (const select of await page.locator('#scale select').all()) {
      for (const value of await select.locator('option:not([disabled])').evaluateAll((os) => os.map((o) => o.value))) {
        await select.selectOption(value);
      }
    }
    await page.waitForFunction(() =>
      [...document.querySelectorAll('#scale output')].every((o) => o.textContent !== '…'),
    );
  },
  async exercises(page) {
    const checks = await page.locator('[data-testid^="exercises-"][data-testid$="-check"]').all();
    assert.ok(checks.length >= 5, `${checks.length} exercises`);
    for (const check of checks) {
      await check.click();
    }
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('[data-testid^="exercises-"][data-testid$="-result"]')].every(
          (result) => result.dataset.ok !== undefined,
        ),
      null,
      { timeout: 120_000 },
    );
  },
};

describe('offline use', { timeout: 900_000 }, () => {
  let env;
  let lab;
  let opened;

  before(async () => {
    [env, lab] = await Promise.all([launch(), createEmbedLab()]);
    opened = await openPage(env.browser, env.url, { width: 1280, height: 900 }, { serviceWorkers: 'allow' });
  });

  after(async () => {
    await opened?.context.close().catch(() => {});
    await env?.browser.close();
    await new Promise((resolve) => (env ? env.server.close(resolve) : resolve()));
  });

  test('after one visit every section works offline, from the copy the service worker keeps', async () => {
    const { context, page, problems } = opened;
    await waitForOfflineCopy(page);
    // The copy holds every file of the site except the node-only ones, read from disk here.
    const expected = siteFiles(siteRoot)
      .filter((path) => !NOT_FOR_THE_PAGE.test(path) && !FETCHED_WHEN_PICKED.test(path))
      .sort();
    const copy = await copiedPaths(page);
    assert.equal(copy.names.length, 1, `one copy: ${copy.names}`);
    assert.deepEqual(copy.paths.sort(), expected);
    assert.equal(await fetchStatus(page, LEFT_OUT), 'HTTP 200', 'the left-out file is on the server');

    // Leave the page first: requests of its workers that this cuts short are not failures of the offline page.
    await page.goto('about:blank');
    problems.length = 0;
    await context.setOffline(true);
    await page.goto(env.url);
    await page.waitForFunction(() => document.getElementById('main').dataset.state === 'ready', null, {
      timeout: 60_000,
    });
    assert.equal(await page.evaluate(() => navigator.onLine), false);
    const sections = await page.locator('main > section[id]').evaluateAll((all) => all.map((s) => s.id));
    const untested = sections.filter((id) => !(id in SECTION_USES));
    assert.deepEqual(untested, [], 'sections this test does not use offline: add their main controls to SECTION_USES');
    for (const id of sections) {
      await SECTION_USES[id](page, lab);
      assert.deepEqual(problems, [], `after section ${id}`);
    }
    const alerts = await page.locator('[role="alert"]').evaluateAll((all) => all.map((a) => a.textContent.trim()));
    assert.deepEqual(alerts.filter(Boolean), [], 'error lines');

    // Both builds are kept: the fallback one loads offline too.
    await page.goto(new URL('?simd=off', env.url).href);
    await page.waitForFunction(() => document.getElementById('main').dataset.state === 'ready', null, {
      timeout: 60_000,
    });
    assert.match(await page.locator('#page-lab-flavour').textContent(), /fallback build/);
    await waitForVocab(page, 'r50k_base', (await tokenizer(lab, 'r50k_base')).count(DEFAULT_TEXT));
    assert.deepEqual(problems, [], 'the fallback build offline');

    // The negative check: a file of the site that the worker does not keep fails to load now.
    assert.match(await fetchStatus(page, LEFT_OUT), /^failed: /);
    assert.equal(await fetchStatus(page, 'embedlab/index.js'), 'HTTP 200');
    assert.ok(
      problems.length > 0 && problems.every((p) => p.includes(LEFT_OUT) || p.includes('ERR_INTERNET_DISCONNECTED')),
      `${problems}`,
    );
  });

  test('a rebuilt site is shown at the next load, and its worker copies the new build', async () => {
    // A site of its own (build/site may be rebuilt meanwhile): a copy, with its worker written for that copy.
    const dir = mkdtempSync(join(tmpdir(), 'embedlab-offline-'));
    cpSync(siteRoot, dir, { recursive: true });
    const writeWorker = () => {
      cpSync(join(repoRoot, 'web/sw.js'), join(dir, 'sw.js'));
      execFileSync(process.execPath, [join(repoRoot, 'scripts/build-service-worker.mjs'), dir]);
    };
    writeWorker();
    const { server, url } = await startServer({ root: dir, port: 0 });
    const context = await env.browser.newContext({ serviceWorkers: 'allow' });
    try {
      const page = await context.newPage();
      await page.goto(url);
      await waitForOfflineCopy(page);
      const [oldCopy] = (await copiedPaths(page)).names;
      // A rebuild: the page changes, and the build writes sw.js again from web/sw.js.
      const index = join(dir, 'index.html');
      writeFileSync(index, readFileSync(index, 'utf8').replace('<title>', '<title>Rebuilt: '));
      writeWorker();
      await page.reload();
      assert.match(await page.title(), /^Rebuilt: /, 'the first load after the rebuild shows the new page');
      // The page asks for a changed sw.js at each load: the rebuilt site's worker copies the new build.
      await page.waitForFunction(
        async (old) => {
          for (const name of (await caches.keys()).filter((n) => n.startsWith('embedlab-precache-') && n !== old)) {
            const copied = await (await caches.open(name)).match(new URL('index.html', location.href));
            if (copied && (await copied.text()).includes('<title>Rebuilt: ')) {
              return true;
            }
          }
          return false;
        },
        oldCopy,
        { timeout: 120_000, polling: 250 },
      );
    } finally {
      await context.close();
      server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
