// What sections 2, 5 and 6 teach, checked on the page against the library run here in node: the learned position
// table's long first rows and its PCA path over three seeds (the claims of section 5's prose), the token-vector RMS
// of section 2's trained table, and the trained-vocabulary notice of sections 2 and 6 with its way back. Section 2's
// four arms (joint, GloVe frozen or fine-tuned, random frozen) have their own file: word_vector_arms.test.mjs.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import createEmbedLab from '../../dist/index.js';
import { buildData, trainModel } from '../../web/js/training/training.js';
import { launch, openPage, waitForPage } from './browser.mjs';

const T = 16; // section 5's table: 16 positions × 32 channels
const C = 32;
const mean = (values, [a, b]) => values.slice(a, b).reduce((x, y) => x + y, 0) / (b - a);
const FIRST = [0, 3];
const MIDDLE = [3, 12];
const LATE = [12, 14];

describe('teaching: embeddings, learned positions, token + position', { timeout: 240_000 }, () => {
  let env;
  let lab;
  let data;
  let page;
  let problems;
  let context;

  before(async () => {
    [env, lab] = await Promise.all([launch(), createEmbedLab()]);
    const r50k = await lab.getTokenizer('r50k_base');
    data = buildData(lab, r50k);
    r50k.dispose();
    ({ context, page, problems } = await openPage(env.browser, env.url, { width: 1280, height: 900 }));
    await waitForPage(page);
  });

  after(async () => {
    await context?.close().catch(() => {});
    await env?.browser.close();
    await new Promise((resolve) => (env ? env.server.close(resolve) : resolve()));
  });

  const dataset = (testId) => page.getByTestId(testId).evaluate((el) => ({ ...el.dataset }));

  test('5: row lengths and PCA over seeds 1–3 are node’s, and the prose’s claims hold for each', async () => {
    for (const seed of [1, 2, 3]) {
      if (seed !== 1) {
        await page.getByTestId('learned-seed').fill(String(seed));
        await page.getByTestId('learned-train').click();
      }
      await page.waitForFunction(
        (s) => {
          const status = document.querySelector('[data-testid="learned-status"]').dataset;
          const norms = document.querySelector('[data-testid="learned-norms"]').dataset;
          return status.state === 'done' && status.seed === s && norms.step === '400';
        },
        String(seed),
        { timeout: 60_000 },
      );
      const model = trainModel(lab, data, 'learned', { steps: 400, seed });
      const wpe = model.positionEmbeddings(T);
      model.dispose();
      const lengths = Array.from({ length: T }, (_, i) => lab.kernels.norm(wpe.subarray(i * C, (i + 1) * C)));
      const shown = await dataset('learned-norms');
      assert.deepEqual(shown.norms.split(' ').map(Number), lengths, `seed ${seed}`);

      // The prose: rows 0–2 longer than the middle; 12–13 long again; row 14 shorter than both (row 15 varies).
      assert.ok(mean(lengths, FIRST) > 1.3 * mean(lengths, MIDDLE), `seed ${seed}: first rows long`);
      assert.ok(mean(lengths, LATE) > mean(lengths, MIDDLE), `seed ${seed}: rows 12–13 longer than the middle`);
      assert.ok(lengths[14] < Math.min(lengths[12], lengths[13]), `seed ${seed}: row 14 shorter than 12 and 13`);
      // PCA's first axis has the first rows at one end and rows 12–13 at the other.
      const { projections, variances } = lab.principalComponents(wpe, T, C, { count: T });
      const pc1 = Array.from({ length: T }, (_, i) => projections[i * T]); // rows of T projections
      assert.ok(mean(pc1, FIRST) * mean(pc1, LATE) < 0, `seed ${seed}: first rows and 12–13 on opposite sides`);
      // The intro: neighbouring rows end up more alike than rows 8 apart (offsets 1 and 8 of the cosines by offset).
      const row = (i) => wpe.subarray(i * C, (i + 1) * C);
      const near = Array.from({ length: T - 1 }, (_, i) => lab.kernels.cosine(row(i), row(i + 1)));
      const far = Array.from({ length: T - 8 }, (_, i) => lab.kernels.cosine(row(i), row(i + 8)));
      const note = await dataset('learned-pca-note');
      assert.ok(Math.abs(Number(note.near) - mean(near, [0, T - 1])) < 1e-6, `seed ${seed}: near`);
      assert.ok(Math.abs(Number(note.far) - mean(far, [0, T - 8])) < 1e-6, `seed ${seed}: far`);
      assert.ok(mean(near, [0, T - 1]) > mean(far, [0, T - 8]) + 0.2, `seed ${seed}: near rows more alike`);
      // The plot under the PCA: the mean cosine at every offset k; neighbours highest, 10–13 apart negative.
      const byOffset = Array.from({ length: T - 1 }, (_, k) => {
        const pairs = Array.from({ length: T - k - 1 }, (_, i) => lab.kernels.cosine(row(i), row(i + k + 1)));
        return mean(pairs, [0, pairs.length]);
      });
      const shownOffsets = note.offsets.split(' ').map(Number);
      byOffset.forEach((c, k) => assert.ok(Math.abs(shownOffsets[k] - c) < 1e-6, `seed ${seed}: offset ${k + 1}`));
      assert.ok(
        byOffset.slice(1).every((c) => c < byOffset[0]),
        `seed ${seed}: neighbours the most alike`,
      );
      assert.ok(
        byOffset.slice(9, 13).every((c) => c < 0),
        `seed ${seed}: rows 10–13 apart point apart`,
      );
      const total = variances.reduce((x, y) => x + y, 0);
      assert.ok(Math.abs(Number(shown.share) - (variances[0] + variances[1]) / total) < 1e-9, `seed ${seed}: share`);
    }
  });

  test('5: the long late rows follow the end of the window (12, 20, 24 tokens), as the prose says', () => {
    for (const length of [12, 20, 24]) {
      const model = trainModel(lab, data, 'learned', { steps: 400, seed: 1, contextLength: length });
      const wpe = model.positionEmbeddings(length);
      model.dispose();
      const lengths = Array.from({ length }, (_, i) => lab.kernels.norm(wpe.subarray(i * C, (i + 1) * C)));
      const late = mean(lengths, [length - 4, length - 2]); // the fourth- and third-last rows
      assert.ok(late > mean(lengths, [3, length - 4]), `${length} tokens: late rows longer than the middle`);
      assert.ok(late > mean(lengths, [length - 2, length]), `${length} tokens: late rows longer than the last two`);
    }
  });

  test('2: the trained table’s RMS is node’s, far from both 0.02 and 1', async () => {
    const status = await dataset('embeddings-status');
    const note = await dataset('embeddings-rms');
    assert.equal(status.state, 'done');
    const model = trainModel(lab, data, 'learned', { steps: Number(status.steps) });
    const wte = model.tokenEmbeddings();
    model.dispose();
    const rms = lab.kernels.norm(wte) / Math.sqrt(wte.length);
    assert.equal(note.step, status.steps);
    assert.ok(Math.abs(Number(note.rms) - rms) < 1e-9, `${note.rms} vs ${rms}`);
    assert.ok(rms > 0.05 && rms < 0.6, `RMS ${rms}`);
  });

  test('2: “sorted by distributional role” holds for seeds 1–3, not only the page’s seed 1', async () => {
    // Whole nouns and verbs only: r50k_base cuts " chases" into " ch" + "ases", pieces that are no verb on their own.
    const NOUNS = /^ (dog|man|cat|bird|child|horse|teacher|farmer)$/;
    const VERBS = /^ (bites|sees|helps|feeds|follows)$/;
    const kind = (label) => (NOUNS.test(label) ? 'noun' : VERBS.test(label) ? 'verb' : null);
    for (const seed of [1, 2, 3]) {
      const model = trainModel(lab, data, 'learned', { steps: 300, seed });
      const wte = model.tokenEmbeddings();
      model.dispose();
      const rows = data.labels.flatMap((label, i) => (kind(label) ? [i] : []));
      const same = rows.filter((i) => {
        const [{ row }] = lab.nearestRows(wte, C, i, { k: 1 });
        return kind(data.labels[row]) === kind(data.labels[i]);
      }).length;
      assert.ok(rows.length === 13 && same / rows.length >= 0.75, `seed ${seed}: ${same}/${rows.length}`);
    }
  });

  test('2: the scatter’s key and the neighbour table keep the pieces of a split word apart from the verbs', async () => {
    const r50k = await lab.getTokenizer('r50k_base');
    const parts = Array.from(r50k.encode(' chases'), (id) => r50k.decode([id]).replace(/ /g, '␣'));
    r50k.dispose();
    assert.ok(parts.length > 1, 'r50k_base splits “chases”');
    const label = await page.getByTestId('embeddings-pca').getAttribute('aria-label');
    assert.ok(label.includes(`pieces of a word: ${parts.join(' + ')} = chases pink`), label);
    const listed = await page.locator('#embeddings-neighbours tr td:first-child').allTextContents();
    assert.ok(listed.length > 0 && parts.every((part) => !listed.includes(part)), `${listed}`);
  });

  test('2 and 6: a trained vocabulary in use is announced where it takes effect, with a way back', async () => {
    for (const id of ['embeddings-vocab-notice', 'compare-vocab-notice']) {
      assert.equal(await page.getByTestId(id).isHidden(), true, `${id} hidden with r50k_base`);
    }
    await page.waitForFunction(
      () => !document.querySelector('[data-testid="tokenize-vocab"] option[value="trained"]').disabled,
      null,
      { timeout: 60_000 },
    );
    await page.getByTestId('tokenize-vocab').selectOption('trained');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="compare-results"]').dataset.tokenizer === 'trained',
    );
    for (const id of ['embeddings-vocab-notice', 'compare-vocab-notice']) {
      await page.getByTestId(id).waitFor({ state: 'visible' });
      assert.match(await page.getByTestId(id).textContent(), /trained in section 1 \(\d+ tokens\)/);
    }
    // The four way-back buttons share their visible text; each accessible name says which section it resets.
    const names = { embeddings: 'section 2', order: 'section 3', compare: 'section 6', beyond: 'section 7' };
    for (const [prefix, where] of Object.entries(names)) {
      const button = page.getByRole('button', { name: new RegExp(`^Back to r50k_base in ${where}, `) });
      assert.equal(await button.getAttribute('data-testid'), `${prefix}-vocab-notice-back`);
    }
    await page.getByTestId('compare-vocab-notice-back').click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="compare-results"]').dataset.tokenizer === 'r50k_base',
    );
    for (const id of ['embeddings-vocab-notice', 'compare-vocab-notice']) {
      await page.getByTestId(id).waitFor({ state: 'hidden' });
    }
    assert.equal(await page.getByTestId('tokenize-vocab').inputValue(), 'r50k_base');
  });

  test('6: different words that read 1.000 at GPT-2’s scale get the reason, not only “the bags differ”', async () => {
    await page.getByTestId('compare-sentence-a').fill('the dog bites');
    await page.getByTestId('compare-sentence-b').fill('a cat sees');
    await page.getByTestId('compare-positions-sinusoidal').check();
    await page.getByTestId('compare-scale-gpt2').check();
    await page.waitForFunction(() =>
      /Yet the input cosine reads 1\.000/.test(document.querySelector('[data-testid="compare-verdict"]').textContent),
    );
    assert.equal(await page.getByTestId('compare-pooled-cosine-input').textContent(), '1.000');
    await page.getByTestId('compare-scale-sqrt').check();
    await page.waitForFunction(
      () => !/reads 1\.000/.test(document.querySelector('[data-testid="compare-verdict"]').textContent),
    );
    assert.notEqual(await page.getByTestId('compare-pooled-cosine-input').textContent(), '1.000');
    assert.match(await page.getByTestId('compare-verdict').textContent(), /the bags of vectors differ/);
  });

  test('no console errors and no non-local requests', () => {
    assert.deepEqual(problems, []);
  });
});
