// The page's figures as a reader without a mouse or without colour meets them: every heatmap, matrix and scatter
// takes keyboard focus and has a name; the arrow keys move a cursor whose readout names the value the library
// computes here in node; each figure with its own colour scale has a legend whose ends are the data's range; scatter
// labels never overlap (boxes reported by the page); a 390 px phone never scrolls sideways.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import createEmbedLab from '../../dist/index.js';
import { buildData, trainModel } from '../../web/js/training/training.js';
import { launch, openPage, waitForPage, waitForResults } from './browser.mjs';

const byTestId = (id) => `[data-testid="${id}"]`;
const close = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b}`);

/** Four decimals with a true minus sign (the readout's format for values between 1e-3 and 1e4). */
const four = (v) =>
  v
    .toFixed(4)
    .replace(/^-(0\.0000)$/, '$1')
    .replace(/^-/, '−');

async function setRange(page, testId, value) {
  await page.locator(byTestId(testId)).evaluate((el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, value);
}

/** Focuses the figure (its cursor starts at row 0, column 0) and presses the keys; returns the readout. */
async function readCell(page, testId, keys, readoutId = `${testId}-readout`) {
  await page.locator(byTestId(testId)).focus();
  for (const key of keys) {
    await page.keyboard.press(key);
  }
  return page.locator(byTestId(readoutId)).evaluate((el) => ({
    text: el.textContent.trim(),
    row: Number(el.dataset.row),
    col: Number(el.dataset.col),
    value: Number(el.dataset.value),
    live: el.getAttribute('aria-live'),
  }));
}

const times = (n, key) => Array(n).fill(key);

async function legendOf(page, testId) {
  return page.locator(byTestId(`${testId}-legend`)).evaluate((el) => ({
    min: Number(el.dataset.min),
    max: Number(el.dataset.max),
    ticks: Array.from(el.querySelectorAll('.legend-ticks span'), (s) => s.textContent),
  }));
}

/** Label boxes drawn on a scatter, [x, y, w, h] in CSS pixels, and the canvas size. */
async function labelBoxes(page, testId) {
  return page.locator(byTestId(testId)).evaluate((el) => ({
    boxes: JSON.parse(el.dataset.labelBoxes),
    hidden: Number(el.dataset.labelsHidden),
    width: el.clientWidth,
    height: el.clientHeight,
  }));
}

function assertNoOverlap({ boxes, width, height }, what) {
  assert.ok(boxes.length > 0, `${what}: some labels are drawn`);
  for (const [x, y, w, h] of boxes) {
    assert.ok(x >= 0 && y >= 0 && x + w <= width && y + h <= height, `${what}: label inside the plot`);
  }
  boxes.forEach(([x, y, w, h], i) =>
    boxes.slice(i + 1).forEach(([x2, y2, w2, h2]) => {
      const overlap = x < x2 + w2 && x2 < x + w && y < y2 + h2 && y2 < y + h;
      assert.ok(!overlap, `${what}: labels ${JSON.stringify([x, y, w, h])} and ${JSON.stringify([x2, y2, w2, h2])}`);
    }),
  );
}

describe('figures: keyboard readouts, legends, labels', { timeout: 180_000 }, () => {
  let env;
  let lab;
  let r50k;
  let page;
  let problems;
  const contexts = [];

  before(async () => {
    [env, lab] = await Promise.all([launch(), createEmbedLab()]);
    r50k = await lab.getTokenizer('r50k_base');
    const opened = await openPage(env.browser, env.url, { width: 1280, height: 900 });
    contexts.push(opened.context);
    ({ page, problems } = opened);
    await waitForPage(page);
  });

  after(async () => {
    for (const context of contexts) {
      await context.close().catch(() => {});
    }
    await env?.browser.close();
    await new Promise((resolve) => (env ? env.server.close(resolve) : resolve()));
  });

  test('every heatmap, matrix and scatter is focusable, named, and has a live readout', async () => {
    const ids = [
      'embeddings-heatmap',
      'embeddings-pca',
      'sinusoidal-heatmap',
      'sinusoidal-dots',
      'sinusoidal-rotation',
      'learned-heatmap',
      'learned-pca',
      'compare-vectors-a',
      'compare-vectors-b',
      'compare-similarity-input',
      'compare-similarity-attention',
      'beyond-alibi-head-1',
    ];
    for (const id of ids) {
      const info = await page.locator(byTestId(id)).evaluate((el) => {
        el.focus();
        const labelledBy = el.getAttribute('aria-labelledby');
        const name = el.getAttribute('aria-label') ?? (labelledBy && document.getElementById(labelledBy)?.textContent);
        const described = (el.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
        return {
          focused: document.activeElement === el,
          tabIndex: el.tabIndex,
          role: el.getAttribute('role'),
          name: (name ?? '').trim(),
          live: described.some((d) => document.getElementById(d)?.getAttribute('aria-live') === 'polite'),
        };
      });
      assert.ok(info.focused && info.tabIndex === 0, `${id} takes focus`);
      assert.equal(info.role, 'img', id);
      assert.ok(info.name.length > 3, `${id} has a name`);
      assert.ok(info.live, `${id} is described by a live readout`);
    }
  });

  test('4 sinusoidal: the heatmap readout is the library PE; PE·PE has its own scale, its ends the data range', async () => {
    const dim = Number(await page.locator(byTestId('sinusoidal-dim')).inputValue());
    const base = Math.round(10 ** Number(await page.locator(byTestId('sinusoidal-base')).inputValue()));
    const pe = lab.positionalEncoding('sinusoidal', { dim, base, maxLength: 128 });
    const keys = [...times(5, 'ArrowDown'), ...times(3, 'ArrowRight')];
    const cell = await readCell(page, 'sinusoidal-heatmap', keys, 'sinusoidal-readout');
    const expected = pe.row(5)[3];
    assert.deepEqual([cell.row, cell.col], [5, 3]);
    close(cell.value, expected, 1e-6, 'PE(5, 3)');
    assert.ok(cell.text.includes(four(expected)), cell.text);
    assert.match(cell.text, /position 5, dimension 3/);
    const heat = await legendOf(page, 'sinusoidal-heatmap');
    assert.deepEqual([heat.min, heat.max], [-1, 1]);
    assert.deepEqual(heat.ticks, ['−1', '0', '+1']);

    const dots = [];
    for (let p = 0; p < 32; p++) {
      for (let q = 0; q < 32; q++) {
        dots.push(lab.kernels.dot(pe.row(p), pe.row(q)));
      }
    }
    const dotCell = await readCell(page, 'sinusoidal-dots', [...times(2, 'ArrowDown'), ...times(7, 'ArrowRight')]);
    assert.deepEqual([dotCell.row, dotCell.col], [2, 7]);
    close(dotCell.value, dots[2 * 32 + 7], 1e-4, 'PE(2)·PE(7)');
    assert.match(dotCell.text, /^p 2, q 7: /);
    const legend = await legendOf(page, 'sinusoidal-dots');
    close(legend.min, Math.min(...dots), 1e-4, 'PE·PE legend minimum');
    close(legend.max, Math.max(...dots), 1e-4, 'PE·PE legend maximum');
    // Its own scale: the smallest value is far above −d/2, the end of the former shared scale.
    assert.ok(legend.min > -dim / 2 + 1, `own scale starts at the data: ${legend.min}`);
    pe.dispose();
  });

  test('7 ALiBi: one scale for every head, attention weights 0 to 1; the readout names the weight and masked cells', async () => {
    const legend = await page.getByTestId('beyond-alibi-legend').evaluate((el) => ({
      min: Number(el.dataset.min),
      max: Number(el.dataset.max),
      ticks: Array.from(el.querySelectorAll('.legend-ticks span'), (s) => s.textContent),
    }));
    assert.deepEqual(legend, { min: 0, max: 1, ticks: ['0', '0.5', '1'] });
    for (const [H, L] of [
      [8, 8],
      [6, 10],
    ]) {
      await setRange(page, 'beyond-alibi-heads', H);
      await setRange(page, 'beyond-alibi-len', L);
      await page.waitForFunction((s) => document.querySelector('#beyond-alibi-grid').dataset.state === s, `${H}/${L}`);
      const slopes = lab.alibiSlopes(H);
      // No head has a legend of its own: they all share the one above.
      assert.equal(await page.locator('#beyond-alibi-grid .legend').count(), 0);
      // The last query's weight on key 0: exp(−m·(L − 1)) over the sum of exp(−m·d), d = 0…L − 1.
      const weight = (m) =>
        Math.exp(-m * (L - 1)) / Array.from({ length: L }, (_, d) => Math.exp(-m * d)).reduce((a, b) => a + b);
      for (const h of [1, H]) {
        const cell = await readCell(page, `beyond-alibi-head-${h}`, times(L - 1, 'ArrowDown'));
        assert.deepEqual([cell.row, cell.col], [L - 1, 0]);
        close(cell.value, weight(slopes[h - 1]), 1e-6, `head ${h} of ${H}, query ${L - 1}, key 0`);
        assert.match(cell.text, new RegExp(`^query ${L - 1}, key 0: 0\\.\\d`));
      }
      // The steepest head puts less weight far back than the flattest.
      assert.ok(weight(Math.max(...slopes)) < weight(Math.min(...slopes)));
      const last = `beyond-alibi-head-${H}`;
      const masked = await readCell(page, last, ['ArrowUp', 'Home', 'ArrowRight'].concat(times(L, 'ArrowUp')));
      assert.deepEqual([masked.row, masked.col], [0, 1]);
      assert.match(masked.text, /query 0, key 1: masked/);
    }
    // Short sequences have cells wide enough for numbers: the weights are written, the masked cells left blank.
    for (const [H, L] of [
      [16, 2],
      [6, 2],
    ]) {
      await setRange(page, 'beyond-alibi-heads', H);
      await setRange(page, 'beyond-alibi-len', L);
      await page.waitForFunction((s) => document.querySelector('#beyond-alibi-grid').dataset.state === s, `${H}/${L}`);
      const slopes = lab.alibiSlopes(H);
      for (const h of [1, H]) {
        const { cells } = JSON.parse(await page.getByTestId(`beyond-alibi-head-${h}`).getAttribute('data-drawn-text'));
        assert.equal(cells.length, L * L, `head ${h} of ${H}, length ${L}: every cell has its number or none`);
        const digits = cells[0].split('.')[1].length;
        const m = slopes[h - 1];
        const expected = [];
        for (let i = 0; i < L; i++) {
          const sum = Array.from({ length: i + 1 }, (_, d) => Math.exp(-m * d)).reduce((x, y) => x + y);
          for (let j = 0; j < L; j++) {
            expected.push(j > i ? '' : (Math.exp(-m * (i - j)) / sum).toFixed(digits));
          }
        }
        assert.deepEqual(cells, expected, `head ${h} of ${H}, length ${L}: no "NaN" in a masked cell`);
      }
    }
  });

  test('7 RoPE: a key names both lines; PE(m)·PE(n) alone is flat over the positions, as the text says', async () => {
    const key = await page
      .getByTestId('beyond-rope-plot-key')
      .evaluate((el) => Array.from(el.querySelectorAll('li'), (li) => li.textContent));
    assert.equal(key.length, 2);
    assert.match(key[0], /^RoPE/);
    assert.match(key[1], /dashed.*PE\(m\)/);
    const out = page.getByTestId('beyond-rope-result');
    const offset = Number(await out.getAttribute('data-offset'));
    // Independent reference: the sinusoid table's rows m and m − offset, dotted here in node.
    const dim = 16;
    const pe = lab.positionalEncoding('sinusoidal', { dim, maxLength: 64 });
    const dots = [];
    for (let m = offset; m < 48; m++) {
      const [a, b] = [pe.row(m), pe.row(m - offset)];
      dots.push(a.reduce((sum, v, i) => sum + v * b[i], 0));
    }
    pe.dispose();
    const spread = Math.max(...dots) - Math.min(...dots);
    assert.ok(spread < 1e-4, `PE(m)·PE(n) spread ${spread}`);
    close(Number(await out.getAttribute('data-pe-spread')), spread, 1e-4, 'the page’s PE·PE spread');
    assert.match(await out.textContent(), /PE\(m\)·PE\(n\) alone, which depends only on m − n/);
  });

  test('6 similarity: the matrix after attention has its own range, the cells read as the library computes', async () => {
    const [a, b] = ['dog bites man', 'man bites dog'];
    await page.getByTestId('compare-positions-none').check();
    await page.getByTestId('compare-scale-gpt2').check();
    await page.getByLabel('Sentence A', { exact: true }).fill(a);
    await page.getByLabel('Sentence B', { exact: true }).fill(b);
    await waitForResults(page, { positions: 'none', a, b });
    const embedding = lab.tokenEmbedding({ vocabSize: r50k.vocabSize, dim: 64, seed: 1, stddev: 0.02 });
    const idsA = r50k.encode(` ${a}`);
    const idsB = r50k.encode(` ${b}`);
    const r = lab.compare(idsA, idsB, { embedding, attention: { seed: 3 } });
    embedding.dispose();
    const after = Array.from(r.attention.similarity);
    // The page redraws when the scale choice lands: wait for the matrix of these settings.
    await page.waitForFunction(
      ([id, lo]) => Math.abs(Number(document.querySelector(id).dataset.min) - lo) < 1e-6,
      [byTestId('compare-similarity-attention-legend'), Math.min(...after)],
      { timeout: 15_000 },
    );
    const legend = await legendOf(page, 'compare-similarity-attention');
    close(legend.min, Math.min(...after), 1e-6, 'legend minimum');
    close(legend.max, Math.max(...after), 1e-6, 'legend maximum');
    const cell = await readCell(page, 'compare-similarity-attention', ['ArrowDown', 'ArrowRight', 'ArrowRight']);
    close(cell.value, after[1 * r.cols + 2], 1e-6, 'after attention, A 1 vs B 2');
    assert.ok(cell.text.includes(four(after[1 * r.cols + 2])), cell.text);
    assert.match(cell.text, /^A 1 ␣bites, B 2 ␣dog: /);
    const input = await legendOf(page, 'compare-similarity-input');
    assert.deepEqual([input.min, input.max], [-1, 1], 'input cosines keep the −1…+1 scale');
  });

  test('2 and 5: table rows and the learned wpe read as node computes; the wpe scale is fixed across snapshots', async () => {
    const ids = (await page.getByTestId('embeddings-heatmap').evaluate((el) => el.dataset.ids)).split(' ').map(Number);
    const table = lab.tokenEmbedding({ vocabSize: r50k.vocabSize, dim: 16, seed: 1, stddev: 1 });
    const rows = table.lookup(ids);
    table.dispose();
    const row = await readCell(page, 'embeddings-heatmap', [...times(2, 'ArrowDown'), ...times(5, 'ArrowRight')]);
    close(row.value, rows[2 * 16 + 5], 1e-6, 'embedding row 2, dimension 5');
    assert.match(row.text, new RegExp(`row ${ids[2]}, dimension 5: `));

    const model = trainModel(lab, buildData(lab, r50k), 'learned', { steps: 400 });
    const wpe = model.positionEmbeddings(16);
    model.dispose();
    const cell = await readCell(page, 'learned-heatmap', [...times(3, 'ArrowDown'), ...times(7, 'ArrowRight')]);
    close(cell.value, wpe[3 * 32 + 7], 1e-6, 'wpe[3][7] at the last snapshot');
    assert.match(cell.text, /^position 3, channel 7: /);
    const last = await legendOf(page, 'learned-heatmap');
    const maxAbs = Math.max(...Array.from(wpe, Math.abs));
    assert.ok(last.max >= maxAbs - 1e-7 && last.min === -last.max, `fixed scale covers the final table: ${last.max}`);
    await setRange(page, 'learned-snap', 0);
    await page.waitForFunction(() => document.querySelector('[data-testid="learned-pca-note"]').dataset.step === '0');
    assert.deepEqual(await legendOf(page, 'learned-heatmap'), last, 'the same scale at step 0');

    // The PCA readout steps through the positions; its coordinates are the library's projections.
    const max = await page.locator(byTestId('learned-snap')).evaluate((el) => el.max);
    await setRange(page, 'learned-snap', max);
    await page.waitForFunction(() => document.querySelector('[data-testid="learned-pca-note"]').dataset.step === '400');
    const { projections } = lab.principalComponents(wpe, 16, 32);
    const point = await readCell(page, 'learned-pca', times(3, 'ArrowRight'));
    assert.equal(point.row, 3);
    assert.ok(point.text.startsWith('position 3: '), point.text);
    for (const v of [projections[6], projections[7]]) {
      assert.ok(point.text.includes(four(v)), `${point.text} names ${four(v)}`);
    }
  });

  test("5 GPT-2 wpe from a file: the heatmap reads the file's values, its legend the table's range", async () => {
    const small = lab.createModel({
      vocabSize: 10,
      contextLength: 40,
      channels: 24,
      layers: 1,
      heads: 2,
      positions: 'learned',
      seed: 4,
    });
    const bytes = small.save();
    small.dispose();
    const st = await lab.readSafetensors(bytes);
    const wpe = await st.get('wpe.weight');
    st.dispose();
    const file = join(mkdtempSync(join(tmpdir(), 'embedlab-figures-')), 'tiny.safetensors');
    writeFileSync(file, bytes);
    await page.getByTestId('learned-gpt2-file').setInputFiles(file);
    await page.waitForFunction(
      () => document.querySelector('[data-testid="learned-gpt2-status"]').dataset.state === 'done',
    );
    const cell = await readCell(page, 'learned-gpt2-heatmap', [...times(6, 'ArrowDown'), ...times(9, 'ArrowRight')]);
    assert.deepEqual([cell.row, cell.col], [6, 9]);
    close(cell.value, wpe[6 * 24 + 9], 0, 'wpe[6][9] from the file');
    assert.match(cell.text, /^position 6, channel 9: /);
    const maxAbs = Math.max(...Array.from(wpe, Math.abs));
    const legend = await legendOf(page, 'learned-gpt2-heatmap');
    close(legend.max, Math.min(maxAbs, 0.2), 1e-7, "legend: the table's largest |value| (clipped at 0.2)");
    assert.equal(legend.min, -legend.max);
  });

  test('scatter labels never overlap, at desktop and at phone width', async () => {
    assertNoOverlap(await labelBoxes(page, 'embeddings-pca'), 'token PCA, desktop');
    assertNoOverlap(await labelBoxes(page, 'learned-pca'), 'position PCA, desktop');
    const phone = await openPage(env.browser, env.url, { width: 390, height: 844 });
    contexts.push(phone.context);
    await waitForPage(phone.page);
    assertNoOverlap(await labelBoxes(phone.page, 'embeddings-pca'), 'token PCA, phone');
    assertNoOverlap(await labelBoxes(phone.page, 'learned-pca'), 'position PCA, phone');
    // Hidden labels are still readable: the readout steps to every point.
    const { hidden } = await labelBoxes(phone.page, 'embeddings-pca');
    const n = await phone.page.evaluate(() => document.querySelectorAll('#embeddings-neighbours tr').length);
    assert.ok(n > 0 && hidden >= 0);

    // Phone: no sideways scrolling; wide tables scroll inside their box, with edge shadows as the hint.
    const overflow = await phone.page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.equal(overflow, 0, 'the page scrolls sideways at 390 px');
    const glove = await phone.page.locator('.glove-box').evaluate((el) => ({
      scrolls: el.scrollWidth > el.clientWidth,
      hint: getComputedStyle(el).backgroundImage,
    }));
    assert.ok(!glove.scrolls || /radial-gradient/.test(glove.hint), 'a wide table shows its scroll hint');
    // Chapter numbers in the contents do not run into the chapter names.
    const toc = await phone.page.locator('.toc li').evaluateAll((items) =>
      items.map((li) => {
        const box = li.getBoundingClientRect();
        return [box.left, box.top, box.width, box.height, getComputedStyle(li, '::before').content];
      }),
    );
    toc.forEach(([x, y, w, h, content], i) => {
      assert.equal(content, 'counter(chapter)');
      for (const [x2, y2, w2, h2] of toc.slice(i + 1)) {
        assert.ok(!(x < x2 + w2 && x2 < x + w && y < y2 + h2 && y2 < y + h), `contents entries ${i} overlap`);
      }
    });
    assert.deepEqual(phone.problems, []);
  });

  test('no console errors on the walked page', () => {
    assert.deepEqual(problems, []);
  });
});
