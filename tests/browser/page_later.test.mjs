// The tutorial page in headless Chromium, sections 6, 7 and 9, then the page as a whole: no console error or
// non-local request on the walked page, a phone layout that does not move while workers train, and the page under a
// strict Content-Security-Policy in the dark scheme with the fallback build (sections 1 to 5: page.test.mjs).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fixed3 } from '../../web/js/ui/format.js';
import { STRICT_CSP, startLearnedTraining, useSession, waitForPage, waitForResults } from './browser.mjs';
import { A, B, data, setRange, startPage, text } from './page_support.mjs';

describe('tutorial page, sections 6–9 and the whole page', { timeout: 150_000 }, () => {
  let lab, r50k, page, problems, open;
  useSession(startPage, (session) => ({ lab, r50k, page, problems, open } = session));

  test('6 token + position: BPE ids, pooled cosines equal to node for none / sinusoidal / learned', async () => {
    const ids = [r50k.encode(` ${A}`), r50k.encode(` ${B}`)];
    const embedding = lab.tokenEmbedding({ vocabSize: r50k.vocabSize, dim: 64, seed: 1, stddev: 1 });
    for (const positions of ['none', 'sinusoidal', 'learned']) {
      await page.getByTestId(`compare-positions-${positions}`).check();
      await waitForResults(page, { positions, a: A, b: B });
      assert.equal(await data(page, 'compare-results', 'idsA'), Array.from(ids[0]).join(' '));
      const pe = lab.positionalEncoding(positions, { dim: 64, maxLength: 64, seed: 2, stddev: 1 });
      const r = lab.compare(ids[0], ids[1], { embedding, positional: pe, attention: { seed: 3 } });
      pe.dispose();
      assert.equal(await text(page, 'compare-pooled-cosine-input'), '1.000', positions);
      assert.equal(await text(page, 'compare-pooled-cosine-attention'), fixed3(r.attention.pooledCosine), positions);
      if (positions === 'none') {
        assert.equal(fixed3(r.attention.pooledCosine), '1.000');
      } else {
        assert.ok(r.attention.pooledCosine < 0.9995, positions);
      }
    }
    embedding.dispose();
    const chips = await page.getByTestId('compare-vocab').locator('li').allTextContents();
    assert.deepEqual(
      chips,
      [...new Set(ids[0])].map((id) => `${r50k.decode([id]).replace(/ /g, '␣')} → ${id}`),
    );

    // Lengths of the parts: sinusoid rows have norm √(d/2) (the formula), token rows as drawn in node.
    const norms = async (part) =>
      page.getByTestId('compare-norms').locator(`td[data-part="${part}"]`).allTextContents();
    for (const [scale, stddev] of [
      ['gpt2', 0.02],
      ['sqrt', 1],
    ]) {
      await page.getByTestId('compare-positions-sinusoidal').check();
      await page.getByTestId(`compare-scale-${scale}`).check();
      await page.waitForFunction((s) => {
        const r = document.querySelector('[data-testid="compare-results"]').dataset;
        return r.scale === s && r.positions === 'sinusoidal';
      }, scale);
      const table = lab.tokenEmbedding({ vocabSize: r50k.vocabSize, dim: 64, seed: 1, stddev });
      const rows = table.lookup(ids[0]);
      const sin = lab.positionalEncoding('sinusoidal', { dim: 64, maxLength: 64 });
      const att = lab.compare(ids[0], ids[1], { embedding: table, positional: sin, attention: { seed: 3 } }).attention;
      sin.dispose();
      table.dispose();
      assert.equal(await text(page, 'compare-pooled-cosine-attention'), fixed3(att.pooledCosine), scale);
      // N(0, σ): the settings name σ, the standard deviation the rows were drawn with (not a variance).
      assert.match(
        await text(page, 'compare-settings'),
        scale === 'gpt2' ? /token rows N\(0, σ = 0\.02\)/ : /token rows N\(0, σ = 1\/√d\) × √d = N\(0, σ = 1\)/,
      );
      // At 0.02 the sinusoid swamps the token: the verdict says why the cosine shows 1.000.
      assert.equal(/35 times shorter/.test(await text(page, 'compare-verdict')), scale === 'gpt2', scale);
      assert.equal(fixed3(att.pooledCosine) === '1.000', scale === 'gpt2', scale);
      const expected = Array.from(ids[0], (_, i) => fixed3(lab.kernels.norm(rows.subarray(i * 64, (i + 1) * 64))));
      assert.deepEqual(await norms('token'), expected, scale);
      assert.deepEqual(await norms('position'), Array(ids[0].length).fill(fixed3(Math.sqrt(64 / 2))), scale);
    }
    // The settings line names what the numbers were computed with, and its promise holds: at section 3's d = 32 (× √d,
    // sinusoids) this pair gives section 3's number.
    assert.match(
      await text(page, 'compare-settings'),
      /d = 64: token rows N\(0, σ = 1\/√d\) × √d = N\(0, σ = 1\), seed 1; sinusoids/,
    );
    await page.getByTestId('compare-dim').selectOption('32');
    await page.waitForFunction(() => document.querySelector('[data-testid="compare-results"]').dataset.dim === '32');
    await waitForResults(page, { positions: 'sinusoidal', a: A, b: B });
    assert.equal(await text(page, 'compare-pooled-cosine-attention'), await text(page, 'order-pooled-pe'));
    assert.match(await text(page, 'compare-settings'), /^Computed at d = 32/);
    await page.getByTestId('compare-dim').selectOption('64');
    await page.waitForFunction(() => document.querySelector('[data-testid="compare-results"]').dataset.dim === '64');

    // Not reorderings: the verdict compares token by token and never calls the same word a different one.
    for (const [a, b, listed] of [
      ['dog', 'dog dog', /“␣dog” 1 time in A, 2 in B/],
      ['the the the the', 'the the the the the', /“␣the” 4 times in A, 5 in B/],
      ['dog bites man', 'cat bites man', /only in A: “␣dog”; only in B: “␣cat”/],
    ]) {
      await page.getByTestId('compare-positions-none').check();
      await page.getByLabel('Sentence A', { exact: true }).fill(a);
      await page.getByLabel('Sentence B', { exact: true }).fill(b);
      await waitForResults(page, { positions: 'none', a, b });
      const verdict = await text(page, 'compare-verdict');
      assert.match(verdict, listed);
      assert.doesNotMatch(verdict, /different words/);
      const e = lab.tokenEmbedding({ vocabSize: r50k.vocabSize, dim: 64, seed: 1, stddev: 1 });
      const r = lab.compare(r50k.encode(` ${a}`), r50k.encode(` ${b}`), { embedding: e, attention: { seed: 3 } });
      e.dispose();
      assert.equal(await text(page, 'compare-pooled-cosine-input'), fixed3(r.pooledCosine));
      // Equal shares of each token: a mean cannot tell them apart, and the verdict says so.
      assert.equal(/same share/.test(verdict), a.includes('the') || a === 'dog', verdict);
    }
    await page.getByLabel('Sentence A', { exact: true }).fill(A);
    await page.getByLabel('Sentence B', { exact: true }).fill(B);
    await page.getByTestId('compare-positions-learned').check();
    await waitForResults(page, { positions: 'learned', a: A, b: B });

    // Bad input: more tokens than the encodings hold; the library's message reaches the learner, then recovery.
    const long = Array.from({ length: 70 }, (_, i) => `w${i}`).join(' ');
    await page.getByLabel('Sentence A', { exact: true }).fill(long);
    await page.waitForFunction(() => document.querySelector('[data-testid="compare-error"]').textContent.length > 0);
    assert.match(await text(page, 'compare-error'), /length/);
    await page.getByLabel('Sentence A', { exact: true }).fill(A);
    await waitForResults(page, { positions: 'learned', a: A, b: B });
    assert.equal(await text(page, 'compare-error'), '');
  });

  test('7 beyond: RoPE scores depend on the offset only; ALiBi biases; NoPE causal', async () => {
    await setRange(page, 'beyond-rope-offset', 5);
    await page.waitForFunction(
      () => document.querySelector('[data-testid="beyond-rope-result"]').dataset.offset === '5',
    );
    const table = lab.tokenEmbedding({ vocabSize: 2, dim: 16, seed: 5, stddev: 1 }).table();
    const q = table.subarray(0, 16);
    const k = table.subarray(16, 32);
    const scores = [];
    for (let m = 5; m < 48; m++) {
      scores.push(lab.kernels.dot(lab.ropeRotate(q, m), lab.ropeRotate(k, m - 5)));
    }
    assert.ok(Math.max(...scores) - Math.min(...scores) < 1e-4, 'RoPE scores depend only on the offset');
    assert.equal(Number(await data(page, 'beyond-rope-result', 'score')), scores[0]);
    // (R_m q)·(R_n k) = (R_{m−n} q)·k
    const relative = lab.kernels.dot(lab.ropeRotate(q, 5), k);
    assert.equal(Number(await data(page, 'beyond-rope-result', 'relative')), relative);
    assert.ok(Math.abs(relative - scores[0]) < 1e-4);

    await setRange(page, 'beyond-alibi-heads', 4);
    await setRange(page, 'beyond-alibi-len', 6);
    await page.waitForFunction(
      () => document.querySelector('[data-testid="beyond-alibi-grid"]').dataset.state === '4/6',
    );
    const rows = await page
      .locator('#beyond-alibi-tbody tr')
      .evaluateAll((trs) => trs.map((tr) => Array.from(tr.cells, (c) => c.textContent)));
    assert.equal(rows.length, 4);
    const slopes = lab.alibiSlopes(4);
    rows.forEach((cells, i) => {
      const m = slopes[i];
      assert.equal(m, 2 ** ((-8 * (i + 1)) / 4));
      assert.equal(cells[1], `2^(−8·${i + 1}/4)`);
      assert.equal(cells[2], m.toPrecision(4));
      assert.deepEqual(
        cells.slice(3).map(Number),
        [0, 1, 2, 3, 4, 5].map((j) => Number((-m * (5 - j) || 0).toFixed(4))),
      );
    });
    assert.equal(await page.locator('#beyond-alibi-grid figure.alibi-head').count(), 4);
    // Six heads, not a power of two: Press et al. take the 4 slopes of 4 heads, then slopes 1 and 3 of 8 heads.
    await setRange(page, 'beyond-alibi-heads', 6);
    await page.waitForFunction(
      () => document.querySelector('[data-testid="beyond-alibi-grid"]').dataset.state === '6/6',
    );
    const press = [1, 2, 3, 4].map((h) => 2 ** ((-8 * h) / 4)).concat([1, 3].map((h) => 2 ** ((-8 * h) / 8)));
    assert.deepEqual(Array.from(lab.alibiSlopes(6)), press);
    const six = await page
      .locator('#beyond-alibi-tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [tr.cells[1].textContent, tr.cells[2].textContent]));
    assert.deepEqual(
      six,
      press.map((m, i) => [i < 4 ? `2^(−8·${i + 1}/4)` : `2^(−8·${2 * (i - 4) + 1}/8)`, m.toPrecision(4)]),
    );
    assert.match(await text(page, 'beyond-alibi-rule'), /H = 6 is not a power of two/);

    const embedding = lab.tokenEmbedding({ vocabSize: r50k.vocabSize, dim: 32, seed: 1, stddev: 1 });
    const causal = lab.compare(r50k.encode(' dog bites man'), r50k.encode(' man bites dog'), {
      embedding,
      positional: null,
      attention: { seed: 3, causal: true },
    });
    embedding.dispose();
    assert.equal(await text(page, 'beyond-nope-bi'), '1.000');
    assert.equal(await text(page, 'beyond-nope-causal'), fixed3(causal.attention.pooledCosine));
    assert.ok(causal.attention.pooledCosine < 0.999);
    // Not one lucky head: five more seeds, each with the mask below 1, as the note says.
    const e32 = lab.tokenEmbedding({ vocabSize: r50k.vocabSize, dim: 32, seed: 1, stddev: 1 });
    const others = [4, 5, 6, 7, 8].map(
      (seed) =>
        lab.compare(r50k.encode(' dog bites man'), r50k.encode(' man bites dog'), {
          embedding: e32,
          positional: null,
          attention: { seed, causal: true },
        }).attention.pooledCosine,
    );
    e32.dispose();
    assert.deepEqual((await data(page, 'beyond-nope-note', 'causal')).split(' ').map(Number), others);
    assert.ok(others.every((c) => c < 0.99));
    assert.match(
      await text(page, 'beyond-nope-note'),
      new RegExp(
        `bidirectional 1\\.000 every time; causal ${fixed3(Math.min(...others))} to ${fixed3(Math.max(...others))}`,
      ),
    );

    // The full race starts on a click (a small one runs by itself when the reader comes near, in its own status);
    // tests/browser/race.test.mjs runs both and compares them with the library in node.
    assert.equal(await data(page, 'beyond-race-status', 'state'), 'idle');
  });

  test('9 exercises: twelve exercises, each checked live (the full walk: tests/browser/exercises.test.mjs)', async () => {
    assert.equal(await page.locator('#exercises-list > li').count(), 12);
    // 'limit' states the position table's size and its width: the longest sequence is their quotient, which a model
    // made here with that table accepts and one more token it refuses.
    const question = await text(page, 'exercises-limit');
    const [, numbers, width] = question.match(/\(wpe\) of (\d+) numbers, (\d+) for each position/).map(Number);
    const length = numbers / width;
    const model = lab.createModel({
      vocabSize: 8,
      contextLength: length,
      channels: width,
      layers: 1,
      heads: 1,
      positions: 'learned',
    });
    assert.equal(model.tensor('wpe.weight').length, numbers);
    assert.throws(() =>
      model.evaluate({ ids: [new Array(length + 1).fill(0)], targets: [new Array(length + 1).fill(0)] }),
    );
    model.dispose();
    await page.getByTestId('exercises-limit-length').fill(String(length));
    await page.getByTestId('exercises-limit-check').click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="exercises-limit-result"]').dataset.ok === 'true',
    );
    assert.match(
      await text(page, 'exercises-limit-result'),
      new RegExp(`${length} tokens: accepted; ${length + 1} tokens: refused`),
    );
  });

  test('no console errors and no non-local requests on the walked page', () => {
    assert.deepEqual(problems, []);
  });

  test('phone: nothing moves while the workers train; no sideways scrolling', async () => {
    const phone = await open({ width: 390, height: 844 });
    const boxes = () =>
      phone.page.evaluate(() =>
        Array.from(document.querySelectorAll('main > section'), (s) => {
          const box = s.getBoundingClientRect();
          return `${s.id}: ${Math.round(box.top + window.scrollY)}+${Math.round(box.height)}`;
        }),
      );
    // Section 2's first run, which starts once the page is ready: from its start to its end.
    await phone.page.waitForFunction(
      () =>
        document.getElementById('main').dataset.state === 'ready' &&
        document.querySelector('[data-testid="embeddings-status"]').dataset.state === 'running',
    );
    const during = await boxes();
    await phone.page.waitForFunction(
      () => document.querySelector('[data-testid="embeddings-status"]').dataset.state === 'done',
    );
    assert.deepEqual(await boxes(), during, 'layout moved while section 2 trained');
    // Section 5's, started by its button as waitForPage does (a reader coming near starts it by itself).
    await startLearnedTraining(phone.page);
    await phone.page.waitForFunction(
      () => document.querySelector('[data-testid="learned-status"]').dataset.state === 'running',
    );
    const duringLearned = await boxes();
    await waitForPage(phone.page);
    assert.deepEqual(await boxes(), duringLearned, 'layout moved while section 5 trained');
    const overflow = await phone.page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.equal(overflow, 0, 'the page scrolls sideways at 390 px');
    assert.deepEqual(phone.problems, []);
  });

  test('runs under a strict Content-Security-Policy, dark scheme, fallback build with the same numbers', async () => {
    const strict = await open(
      { width: 1280, height: 900 },
      { csp: STRICT_CSP, path: '?simd=off' },
      { colorScheme: 'dark' },
    );
    await waitForPage(strict.page);
    assert.equal(await text(strict.page, 'page-simd-target'), 'EMU128');
    // The defaults, computed in node with the SIMD build.
    const ids = (s) => r50k.encode(s);
    const e64 = lab.tokenEmbedding({ vocabSize: r50k.vocabSize, dim: 64, seed: 1, stddev: 1 });
    const pe64 = lab.positionalEncoding('sinusoidal', { dim: 64, maxLength: 64 });
    const e32 = lab.tokenEmbedding({ vocabSize: r50k.vocabSize, dim: 32, seed: 1, stddev: 1 });
    const pe32 = lab.positionalEncoding('sinusoidal', { dim: 32, maxLength: 64 });
    const expected = {
      'compare-pooled-cosine-attention': lab.compare(ids(` ${A}`), ids(` ${B}`), {
        embedding: e64,
        positional: pe64,
        attention: { seed: 3 },
      }),
      'order-pooled-pe': lab.compare(ids(' dog bites man'), ids(' man bites dog'), {
        embedding: e32,
        positional: pe32,
        attention: { seed: 3 },
      }),
      'beyond-nope-causal': lab.compare(ids(' dog bites man'), ids(' man bites dog'), {
        embedding: e32,
        positional: null,
        attention: { seed: 3, causal: true },
      }),
    };
    for (const handle of [e64, pe64, e32, pe32]) {
      handle.dispose();
    }
    for (const [id, r] of Object.entries(expected)) {
      assert.equal(await text(strict.page, id), fixed3(r.attention.pooledCosine), id);
    }
    assert.deepEqual(strict.problems, []); // a CSP violation is reported as a console error
  });
});
