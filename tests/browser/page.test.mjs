// The tutorial page in headless Chromium: "dog bites man" vs "man bites dog" with none / sinusoidal /
// learned positions. Fails on any console error, page error or request that leaves 127.0.0.1.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launch, openPage, STRICT_CSP, waitForResults } from './browser.mjs';

const A = 'dog bites man';
const B = 'man bites dog';

describe('tutorial page', { timeout: 120_000 }, () => {
  let env;
  const contexts = [];

  before(async () => {
    env = await launch();
  });

  after(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await env?.browser.close();
    await new Promise((resolve) => (env ? env.server.close(resolve) : resolve()));
  });

  async function open(viewport, extras = {}) {
    const opened = await openPage(env.browser, env.url, viewport, {}, extras);
    contexts.push(opened.context);
    return opened;
  }

  const readNumber = async (page, testId) => {
    const text = (await page.getByTestId(testId).textContent()).trim();
    assert.match(text, /^-?\d\.\d{3}$/, `${testId} should show a number with 3 decimals, got "${text}"`);
    return Number(text);
  };

  test('attention pooled cosine: 1.000 without positions, below 1 with them', { timeout: 45_000 }, async () => {
    const { page, problems } = await open({ width: 1280, height: 900 });
    await page.getByLabel('Sentence A', { exact: true }).fill(A);
    await page.getByLabel('Sentence B', { exact: true }).fill(B);

    const seen = {};
    for (const positions of ['none', 'sinusoidal', 'learned']) {
      await page.getByTestId(`positions-${positions}`).check();
      await waitForResults(page, { positions, a: A, b: B });
      seen[positions] = {
        input: await readNumber(page, 'pooled-cosine-input'),
        attention: await readNumber(page, 'pooled-cosine-attention'),
      };
    }

    assert.equal(seen.none.attention, 1, 'no positions: attention outputs are a permutation, pooled cosine 1.000');
    assert.ok(seen.sinusoidal.attention < 1, `sinusoidal: expected < 1, got ${seen.sinusoidal.attention}`);
    assert.ok(seen.learned.attention < 1, `learned: expected < 1, got ${seen.learned.attention}`);
    // Mean pooling of the input vectors is order-blind, with or without additive positions.
    for (const positions of ['none', 'sinusoidal', 'learned']) assert.equal(seen[positions].input, 1, positions);

    // The vocabulary the page built: lower-cased words in order of first appearance.
    assert.deepEqual(await page.getByTestId('vocab').locator('li').allTextContents(), ['dog → 0', 'bites → 1', 'man → 2']);
    assert.match(await page.getByTestId('simd-target').textContent(), /^(WASM|EMU128)$/);
    assert.equal(await page.getByTestId('error').textContent(), '');
    assert.deepEqual(problems, []);
  });

  test('bad input shows a message and the page recovers', { timeout: 45_000 }, async () => {
    const { page, problems } = await open({ width: 390, height: 844 });
    await waitForResults(page, { positions: 'sinusoidal', a: A, b: B });

    // 70 words: more positions than the encoding holds (64): the library's RangeError reaches the learner.
    const long = Array.from({ length: 70 }, (_, i) => `w${i}`).join(' ');
    await page.getByLabel('Sentence A', { exact: true }).fill(long);
    await page.waitForFunction(() => document.querySelector('[data-testid="error"]').textContent.length > 0);
    assert.match(await page.getByTestId('error').textContent(), /maxLength|length/);
    assert.equal((await page.getByTestId('pooled-cosine-attention').textContent()).trim(), '—');

    await page.getByLabel('Sentence A', { exact: true }).fill('');
    await page.waitForFunction(() => /sentence A/.test(document.querySelector('[data-testid="error"]').textContent));

    await page.getByLabel('Sentence A', { exact: true }).fill(A);
    await waitForResults(page, { positions: 'sinusoidal', a: A, b: B });
    assert.equal(await page.getByTestId('error').textContent(), '');
    assert.ok((await readNumber(page, 'pooled-cosine-attention')) < 1);

    // Phone width: nothing overflows sideways.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0, 'the page scrolls sideways at 390 px');
    assert.deepEqual(problems, []);
  });

  test('no layout shift when switching encodings; keyboard reads the heatmap', { timeout: 45_000 }, async () => {
    for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 900 }]) {
      const { page, problems } = await open(viewport);
      await waitForResults(page, { positions: 'sinusoidal', a: A, b: B });
      const boxes = async () =>
        page.evaluate(() =>
          // Sections by document position and height; the results panel (sticky on wide screens) by height.
          ['lab', 'sinusoidal', 'vectors', 'similarity', 'results'].map((id) => {
            const box = document.getElementById(id).getBoundingClientRect();
            const top = id === 'results' ? '' : `${Math.round(box.top + window.scrollY)}+`;
            return `${id}: ${top}${Math.round(box.height)}`;
          }),
        );
      const reference = await boxes();
      for (const [scale, positions] of [['unit', 'none'], ['unit', 'learned'], ['gpt2', 'sinusoidal'], ['gpt2', 'none'], ['gpt2', 'learned']]) {
        await page.getByTestId(`scale-${scale}`).check();
        await page.getByTestId(`positions-${positions}`).check();
        await page.waitForFunction(
          ([scale, positions]) => {
            const results = document.querySelector('[data-testid="results"]');
            return results.dataset.positions === positions && results.dataset.scale === scale;
          },
          [scale === 'unit' ? '1' : '0.02', positions],
        );
        assert.deepEqual(await boxes(), reference, `layout moved at ${viewport.width}px with ${scale}/${positions}`);
      }

      // Keyboard: focus the heatmap, move the cursor, read a value.
      await page.getByTestId('pe-heatmap').focus();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction(() => document.querySelector('[data-testid="pe-readout"]').textContent.startsWith('PE(1, 1) = cos('));
      assert.match(await page.getByTestId('pe-readout').textContent(), /= 0\.540/); // cos(1)
      assert.deepEqual(problems, []);
    }
  });

  test('runs under a strict Content-Security-Policy (no inline script or style)', { timeout: 45_000 }, async () => {
    const { page, problems } = await open({ width: 1280, height: 900 }, { csp: STRICT_CSP });
    await waitForResults(page, { positions: 'sinusoidal', a: A, b: B });
    assert.ok((await readNumber(page, 'pooled-cosine-attention')) < 1);
    assert.deepEqual(problems, []); // a CSP violation is reported as a console error
  });

  test('the fallback build (?simd=off, EMU128) shows the same numbers', { timeout: 45_000 }, async () => {
    const read = async (extras) => {
      const { page, problems } = await open({ width: 1280, height: 900 }, extras);
      const values = {};
      for (const positions of ['none', 'sinusoidal', 'learned']) {
        await page.getByTestId(`positions-${positions}`).check();
        await waitForResults(page, { positions, a: A, b: B });
        values[positions] = [await readNumber(page, 'pooled-cosine-input'), await readNumber(page, 'pooled-cosine-attention')];
      }
      assert.deepEqual(problems, []);
      return { target: await page.getByTestId('simd-target').textContent(), values };
    };
    const fallback = await read({ path: '?simd=off' });
    const auto = await read({});
    assert.equal(fallback.target, 'EMU128');
    assert.deepEqual(fallback.values, auto.values);
  });
});
