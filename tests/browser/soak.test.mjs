// Soak: 20 vocabulary trainings in a row in section 1 (each result becomes the page's vocabulary, the old one is
// disposed), 10 000 tokenizations typed into section 1 and 20 long texts tokenized by its worker leave the JS heap
// (after a forced GC, through CDP) and the wasm memory (the page's library and the tokenizer worker's, through the
// section's debug hook: each reads lab.memory() in its own thread) within 10% of where the warm-up rounds left them.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launch, openPage, waitForPage } from './browser.mjs';
import { pasteStaged, stage, variedText } from './heavy_input.mjs';

const ROUNDS = 20;
const TYPED_PER_ROUND = 500; // 10 000 in all
const LONG_TEXT = variedText(120_000); // held by the page (over 100 000 characters) and tokenized by the worker
const TOLERANCE = 0.1;
// The first rounds warm V8 up (compiled code, inline caches): over 60 rounds the JS heap rose 0.27 MiB in the first
// 10, 0.11 in the next 10 and 0.09 in the 40 after. Memory is compared from the end of these rounds on.
const WARM_UP_ROUNDS = 5;

let env;
let page;
let problems;
let cdp;

before(async () => {
  env = await launch();
  ({ page, problems } = await openPage(env.browser, env.url));
  await waitForPage(page, 120_000);
  // Section 2's experiment and section 7's small race start only when the reader comes near them; the soak stays in
  // section 1, so what it measures is the repeated work alone.
  cdp = await page.context().newCDPSession(page);
  await page.getByTestId('tokenize-bpe-size').fill('300');
});

after(async () => {
  await env?.browser.close();
  await new Promise((resolve) => (env ? env.server.close(resolve) : resolve()));
});

/** One round: a vocabulary trained and used, TYPED_PER_ROUND texts typed, a long text pasted (worker). */
async function round(n) {
  // The training runs in its worker while the texts are typed.
  await page.getByTestId('tokenize-bpe-status').evaluate((el) => delete el.dataset.state);
  await page.getByTestId('tokenize-bpe-train').click();
  await page.getByTestId('tokenize-text-edit').evaluate((button) => button.offsetParent && button.click());
  const typed = await page.getByTestId('tokenize-text').evaluate(
    async (box, [count, n]) => {
      const out = document.querySelector('[data-testid="tokenize-output"]');
      let tokens = 0;
      for (let i = 0; i < count; i++) {
        box.value = `Round ${n}, text ${i}: the dog bites the man ${'x'.repeat(i % 40)} 狗咬人 🐕`;
        box.dispatchEvent(new Event('input', { bubbles: true }));
        tokens += Number(out.dataset.count);
        if (i % 250 === 249) {
          await new Promise((resolve) => setTimeout(resolve)); // let the page breathe, as typing would
        }
      }
      return tokens;
    },
    [TYPED_PER_ROUND, n],
  );
  assert.ok(typed > TYPED_PER_ROUND, 'every typed text was tokenized');
  await page.waitForFunction(
    () =>
      document.querySelector('[data-testid="tokenize-bpe-status"]').dataset.state === 'done' &&
      document.querySelector('[data-testid="tokenize-output"]').dataset.vocab === 'trained',
    null,
    { timeout: 60_000 },
  );
  await stage(page, `${LONG_TEXT} ${n}`);
  await pasteStaged(page, 'tokenize-text');
  await page.waitForFunction(
    (length) => {
      const out = document.querySelector('[data-testid="tokenize-output"]');
      const held = document.querySelector('[data-testid="tokenize-text-held"]').textContent;
      return !out.hasAttribute('aria-busy') && held.includes(`of ${length} characters`);
    },
    LONG_TEXT.length + 1 + String(n).length,
    { timeout: 60_000 },
  );
}

async function memory() {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  const wasm = await page.evaluate(() => document.getElementById('tokenize').wasmMemory());
  return { jsHeap: usedSize, ...wasm };
}

test(
  '20 trainings, 10 000 typed tokenizations and 20 worker tokenizations keep memory flat',
  { timeout: 300_000 },
  async () => {
    const started = Date.now();
    for (let n = 0; n < WARM_UP_ROUNDS; n++) {
      await round(n);
    }
    const first = await memory();
    for (let n = WARM_UP_ROUNDS; n < ROUNDS; n++) {
      await round(n);
    }
    const last = await memory();
    const figures = [
      ['JS heap', first.jsHeap, last.jsHeap],
      ['page wasm memory', first.page.heapBytes, last.page.heapBytes],
      ['page wasm allocated', first.page.allocatedBytes, last.page.allocatedBytes],
      ['worker wasm memory', first.worker.heapBytes, last.worker.heapBytes],
      ['worker wasm allocated', first.worker.allocatedBytes, last.worker.allocatedBytes],
    ];
    const mb = (bytes) => (bytes / 2 ** 20).toFixed(2);
    console.log(
      `soak (${((Date.now() - started) / 1000).toFixed(0)} s): ` +
        figures.map(([name, a, b]) => `${name} ${mb(a)} → ${mb(b)} MiB`).join('; '),
    );
    assert.ok(first.worker.heapBytes > 0, 'the worker tokenized the long texts');
    for (const [name, a, b] of figures) {
      assert.ok(b <= a * (1 + TOLERANCE), `${name} grew from ${a} to ${b} bytes`);
    }
    assert.deepEqual(problems, []);
  },
);
