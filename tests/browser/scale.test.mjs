// Section 8 in headless Chromium: the figures show the library's numbers. The expected values come from node: the
// library's ropeFrequencies and ropeRotate, the papers' band rules written here from their formulas, and the
// published parameter totals of GPT-2 and Llama 3 (never from the page's modules).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import createEmbedLab from '../../dist/index.js';
import { launch, openPage } from './browser.mjs';

const PUBLISHED = {
  'GPT-2 small': 124439808,
  'GPT-2 XL': 1557611200,
  'Llama 3 8B': 8030261248,
  'Llama 3 70B': 70553706496,
};

/** The page's scaling of each method at factor s on window T (dynamic NTK: factor 1, read at L = s·T). */
function scaling(type, factor, window) {
  if (type === 'none') {
    return { type };
  }
  if (type === 'linear' || type === 'ntk') {
    return { type, factor };
  }
  return { type, factor: type === 'dynamic' ? 1 : factor, originalContextLength: window };
}

/** The score a²·(2/d)·Σ cos(Δθ′ᵢ) of q = k = (1, …, 1)/√d, in double. */
function score(frequencies, distance) {
  const { inverseFrequencies: theta, attentionFactor: a } = frequencies;
  let sum = 0;
  for (const t of theta) {
    sum += Math.cos(distance * t);
  }
  return (a * a * sum) / theta.length;
}

describe('section 8: at scale', { timeout: 120_000 }, () => {
  let env;
  let lab;
  let page;
  let problems;

  before(async () => {
    [env, lab] = await Promise.all([launch(), createEmbedLab()]);
    ({ page, problems } = await openPage(env.browser, env.url));
    await page.waitForFunction(() => document.getElementById('main')?.dataset.state === 'ready', null, {
      timeout: 60_000,
    });
  });

  after(async () => {
    await env?.browser.close();
    await new Promise((resolve) => (env ? env.server.close(resolve) : resolve()));
  });

  async function settings() {
    return page.getByTestId('scale').evaluate((el) => ({
      headDim: Number(el.dataset.headDim),
      base: Number(el.dataset.base),
      window: Number(el.dataset.window),
      factor: Number(el.dataset.factor),
    }));
  }

  async function checkFigures(expectedSettings) {
    const s = await settings();
    assert.deepEqual(s, expectedSettings);
    const { headDim: d, base, window: T, factor } = s;
    const half = d / 2;
    const wavelengths = Array.from({ length: half }, (_, i) => 2 * Math.PI * base ** ((2 * i) / d));

    // Figure 1: the pairs whose wavelength exceeds T, by the formula.
    const counted = await page.getByTestId('scale-wavelengths-result').evaluate((el) => ({ ...el.dataset }));
    const slow = wavelengths.filter((l) => l > T).length;
    assert.equal(Number(counted.count), slow);
    assert.equal(Number(counted.pairs), half);

    // The bands table against the library's frequencies, and the papers' rules where the text states them.
    const bands = await page
      .getByTestId('scale-bands')
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((r) => ({ ...r.dataset })));
    const unscaled = lab.ropeFrequencies({ headDim: d, base }).inverseFrequencies;
    for (const row of bands) {
      const f = lab.ropeFrequencies({
        headDim: d,
        base,
        scaling: scaling(row.method, factor, T),
        length: factor * T,
      });
      const ratios = Array.from(f.inverseFrequencies, (x, i) => x / unscaled[i]);
      const kept = ratios.filter((r) => Math.abs(r - 1) <= 1e-9).length;
      assert.equal(Number(row.kept), kept, row.method);
      assert.equal(Number(row.attentionFactor), f.attentionFactor, row.method);
      if (factor > 1) {
        const divided = ratios.filter((r) => Math.abs(r - 1) > 1e-9 && Math.abs(r * factor - 1) <= 1e-9).length;
        assert.equal(Number(row.divided), divided, row.method);
      }
    }
    if (factor > 1) {
      const row = (type) => bands.find((b) => b.method === type);
      const turns = wavelengths.map((l) => T / l);
      // Llama 3.1: λ < T/4 kept, λ > T divided by s.
      assert.equal(Number(row('llama3').kept), wavelengths.filter((l) => l < T / 4).length);
      assert.equal(Number(row('llama3').divided), wavelengths.filter((l) => l > T).length);
      // YaRN: at least 32 turns (and pair 0) kept, at most one turn divided by s.
      assert.equal(Number(row('yarn').kept), turns.filter((r, i) => r >= 32 || i === 0).length);
      assert.equal(Number(row('yarn').divided), turns.filter((r) => r <= 1).length);
      assert.equal(Number(row('linear').divided), half);
      assert.equal(Number(row('ntk').kept), 1);
      assert.equal(Number(row('ntk').divided), 1);
      assert.equal(Number(row('yarn').attentionFactor).toFixed(12), (0.1 * Math.log(factor) + 1).toFixed(12));
    }

    // Figure 3: the plotted scores of the chosen method, and the table's, against the score in double.
    const plotted = await page.getByTestId('scale-scores').evaluate((el) => ({
      method: el.dataset.method,
      distances: JSON.parse(el.dataset.distances),
      scores: JSON.parse(el.dataset.scores),
      unscaled: JSON.parse(el.dataset.unscaled),
    }));
    assert.equal(plotted.distances[0], 1);
    assert.equal(plotted.distances.at(-1), factor * T - 1);
    const mine = lab.ropeFrequencies({
      headDim: d,
      base,
      scaling: scaling(plotted.method, factor, T),
      length: factor * T,
    });
    const none = lab.ropeFrequencies({ headDim: d, base });
    plotted.distances.forEach((distance, j) => {
      assert.ok(Math.abs(plotted.scores[j] - score(mine, distance)) < 2e-4, `${plotted.method} at ${distance}`);
      assert.ok(Math.abs(plotted.unscaled[j] - score(none, distance)) < 2e-4, `unscaled at ${distance}`);
    });
    // The unscaled curve is what the model's own rotation gives: (R_Δ q)·(R_0 q).
    const q = new Float32Array(d).fill(1 / Math.sqrt(d));
    for (const j of [0, Math.floor(plotted.distances.length / 2), plotted.distances.length - 1]) {
      const rotated = lab.kernels.dot(
        lab.ropeRotate(q, plotted.distances[j], { base }),
        lab.ropeRotate(q, 0, { base }),
      );
      assert.ok(Math.abs(plotted.unscaled[j] - rotated) < 2e-4, `ropeRotate at ${plotted.distances[j]}`);
    }
    const table = await page
      .getByTestId('scale-scores-table')
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((r) => ({ method: r.dataset.method, scores: JSON.parse(r.dataset.scores) })));
    assert.equal(table.length, 6);
    for (const { method, scores } of table) {
      const f = lab.ropeFrequencies({ headDim: d, base, scaling: scaling(method, factor, T), length: factor * T });
      assert.ok(Math.abs(scores[0] - score(f, T - 1)) < 2e-4, method);
      assert.ok(Math.abs(scores[1] - score(f, factor * T - 1)) < 2e-4, method);
    }
  }

  test('the figures show the library’s frequencies and scores (Llama 3 8B, factor 8)', async () => {
    await checkFigures({ headDim: 128, base: 500000, window: 8192, factor: 8 });
  });

  test('another head, window, factor and method', async () => {
    await page.getByTestId('scale-preset').selectOption('tiny');
    await page.getByTestId('scale-factor').fill('4');
    await page.getByTestId('scale-method').selectOption('linear');
    await checkFigures({ headDim: 16, base: 10000, window: 64, factor: 4 });
    await page.getByTestId('scale-preset').selectOption('llama2');
    await page.getByTestId('scale-factor').fill('16');
    await page.getByTestId('scale-method').selectOption('dynamic');
    await checkFigures({ headDim: 128, base: 10000, window: 4096, factor: 16 });
  });

  test('the cost table: published totals, the o200k row from the library, tied and untied', async () => {
    const rows = () =>
      page
        .getByTestId('scale-costs')
        .locator('tbody tr')
        .evaluateAll((list) => list.map((r) => ({ ...r.dataset })));
    await page.getByTestId('scale-costs').scrollIntoViewIfNeeded(); // the o200k_base row loads near the screen
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="scale-costs"] tbody tr[data-model$="o200k_base"][data-total]'),
    );
    const published = await rows();
    const named = (list, name) => list.find((r) => r.model === name);
    for (const [name, total] of Object.entries(PUBLISHED)) {
      const row = published.find((r) => r.model === name);
      assert.equal(Number(row.total), total, name);
      assert.equal(Number(row.share), Number(row.tokenTables) / total, name);
    }
    const o200k = await lab.getTokenizer('o200k_base');
    const vocabSize = o200k.vocabSize;
    o200k.dispose();
    assert.equal(
      await page.getByTestId('scale-o200k-size').textContent(),
      vocabSize.toLocaleString('en-US').replace(/,/g, '\u202f'),
    );
    const big = named(published, 'GPT-2 small with o200k_base');
    // GPT-2 small's body (published total minus its table) with a vocabSize × 768 table.
    assert.equal(Number(big.total), 124439808 - 50257 * 768 + vocabSize * 768);
    await page.getByTestId('scale-tying').selectOption('untied');
    const untied = await rows();
    assert.equal(Number(named(untied, 'GPT-2 small').total), 124439808 + 50257 * 768);
    assert.equal(Number(named(untied, 'Llama 3 8B').total), 8030261248);
    await page.getByTestId('scale-tying').selectOption('tied');
    const tied = await rows();
    assert.equal(Number(named(tied, 'Llama 3 8B').total), 8030261248 - 128256 * 4096);
    assert.equal(Number(named(tied, 'GPT-2 small').total), 124439808);
  });

  test('no console errors and no non-local requests', () => {
    assert.deepEqual(problems, []);
  });
});
