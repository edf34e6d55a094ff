// Section 8 in headless Chromium: the figures show the library's numbers. The expected values come from node: the
// library's ropeFrequencies and ropeRotate, the papers' and transformers' band rules written here from their formulas,
// and the published parameter totals of GPT-2 and Llama 3 (never from the page's modules; the race's head is read
// from the race's own configuration, web/js/race/plan.js).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import createEmbedLab from '../../dist/index.js';
import { RACE_OPTIONS } from '../../web/js/race/plan.js';
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

/** YaRN's θ′ᵢ/θᵢ as the paper defines it: γ(r) on r = T/λᵢ, α = 1, β = 32, θ′ = (1 − γ)·θ/s + γ·θ. */
function paperRatio(theta, factor, window) {
  const turns = (window * theta) / (2 * Math.PI);
  const gamma = Math.min(1, Math.max(0, (turns - 1) / 31));
  return (1 - gamma) / factor + gamma;
}

/** YaRN's θ′ᵢ/θᵢ as transformers computes it: a ramp over pair indices between floor(l) and ceil(h). */
function transformersRatio(i, d, base, factor, window) {
  const dim = (turns) => (d * Math.log(window / (turns * 2 * Math.PI))) / (2 * Math.log(base));
  const low = Math.max(0, Math.floor(dim(32)));
  let high = Math.min(d - 1, Math.ceil(dim(1)));
  if (high === low) {
    high += 0.001;
  }
  const ramp = Math.min(1, Math.max(0, (i - low) / (high - low)));
  return ramp / factor + (1 - ramp);
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

  const grouped = (n) => n.toLocaleString('en-US').replace(/,/g, '\u202f');

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
    for (const row of bands.filter((b) => b.method !== 'yarn-paper')) {
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
      JSON.parse(row.ratios).forEach((r, i) => assert.ok(Math.abs(r - ratios[i]) < 1e-12, `${row.method} pair ${i}`));
      if (factor > 1) {
        const divided = ratios.filter((r) => Math.abs(r - 1) > 1e-9 && Math.abs(r * factor - 1) <= 1e-9).length;
        assert.equal(Number(row.divided), divided, row.method);
      }
    }
    // YaRN as the paper defines it (the page computes it from the library's θᵢ) and as transformers implements it.
    const paper = bands.find((b) => b.method === 'yarn-paper');
    JSON.parse(paper.ratios).forEach((r, i) =>
      assert.ok(Math.abs(r - paperRatio(unscaled[i], factor, T)) < 1e-12, `paper's YaRN, pair ${i}`),
    );
    JSON.parse(bands.find((b) => b.method === 'yarn').ratios).forEach((r, i) =>
      assert.ok(Math.abs(r - transformersRatio(i, d, base, factor, T)) < 1e-12, `transformers' YaRN, pair ${i}`),
    );
    // Every figure and table names the settings it was computed with.
    const named = `d = ${d}, base ${grouped(base)}, T = ${grouped(T)}`;
    assert.equal(await page.getByTestId('scale-wavelengths-settings').textContent(), `(${named})`);
    for (const id of [
      'scale-ratios-settings',
      'scale-bands-settings',
      'scale-scores-settings',
      'scale-scores-table-settings',
    ]) {
      assert.equal(
        await page.getByTestId(id).textContent(),
        `(${named}, s = ${factor}, L = ${grouped(factor * T)})`,
        id,
      );
    }
    const shown = await page.getByTestId('scale').innerText();
    assert.doesNotMatch(shown, /\b[dTLs] = [\d\u202f]+\.0+\b/, 'an integer setting written with decimals');
    if (factor > 1) {
      const row = (type) => bands.find((b) => b.method === type);
      const turns = wavelengths.map((l) => T / l);
      // Llama 3.1: λ < T/4 kept, λ > T divided by s.
      assert.equal(Number(row('llama3').kept), wavelengths.filter((l) => l < T / 4).length);
      assert.equal(Number(row('llama3').divided), wavelengths.filter((l) => l > T).length);
      // YaRN (transformers' rounding): at least 32 turns (and pair 0) kept, at most one turn divided by s.
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
    // Six methods, and YaRN once more divided by a² when its a is not 1 (s > 1): its frequencies alone.
    assert.equal(table.length, factor > 1 ? 7 : 6);
    for (const { method, scores } of table) {
      const type = method.replace(/-frequencies$/, '');
      const f = lab.ropeFrequencies({ headDim: d, base, scaling: scaling(type, factor, T), length: factor * T });
      const a2 = type === method ? 1 : f.attentionFactor ** 2;
      assert.ok(Math.abs(scores[0] - score(f, T - 1) / a2) < 2e-4, method);
      assert.ok(Math.abs(scores[1] - score(f, factor * T - 1) / a2) < 2e-4, method);
    }
    const note = await page.getByTestId('scale-scores-factor').textContent();
    if (factor > 1) {
      assert.equal(table.find((r) => r.method === 'yarn-frequencies') !== undefined, true);
      const a = 0.1 * Math.log(factor) + 1;
      assert.match(note, new RegExp(`YaRN’s scores include its attention factor, a² = ${(a * a).toFixed(3)}`));
    } else {
      assert.equal(note, '');
    }

    // Lines of the ratio chart that coincide at every pair are named in its key (one would hide the other).
    const ratiosOf = (type) => {
      const f = lab.ropeFrequencies({ headDim: d, base, scaling: scaling(type, factor, T), length: factor * T });
      return Array.from(f.inverseFrequencies, (x, i) => x / unscaled[i]);
    };
    const yarn = ratiosOf('yarn');
    const llama = ratiosOf('llama3');
    const twins = JSON.parse(await page.getByTestId('scale-ratios').evaluate((el) => el.dataset.twins));
    const coincide = yarn.every((r, i) => Math.abs(r - llama[i]) <= 1e-9);
    assert.equal(
      twins.some(([x, y]) => x === 'yarn' && y === 'llama3'),
      coincide,
    );
    const key = await page.locator('figure:has([data-testid="scale-ratios"])').innerText();
    assert.equal(key.includes('YaRN (wide, under the others; the same as Llama 3.1 here)'), coincide && factor > 1);
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

  test('the race’s own head: transformers’ YaRN is PI except pair 0, plus the attention factor', async () => {
    await page.getByTestId('scale-preset').selectOption('race');
    await page.getByTestId('scale-factor').fill('4');
    const d = RACE_OPTIONS.channels / RACE_OPTIONS.heads;
    const T = RACE_OPTIONS.trainLength;
    await checkFigures({ headDim: d, base: lab.modelDefaults.ropeBase, window: T, factor: 4 });
    assert.deepEqual([d, T, lab.modelDefaults.ropeBase], [8, 32, 10000]);
    // At d = 8, T = 32: pair 0 turns 32/2π ≈ 5.1 times (kept: l = 0), pairs 1–3 at most once (h = 1: divided by s).
    const bands = await page
      .getByTestId('scale-bands')
      .locator('tbody tr')
      .evaluateAll((rows) => Object.fromEntries(rows.map((r) => [r.dataset.method, JSON.parse(r.dataset.ratios)])));
    assert.deepEqual(
      bands.yarn.map((r) => Number(r.toFixed(12))),
      [1, 0.25, 0.25, 0.25],
    );
    assert.ok(bands.linear.every((r) => Math.abs(r - 0.25) < 1e-12));
    const result = page.getByTestId('scale-yarn-result');
    assert.equal(await result.evaluate((el) => el.dataset.piExcept), '[0]');
    const text = await result.textContent();
    assert.match(text, /keeps pair 0 and divides pairs 1–3 by s, with no pair between: it is PI except pair 0/);
    assert.match(text, new RegExp(`a = ${(0.1 * Math.log(4) + 1).toFixed(4)}`));
    // The paper's γ(r) blends pair 0 instead: r = 32/2π, γ = (r − 1)/31.
    const gamma = (T / (2 * Math.PI) - 1) / 31;
    assert.ok(Math.abs(bands['yarn-paper'][0] - ((1 - gamma) / 4 + gamma)) < 1e-12);
    assert.match(
      text,
      new RegExp(`pair 0 \\(r = ${(T / (2 * Math.PI)).toPrecision(3)} turns, γ = ${gamma.toFixed(3)}\\)`),
    );
    assert.match(
      await page.getByTestId('scale-preset-note').textContent(),
      /^head dimension d = 8, base 10\u202f000, T = 32$/,
    );
    // At d = 8, T = 32 and s = 8 too, Llama 3.1 keeps pair 0 (λ₀ = 2π < T/4) and divides 1–3 (λ > T): YaRN's line.
    await page.getByTestId('scale-factor').fill('8');
    await checkFigures({ headDim: d, base: lab.modelDefaults.ropeBase, window: T, factor: 8 });
    assert.match(await page.locator('figure:has([data-testid="scale-ratios"])').innerText(), /same as Llama 3\.1 here/);
  });

  test('the titles of the tables wrap on a phone; a fold’s title is one line box, not one per element', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const id of ['scale-bands-caption', 'scale-scores-caption']) {
      const { right, inside } = await page.locator(`#${id}`).evaluate((el) => ({
        right: el.getBoundingClientRect().right,
        inside: document.documentElement.clientWidth,
      }));
      assert.ok(right <= inside, `${id} ends at ${right}, inside ${inside}`);
    }
    const summaries = await page.locator('#scale details.more > summary').evaluateAll((list) =>
      list.map((el) => ({
        text: el.textContent,
        // A summary is a flex box: each element child is its own item, so its text must sit in one element or none.
        oneItem:
          el.childElementCount === 0 ||
          (el.childElementCount === 1 && el.children[0].textContent.trim() === el.textContent.trim()),
      })),
    );
    for (const { text, oneItem } of summaries) {
      assert.ok(oneItem, `the summary “${text}” wraps as one piece of text`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
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
