// Section 9's exercises in headless Chromium: every Check button is pressed with the inputs the page starts with
// (no exercise may pass on them), with a right answer and with a wrong one (and, for two-part exercises, with each
// part wrong while the other is right). The right answers are found here, in
// node, with the library (never from the page's modules); a wrong try must not show the answer, and the
// explanation appears only after a success.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import createEmbedLab from '../../dist/index.js';
import { launch, openPage } from './browser.mjs';

const HEADS = [1, 2, 3, 4, 5, 6, 7, 8, 9]; // the "apart" exercise takes the median over these heads, as it says
const APART_TARGET = 0.95;
const median = (xs) => [...xs].sort((x, y) => x - y)[(xs.length - 1) / 2];
const LOOKED_UP = ' rotation'; // the 'id' exercise's token
const DIMS = [8, 16, 32, 64, 128];

/** Right and wrong inputs for every exercise, computed with the library in node. */
async function answers(lab) {
  const r50k = await lab.getTokenizer('r50k_base');
  const o200k = await lab.getTokenizer('o200k_base');
  const word = ' antidisestablishmentarianism';
  assert.ok(r50k.tokens(word).length >= 3);
  const russian = 'Привет, как дела? Всё хорошо.';
  assert.ok(2 * o200k.count(russian) <= r50k.count(russian));
  const lookedUp = r50k.encode(LOOKED_UP);
  assert.equal(lookedUp.length, 1);
  const tokenId = lookedUp[0];

  const pe16 = lab.positionalEncoding('sinusoidal', { dim: 16, maxLength: 128 });
  let best = { cosine: -2 };
  for (let a = 0; a < 64; a++) {
    for (let b = a + 1; b < 64; b++) {
      const cosine = lab.kernels.cosine(pe16.row(a), pe16.row(b));
      if (cosine > best.cosine + 1e-6) {
        best = { a, b, cosine };
      }
    }
  }
  const dot5 = lab.kernels.dot(pe16.row(0), pe16.row(5));
  pe16.dispose();

  const neighbourCosine = (base) => {
    const pe = lab.positionalEncoding('sinusoidal', { dim: 16, maxLength: 2, base });
    const c = lab.kernels.cosine(pe.row(0), pe.row(1));
    pe.dispose();
    return c;
  };
  const lowBase = [10, 17.78, 31.62].find((b) => neighbourCosine(b) < 0.9);
  assert.ok(lowBase && neighbourCosine(1000) >= 0.9 && neighbourCosine(10000) >= 0.9);

  // The median pooled cosine over HEADS, with token rows of seed `tableSeed` and position rows of `positionSeed` (the
  // page's are 1 and 2).
  const medianPooled = (positions, dim, tableSeed = 1, positionSeed = 2) => {
    const embedding = lab.tokenEmbedding({ vocabSize: r50k.vocabSize, dim, seed: tableSeed, stddev: 1 });
    const pe = lab.positionalEncoding(positions, { dim, maxLength: 64, seed: positionSeed, stddev: 1 });
    const cosines = HEADS.map(
      (seed) =>
        lab.compare(r50k.encode(' dog bites man'), r50k.encode(' man bites dog'), {
          embedding,
          positional: pe,
          attention: { seed },
        }).attention.pooledCosine,
    );
    embedding.dispose();
    pe.dispose();
    return median(cosines);
  };
  // On the page's tables, learned positions reach the target at every d, sinusoidal ones and none at no d: the
  // explanation's "the medians stay near 1 at every d here".
  assert.ok(DIMS.every((dim) => medianPooled('learned', dim) < APART_TARGET));
  assert.ok(DIMS.every((dim) => medianPooled('sinusoidal', dim) >= APART_TARGET));
  assert.ok(DIMS.every((dim) => medianPooled('none', dim) > 0.9999));
  // Drawn with other seeds, learned positions "usually" beat sinusoidal ones: here at d = 16, 64 and 128.
  for (const tableSeed of [2, 3, 4]) {
    for (const dim of [16, 64, 128]) {
      const learned = medianPooled('learned', dim, tableSeed, tableSeed + 1);
      const sinusoidal = medianPooled('sinusoidal', dim, tableSeed);
      assert.ok(learned < sinusoidal, `seed ${tableSeed}, d = ${dim}: learned ${learned}, sinusoidal ${sinusoidal}`);
    }
  }
  const apartRight = { positions: 'learned', dim: '16', reason: 'unrelated' };

  const slopes = Array.from(lab.alibiSlopes(6));
  const steepest = slopes.indexOf(Math.max(...slopes)) + 1;
  const otherHead = steepest === 1 ? 2 : 1;

  const model = lab.createModel({
    vocabSize: 8,
    contextLength: 24,
    channels: 8,
    layers: 1,
    heads: 1,
    positions: 'learned',
  });
  const accepts = (n) => {
    try {
      model.evaluate({ ids: [new Array(n).fill(0)], targets: [new Array(n).fill(0)] });
      return true;
    } catch {
      return false;
    }
  };
  let longest = 1;
  while (accepts(longest + 1)) {
    longest++;
  }
  const wpeNumbers = model.tensor('wpe.weight').length; // the exercise gives this, not the context length
  model.dispose();

  const corpus = 'the theme of the thesis: then the theatre. '.repeat(30);
  const trained = await lab.trainTokenizer(corpus, { vocabSize: 400, pattern: 'o200k' });
  assert.equal(trained.encode(' the').length, 1);
  trained.dispose();
  // The smallest size that makes “␣the” one token, found by training at every size from 257 up.
  let smallest = 257;
  for (; ; smallest++) {
    const t = await lab.trainTokenizer(corpus, { vocabSize: smallest, pattern: 'o200k' });
    const pieces = t.encode(' the').length;
    t.dispose();
    if (pieces === 1) {
      break;
    }
  }
  const tiny = await lab.trainTokenizer(corpus, { vocabSize: 257, pattern: 'o200k' });
  const tinyPieces = tiny.encode(' the').length;
  assert.ok(tinyPieces > 1);
  tiny.dispose();
  r50k.dispose();
  o200k.dispose();

  // Section 8's exercises, from the formulas and the published total, not from the library: pair i of a RoPE head
  // has wavelength 2π·b^(2i/d); GPT-2 small's body is its published total minus the 50 257 × 768 token table.
  const slowPairs = (d, b, T) =>
    Array.from({ length: d / 2 }, (_, i) => 2 * Math.PI * b ** ((2 * i) / d)).filter((l) => l > T).length;
  const turns = slowPairs(128, 500000, 8192);
  const body = 124439808 - 50257 * 768;
  const halfTable = Math.ceil(body / 768);

  return {
    split: { right: { word }, wrong: { word: ' dog' }, wrongParts: [{ word: word.trim() }], secret: null },
    cheaper: { right: { text: russian }, wrong: { text: 'The man bites the dog, not the other way.' }, secret: null },
    id: { right: { id: String(tokenId) }, wrong: { id: String(tokenId + 1) }, secret: String(tokenId) },
    closest: { right: { p: String(best.a), q: String(best.b) }, wrong: { p: '0', q: '5' }, secret: null },
    rotation: {
      right: { k: '5', dot: dot5.toFixed(2) },
      wrong: { k: '5', dot: (dot5 + 0.05).toFixed(2) },
      secret: dot5.toFixed(2),
    },
    base: {
      right: { base: String(lowBase), reason: 'first' },
      wrong: { base: '1000', reason: 'first' },
      wrongParts: [
        { base: String(lowBase), reason: 'range' },
        { base: String(lowBase), reason: 'pairs' },
        { base: String(lowBase), reason: '' },
      ],
      secret: null,
    },
    apart: {
      right: apartRight,
      wrong: { ...apartRight, positions: 'sinusoidal' },
      wrongParts: [
        { ...apartRight, reason: 'longer' },
        { ...apartRight, reason: 'alike' },
        { ...apartRight, reason: 'dim' },
        { ...apartRight, reason: '' },
        { ...apartRight, positions: 'none' },
        { positions: 'sinusoidal', dim: '128', reason: 'unrelated' },
      ],
      secret: null,
    },
    alibi: {
      right: { head: String(steepest), bias: String(-3 * slopes[steepest - 1]) },
      wrong: { head: String(otherHead), bias: String(-3 * slopes[otherHead - 1]) },
      wrongBias: { head: String(steepest), bias: '-0.3' },
      secret: String(-3 * slopes[steepest - 1]),
    },
    limit: {
      right: { length: String(longest) },
      wrong: { length: String(longest + 1) },
      secret: String(longest),
      wpeNumbers,
    },
    the: { corpus, tinyPieces, smallest, secret: null },
    turns: {
      right: { dim: '128', base: '500000', window: '8192', pairs: String(turns) },
      wrong: { dim: '128', base: '500000', window: '8192', pairs: String(turns + 1) },
      secret: String(turns),
    },
    'half-table': {
      right: { vocabulary: String(halfTable) },
      wrong: { vocabulary: String(halfTable + 1) },
      wrongParts: [{ vocabulary: String(halfTable - 1) }],
      secret: String(halfTable),
      body,
    },
  };
}

const grouped = (n) => n.toLocaleString('en-US').replace(/,/g, '\u202f');
/** True if text shows the number: with a hyphen or the true minus sign the page uses, or grouped as the page writes. */
const shows = (text, secret) =>
  text.includes(secret) ||
  text.includes(secret.replace('-', '−')) ||
  (Number.isInteger(Number(secret)) && text.includes(grouped(Number(secret))));

describe('exercises', { timeout: 120_000 }, () => {
  let env;
  let lab;
  let page;
  let problems;
  let expected;

  before(async () => {
    [env, lab] = await Promise.all([launch(), createEmbedLab()]);
    expected = await answers(lab);
    ({ page, problems } = await openPage(env.browser, env.url));
    await page.waitForFunction(() => document.getElementById('main')?.dataset.state === 'ready', null, {
      timeout: 60_000,
    });
  });

  after(async () => {
    await env?.browser.close();
    await new Promise((resolve) => (env ? env.server.close(resolve) : resolve()));
  });

  const result = (id) => page.getByTestId(`exercises-${id}-result`);

  /** Fills the inputs given (the others keep their value), presses Check, returns {ok, text, explain}. */
  async function run(id, values = {}) {
    for (const [name, value] of Object.entries(values)) {
      const input = page.getByTestId(`exercises-${id}-${name}`);
      if ((await input.evaluate((el) => el.tagName)) === 'SELECT') {
        await input.selectOption(value);
      } else {
        await input.fill(value);
      }
    }
    await result(id).evaluate((el) => delete el.dataset.ok);
    await page.getByTestId(`exercises-${id}-check`).click();
    await page.waitForFunction(
      (t) => document.querySelector(`[data-testid="${t}"]`).dataset.ok !== undefined,
      `exercises-${id}-result`,
      { timeout: 30_000 },
    );
    const explain = page.getByTestId(`exercises-${id}-explain`);
    return {
      ok: await result(id).evaluate((el) => el.dataset.ok),
      text: (await result(id).textContent()).trim(),
      explain: (await explain.isVisible()) ? (await explain.textContent()).trim() : null,
    };
  }

  test('every Check button names its exercise, and none passes with the inputs the page starts with', async () => {
    const items = page.locator('#exercises-list > li');
    const count = await items.count();
    assert.equal(count, Object.keys(expected).length);
    for (let n = 0; n < count; n++) {
      const title = (await items.nth(n).locator('h3').textContent()).trim();
      const button = page.getByRole('button', { name: `Check exercise ${n + 1}: ${title}`, exact: true });
      assert.equal(await button.count(), 1, title);
    }
    for (const id of Object.keys(expected)) {
      const { ok, text, explain } = await run(id);
      assert.equal(ok, 'false', `${id} passes with its defaults: ${text}`);
      assert.equal(explain, null, `${id} explains before a success`);
    }
    // Blank fields: a clear message, before any check runs (exercise 3's id, the ALiBi head).
    assert.match((await run('id', { id: '' })).text, /Fill in “Token id” first\./);
    assert.match((await run('the', { size: '' })).text, /Fill in “Smallest size” first\./);
    assert.match((await run('alibi', { head: '', bias: '-1' })).text, /Fill in “Head h” first\./);
    assert.match((await run('rotation', { k: '5', dot: '' })).text, /Fill in “Your value” first\./);
  });

  test('a wrong answer fails without showing the answer; a right one passes and explains', async () => {
    for (const [id, { right, wrong, wrongParts = [], secret }] of Object.entries(expected)) {
      if (id === 'the') {
        continue;
      }
      // The wrong answer, then each part wrong with the other right (two-part exercises check both parts).
      for (const values of [wrong, ...wrongParts]) {
        const no = await run(id, values);
        assert.equal(no.ok, 'false', `${id}, wrong answer ${JSON.stringify(values)} passes: ${no.text}`);
        assert.equal(no.explain, null, id);
        if (secret !== null) {
          assert.ok(!shows(no.text, secret), `${id}: a wrong try shows the answer ${secret}: ${no.text}`);
        }
      }
      const yes = await run(id, right);
      assert.equal(yes.ok, 'true', `${id}, right answer fails: ${yes.text}`);
      assert.ok(yes.explain?.startsWith('Why: ') && yes.explain.length > 40, `${id}: no explanation`);
    }
    const bias = await run('alibi', expected.alibi.wrongBias);
    assert.equal(bias.ok, 'false');
    assert.ok(!shows(bias.text, expected.alibi.secret), bias.text);
    assert.match((await run('limit', expected.limit.wrong)).text, /refused; \d+ tokens: refused\.$/);
    assert.match(
      await page.getByTestId('exercises-apart').textContent(),
      /the median pooled cosine over 9 random heads \(seeds 1–9\) below 0\.95/,
    );
    // Each wrong reason is answered with the library's numbers; the right one quotes the rows it rests on.
    const apart = (values) => run('apart', { ...expected.apart.right, ...values });
    assert.match(
      (await apart({ reason: 'dim' })).text,
      /with no positions the same heads give median 1\.0000 at d = 16\.$/,
    );
    assert.match(
      (await apart({ reason: 'longer' })).text,
      /\|p\|² = [\d.]+ on average, the token rows \|x\|² = [\d.]+\.$/,
    );
    const apartYes = await apart({});
    assert.match(apartYes.text, /median 0\.\d{4}, below 0\.95\. The rows of positions 0–1, 1–2, 0–2 meet at cosines /);
    // cos(PE(p), PE(p + k)) = the mean of cos(k·θᵢ) over the d/2 pairs, θᵢ = 10000^(−2i/d): here d = 16.
    const sinusoidalCosine = (k) =>
      Array.from({ length: 8 }, (_, i) => Math.cos(k * 10000 ** (-i / 8))).reduce((a, b) => a + b) / 8;
    const [near, far] = [sinusoidalCosine(1).toFixed(3), sinusoidalCosine(2).toFixed(3)];
    assert.ok(apartYes.text.endsWith(`(sinusoidal rows at this d: ${near}, ${near}, ${far}).`), apartYes.text);
    // 'id': the success says what the token is without its space, from the tokenizer.
    assert.match(
      (await run('id', expected.id.right)).text,
      /Without its space, “rotation” is not even one token but 2: “rot” \(\d+\) \+ “ation” \(\d+\)\.$/,
    );
  });

  test('questions do not give their answers; results tell a right answer from a near miss', async () => {
    // 'limit' gives the table's size, not the context length.
    const limit = await page.getByTestId('exercises-limit').locator('p').first().textContent();
    assert.match(limit, new RegExp(`position table \\(wpe\\) of ${expected.limit.wpeNumbers} numbers, 8 for each`));
    assert.ok(!new RegExp(`\\b${expected.limit.secret}\\b`).test(limit), limit);
    // 'id': no text the page shows at its start holds the id asked for (sections 1 and 2 print ids).
    const fresh = await openPage(env.browser, env.url);
    await fresh.page.waitForFunction(() => document.getElementById('main')?.dataset.state === 'ready', null, {
      timeout: 60_000,
    });
    const all = await fresh.page.locator('main').innerText();
    await fresh.context.close();
    assert.ok(!new RegExp(`\\b${expected.id.secret}\\b`).test(all), `the page prints ${expected.id.secret}`);
    // 'half-table': V and V ± 1 give different exact counts, and the right one shows both sides of the line.
    const { right, body } = expected['half-table'];
    const V = Number(right.vocabulary);
    const yes = await run('half-table', right);
    assert.ok(yes.text.includes(`token table ${grouped(V * 768)} of ${grouped(body + V * 768)} parameters`), yes.text);
    assert.ok(yes.text.includes(`token table ${grouped((V - 1) * 768)}`), yes.text);
    const under = await run('half-table', { vocabulary: String(V - 1) });
    assert.match(under.text, /less than half\.$/);
    assert.ok(under.text.includes(`the rest ${grouped(body)}`), under.text);
  });

  test('"Train a merge" passes only with a trained vocabulary that holds “␣the”', async () => {
    const size = String(expected.the.smallest);
    const selected = await run('the', { size });
    assert.equal(selected.ok, 'false'); // r50k_base is selected
    assert.match(selected.text, /Section 1 is set to r50k_base/);
    const train = async (corpus, size) => {
      await page.getByTestId('tokenize-bpe-corpus').fill(corpus);
      await page.getByTestId('tokenize-bpe-size').fill(String(size));
      await page.getByTestId('tokenize-bpe-pattern').selectOption('o200k');
      await page.getByTestId('tokenize-bpe-status').evaluate((el) => delete el.dataset.state);
      await page.getByTestId('tokenize-bpe-train').click();
      await page.waitForFunction(
        () =>
          document.querySelector('[data-testid="tokenize-bpe-status"]').dataset.state === 'done' &&
          document.querySelector('[data-testid="tokenize-output"]').dataset.vocab === 'trained',
        null,
        { timeout: 30_000 },
      );
    };
    await train(expected.the.corpus, 257); // the smallest vocabulary: too few merges for “␣the”
    const no = await run('the', { size });
    assert.equal(no.ok, 'false', no.text);
    assert.match(no.text, new RegExp(`is ${expected.the.tinyPieces} tokens`));
    await train(expected.the.corpus, 400);
    // One token now, but the second part asks for the smallest size: a wrong size fails without showing it.
    for (const wrongSize of [expected.the.smallest - 1, expected.the.smallest + 1, 400]) {
      const miss = await run('the', { size: String(wrongSize) });
      assert.equal(miss.ok, 'false', miss.text);
      assert.equal(miss.explain, null);
      assert.ok(!shows(miss.text, size), miss.text); // nor the id it would follow from, unless typed as the size
      assert.ok(
        wrongSize === expected.the.smallest - 1 || !shows(miss.text, String(expected.the.smallest - 1)),
        miss.text,
      );
    }
    const yes = await run('the', { size });
    assert.equal(yes.ok, 'true', yes.text);
    assert.ok(yes.explain);
  });

  test('no console errors and no non-local requests', () => {
    assert.deepEqual(problems, []);
  });
});
