// Section 2, "trained end to end, not frozen": a GloVe file loaded through the file picker is parsed by the
// library in the page; its nearest neighbours must equal lab.loadWordVectors(...).nearest(...) in node. The
// export button writes the live table as GloVe text that loads back as a frozen copy, which then drifts from the
// live table as the model keeps training. Fails on a console error or a request that leaves 127.0.0.1.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import createEmbedLab from '../../dist/index.js';
import { neighboursText } from '../../web/js/sections/embeddings/glove_text.js';
import { launch, openPage } from './browser.mjs';
import { NOUNS, VERBS } from '../../web/js/training/training.js';

const SMALL = [
  'dog 0.9 0.1 0.0 0.2',
  'cat 0.8 0.2 0.1 0.1',
  'horse 0.7 0.0 0.3 0.2',
  'man 0.1 0.9 0.1 0.0',
  'child 0.2 0.8 0.0 0.3',
  'bites 0.0 0.1 0.9 0.1',
  'sees -0.1 0.2 0.8 0.4',
  'table 0.3 -0.5 0.2 0.9',
  '',
].join('\n');
const MALFORMED = 'dog 0.1 0.2 0.3\ncat 0.1 oops 0.3\n';

describe('section 2: frozen GloVe vectors vs the jointly trained table', { timeout: 240_000 }, () => {
  let env;
  let lab;
  let context;
  let page;
  let problems;

  const cells = (col) => page.locator(`#embeddings-glove-rows td[data-col="${col}"]`).allTextContents();
  const status = () => page.getByTestId('embeddings-glove-status');

  before(async () => {
    [env, lab] = await Promise.all([launch(), createEmbedLab()]);
    ({ context, page, problems } = await openPage(env.browser, env.url));
    await page.evaluate(() => document.querySelectorAll('#embeddings details').forEach((d) => (d.open = true))); // the folded panels
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="embeddings-status"]')?.dataset.state === 'done' &&
        document.querySelector('[data-testid="embeddings-glove-status"]')?.dataset.state === 'loaded',
      null,
      { timeout: 120_000 }, // training and the worker's parse wait for a core on a busy machine
    );
  });

  after(async () => {
    await context?.close().catch(() => {});
    await env?.browser.close();
    await new Promise((resolve) => (env ? env.server.close(resolve) : resolve()));
  });

  test('by default an early step is frozen, and the live table has moved away from it', async () => {
    assert.match(await status().textContent(), /automatic frozen copy of step 30/);
    const cos = (await cells('cosine')).map(Number);
    assert.ok(cos.length >= 14, `rows: ${cos.length}`);
    assert.ok(
      cos.every((c) => c > -1 && c < 0.999),
      `cos(frozen, live): ${cos}`,
    );
  });

  test('export → download → load back: cos 1.000, then the copy stays fixed while training goes on', async () => {
    await page.getByTestId('embeddings-glove-export').click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('embeddings-glove-download').click(),
    ]);
    assert.equal(download.suggestedFilename(), 'embedlab-step-300.txt');
    const text = await readFile(await download.path(), 'utf8');
    const exported = await lab.loadWordVectors(text);
    assert.equal(exported.dim, 32);
    for (const word of ['dog', 'man', 'bites', 'the', '.']) {
      assert.ok(exported.indexOf(word) >= 0, word);
    }

    await page
      .getByTestId('embeddings-glove-file')
      .setInputFiles({ name: 'embedlab-step-300.txt', mimeType: 'text/plain', buffer: Buffer.from(text) });
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="embeddings-glove-status"]').textContent.includes('embedlab-step-300.txt'),
    );
    assert.ok(
      (await cells('cosine')).every((c) => c === '1.000'),
      'the frozen copy equals the live table it came from',
    );
    const rows = await page.locator('#embeddings-glove-rows tr').evaluateAll((trs) => trs.map((tr) => tr.dataset.word));
    const frozen = await cells('frozen');
    rows.forEach((word, i) => assert.equal(frozen[i], neighboursText(exported.nearest(word, 3)), word));

    await page.getByTestId('embeddings-continue').click();
    await page.waitForFunction(
      () => {
        const s = document.querySelector('[data-testid="embeddings-status"]').dataset;
        return s.state === 'done' && s.steps === '600';
      },
      null,
      { timeout: 60_000 },
    );
    assert.equal((await cells('frozen')).join('|'), frozen.join('|'), 'frozen neighbours did not move');
    const cos = (await cells('cosine')).map(Number);
    assert.ok(
      cos.every((c) => c < 0.999),
      `the live table drifted: ${cos}`,
    );
    assert.match(await page.locator('#embeddings-glove-now').textContent(), /step 600/);
  });

  test('a GloVe file from the file picker: neighbours equal the library in node', async () => {
    const wv = await lab.loadWordVectors(SMALL);
    await page
      .getByTestId('embeddings-glove-file')
      .setInputFiles({ name: 'small.txt', mimeType: 'text/plain', buffer: Buffer.from(SMALL) });
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="embeddings-glove-status"]').textContent.includes('small.txt'),
    );
    // The corpus's words (training.js) under r50k_base: whole ones count as nouns and verbs, a split one's pieces
    // apart ("ch" and "ases" are no verbs); none of the pieces is in the file.
    const r50k = await lab.getTokenizer('r50k_base');
    const corpusWords = [...NOUNS, ...VERBS];
    const split = corpusWords.filter((w) => r50k.encode(` ${w}`).length > 1);
    const pieces = split.reduce((sum, w) => sum + r50k.encode(` ${w}`).length, 0);
    r50k.dispose();
    assert.ok(split.length > 0, 'r50k_base splits a word of the corpus');
    assert.ok(
      (await status().textContent()).includes(
        `8 words × 4. 7 of the model’s ${corpusWords.length - split.length} nouns and verbs and 0 of the ${pieces} pieces of ${split.map((w) => `“${w}”`).join(', ')} are in it.`,
      ),
      await status().textContent(),
    );
    const rows = await page.locator('#embeddings-glove-rows tr').evaluateAll((trs) => trs.map((tr) => tr.dataset.word));
    const frozen = await cells('frozen');
    let compared = 0;
    rows.forEach((word, i) => {
      if (wv.indexOf(word) < 0) {
        return assert.equal(frozen[i], 'not in the file', word);
      }
      compared++;
      assert.equal(frozen[i], neighboursText(wv.nearest(word, 3)), word);
    });
    assert.equal(compared, 7);
    assert.ok(
      (await cells('cosine')).every((c) => c === '—'),
      'no cosine across different dimensions',
    );
  });

  test('a malformed file shows the line error and keeps the last good file', async () => {
    const message = await lab.loadWordVectors(MALFORMED).then(
      () => '',
      (e) => e.message,
    );
    assert.match(message, /line 2/);
    await page
      .getByTestId('embeddings-glove-file')
      .setInputFiles({ name: 'bad.txt', mimeType: 'text/plain', buffer: Buffer.from(MALFORMED) });
    await page.waitForFunction(
      () => document.querySelector('[data-testid="embeddings-glove-error"]').textContent !== '',
    );
    assert.equal(
      await page.getByTestId('embeddings-glove-error').textContent(),
      `bad.txt: ${message}. The frozen side is still small.txt.`,
    );
    assert.match(await status().textContent(), /small\.txt/);
    assert.deepEqual(problems, []);
  });
});
