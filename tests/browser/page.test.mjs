// The tutorial page in headless Chromium, section by section: set inputs, wait for results, and compare the
// numbers shown with the library computed here in node. Every page fails on a console error, a page error or a
// request that leaves 127.0.0.1.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import createEmbedLab from '../../dist/index.js';
import { fixed3 } from '../../web/js/ui/format.js';
import { rotate } from '../../web/js/sections/sinusoidal/sinusoidal.js';
import { buildData, trainModel } from '../../web/js/training/training.js';
import { launch, openPage, STRICT_CSP, waitForPage, waitForResults } from './browser.mjs';

const A = 'dog bites man';
const B = 'man bites dog';
const DEFAULT_TEXT = 'The dog bites the man. Unbelievably, the man bites the dog! Ünïcödé 🐕‍🦺 狗咬人';

const byTestId = (id) => `[data-testid="${id}"]`;

async function setRange(page, testId, value) {
  await page.locator(byTestId(testId)).evaluate((el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, value);
}

/** Waits until section 3 shows the results of `ids` (it computes in a worker: they come after the vocabulary). */
const orderIds = (page, ids) =>
  page.waitForFunction(
    (expected) => document.querySelector('[data-testid="order-pooled"]').dataset.ids === expected,
    Array.from(ids).join(' '),
  );
const text = async (page, testId) => (await page.getByTestId(testId).textContent()).trim();
const data = async (page, testId, key) => page.getByTestId(testId).evaluate((el, k) => el.dataset[k], key);

describe('tutorial page', { timeout: 150_000 }, () => {
  let env;
  let lab;
  let r50k;
  let page;
  let problems;
  const contexts = [];

  before(async () => {
    [env, lab] = await Promise.all([launch(), createEmbedLab()]);
    r50k = await lab.getTokenizer('r50k_base');
    ({ page, problems } = await open({ width: 1280, height: 900 }));
    await waitForPage(page);
  });

  after(async () => {
    for (const context of contexts) {
      await context.close().catch(() => {});
    }
    await env?.browser.close();
    await new Promise((resolve) => (env ? env.server.close(resolve) : resolve()));
  });

  async function open(viewport, extras = {}, options = {}) {
    const opened = await openPage(env.browser, env.url, viewport, options, extras);
    contexts.push(opened.context);
    return opened;
  }

  test('1 tokenize: ids and byte spans match the tokenizer in node, for every vocabulary', async () => {
    const ids = async () => (await data(page, 'tokenize-output', 'ids')).split(' ').map(Number);
    assert.deepEqual(await ids(), Array.from(r50k.encode(DEFAULT_TEXT)));
    const spans = r50k.tokens(DEFAULT_TEXT);
    const shown = await page.getByTestId('tokenize-output').locator('li small').allTextContents();
    assert.deepEqual(
      shown,
      spans.map((t) => `${t.id} · ${t.start}–${t.end}`),
    );
    assert.ok((await page.locator('.token.partial').count()) > 0, 'partial UTF-8 tokens are marked');
    for (const name of ['cl100k_base', 'o200k_base']) {
      await page.getByTestId('tokenize-vocab').selectOption(name);
      await page.waitForFunction(
        (n) => document.querySelector('[data-testid="tokenize-output"]').dataset.vocab === n,
        name,
      );
      const tok = await lab.getTokenizer(name);
      assert.deepEqual(await ids(), Array.from(tok.encode(DEFAULT_TEXT)), name);
      tok.dispose();
    }
    await page.getByTestId('tokenize-vocab').selectOption('r50k_base');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="tokenize-output"]').dataset.vocab === 'r50k_base',
    );
  });

  test('1 tokenize: a vocabulary trained in the worker equals one trained in node; errors are shown', async () => {
    const corpus = 'the cat sat on the mat. the dog sat on the log. '.repeat(40);
    await page.getByTestId('tokenize-bpe-corpus').fill(corpus);
    await page.getByTestId('tokenize-bpe-size').fill('300');
    await page.getByTestId('tokenize-bpe-pattern').selectOption('gpt2');
    await page.getByTestId('tokenize-bpe-train').click();
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="tokenize-bpe-status"]').dataset.state === 'done' &&
        document.querySelector('[data-testid="tokenize-output"]').dataset.vocab === 'trained',
    );
    assert.equal(await page.getByTestId('tokenize-bpe-progress').evaluate((el) => el.value), 1);
    const trained = await lab.trainTokenizer(corpus, { vocabSize: 300, pattern: 'gpt2' });
    const ids = (await data(page, 'tokenize-output', 'ids')).split(' ').map(Number);
    assert.deepEqual(ids, Array.from(trained.encode(DEFAULT_TEXT)));
    assert.match(await text(page, 'tokenize-bpe-status'), new RegExp(`${trained.merges.length} merges`));
    assert.ok((await page.getByTestId('tokenize-bpe-merges').locator('li').count()) > 0);
    // Where the trained vocabulary takes effect, a notice says so; one click goes back to r50k_base.
    for (const id of ['order-vocab-notice', 'beyond-vocab-notice']) {
      assert.ok(await page.getByTestId(id).isVisible(), id);
      assert.match(await text(page, id), new RegExp(`\\(${trained.vocabSize} tokens\\) is in use here, not r50k_base`));
    }
    await orderIds(page, trained.encode(' dog bites man')); // section 3 computes in the embedding worker
    await page.getByTestId('order-vocab-notice-back').click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="tokenize-output"]').dataset.vocab === 'r50k_base',
    );
    assert.equal(await page.getByTestId('tokenize-vocab').inputValue(), 'r50k_base');
    await orderIds(page, r50k.encode(' dog bites man'));
    for (const id of ['order-vocab-notice', 'beyond-vocab-notice']) {
      assert.equal(await page.getByTestId(id).isVisible(), false, id);
    }
    trained.dispose();

    // One long run of a letter: tokens grow past 255 bytes, which the trainer once refused; it now trains as node does.
    const longRun = await lab.trainTokenizer('a'.repeat(3000), { vocabSize: 600, pattern: 'gpt2' }); // the pattern picked above
    await page.getByTestId('tokenize-bpe-corpus').fill('a'.repeat(3000));
    await page.getByTestId('tokenize-bpe-size').fill('600');
    await page.getByTestId('tokenize-bpe-train').click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="tokenize-bpe-status"]').dataset.state !== 'running',
    );
    assert.equal(await data(page, 'tokenize-bpe-status', 'state'), 'done');
    assert.match(await text(page, 'tokenize-bpe-status'), new RegExp(`${longRun.merges.length} merges`));
    longRun.dispose();
    await page.getByTestId('tokenize-vocab').selectOption('r50k_base');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="tokenize-output"]').dataset.vocab === 'r50k_base',
    );
  });

  test('2 token embeddings: rows of the ids of section 1; the trained table groups nouns and verbs', async () => {
    const distinct = [...new Set(r50k.encode(DEFAULT_TEXT))].slice(0, 16);
    await page.waitForFunction(
      (ids) => document.querySelector('[data-testid="embeddings-heatmap"]').dataset.ids === ids,
      distinct.join(' '),
    ); // the rows come from the embedding worker, after section 1's vocabulary switch back to r50k_base
    assert.equal(await data(page, 'embeddings-status', 'state'), 'done');
    const [same, total] = (await data(page, 'embeddings-neighbours', 'sameKind')).split('/').map(Number);
    assert.ok(total >= 14 && same / total >= 0.75, `nearest neighbours of the same kind: ${same}/${total}`);
  });

  test('3 order problem: swapped rows match exactly and pooled vectors are identical', async () => {
    const embedding = lab.tokenEmbedding({ vocabSize: r50k.vocabSize, dim: 32, seed: 1, stddev: 1 });
    const pe = lab.positionalEncoding('sinusoidal', { dim: 32, maxLength: 64 });
    const check = async (i, j) => {
      await page.getByTestId('order-i').selectOption(String(i));
      await page.getByTestId('order-j').selectOption(String(j));
      const ids = Array.from(r50k.encode(' dog bites man'));
      const swapped = ids.slice();
      [swapped[i], swapped[j]] = [swapped[j], swapped[i]];
      await page.waitForFunction(
        (s) => document.querySelector('[data-testid="order-pooled"]').dataset.swapped === s,
        swapped.join(' '),
      );
      assert.ok(Number(await data(page, 'order-pooled', 'worst')) < 1e-5, 'each swapped row equals an original row');
      assert.equal(await text(page, 'order-pooled'), '1.000');
      const withPe = lab.compare(ids, swapped, { embedding, positional: pe, attention: { seed: 3 } });
      assert.equal(await text(page, 'order-pooled-pe'), fixed3(withPe.attention.pooledCosine));
      assert.ok(withPe.attention.pooledCosine < 1);
    };
    await check(0, 2);
    await check(0, 1);
    embedding.dispose();
    pe.dispose();
  });

  test('4 sinusoidal: PE·PE depends only on |p−q|; R_k·PE(p) = PE(p+k) with the residual of node', async () => {
    await setRange(page, 'sinusoidal-dim', 16);
    await setRange(page, 'sinusoidal-base', 3); // 10^3
    await setRange(page, 'sinusoidal-pos', 10);
    await setRange(page, 'sinusoidal-k', 7);
    await page.waitForFunction(
      () => document.querySelector('[data-testid="sinusoidal-residual"]').dataset.state === '16/1000/10/7',
    );
    const pe = lab.positionalEncoding('sinusoidal', { dim: 16, base: 1000, maxLength: 128 });
    const rotated = rotate(pe.row(10), 7, 16, 1000);
    const target = pe.row(17);
    const residual = Math.max(...Array.from(target, (v, c) => Math.abs(v - rotated[c])));
    const shown = Number(await data(page, 'sinusoidal-residual', 'residual'));
    assert.ok(Math.abs(shown - residual) < 1e-9, `residual ${shown} vs node ${residual}`);
    assert.ok(residual < 1e-5);
    assert.match(
      await text(page, 'sinusoidal-residual'),
      new RegExp(`PE\\(10\\)·PE\\(17\\) = ${fixed3(lab.kernels.dot(pe.row(10), target))}`),
    );
    assert.match(await text(page, 'sinusoidal-dots-note'), /PE\(p\)·PE\(p\) = d\/2 = 8\./);

    // The four terms of (x + PE(p))ᵀW(x′ + PE(p − k)) with W = R_k, i.e. a·(R_k b), for p = k…k+63: only the
    // position × position term stays put. The rotation here is this test's own, in double precision.
    const turn = (v) => {
      const out = new Float64Array(16);
      for (let i = 0; i < 8; i++) {
        const angle = 7 / 1000 ** ((2 * i) / 16);
        out[2 * i] = v[2 * i] * Math.cos(angle) + v[2 * i + 1] * Math.sin(angle);
        out[2 * i + 1] = v[2 * i + 1] * Math.cos(angle) - v[2 * i] * Math.sin(angle);
      }
      return out;
    };
    const tokens = lab.tokenEmbedding({ vocabSize: 2, dim: 16, seed: 5, stddev: 1 }).table();
    const [x, x2] = [tokens.subarray(0, 16), tokens.subarray(16, 32)];
    const terms = [[], [], [], []];
    for (let q = 7; q < 7 + 64; q++) {
      const [pq, pk] = [pe.row(q), turn(pe.row(q - 7))];
      [
        [x, turn(x2)],
        [x, pk],
        [pq, turn(x2)],
        [pq, pk],
      ].forEach(([a, b], n) => terms[n].push(lab.kernels.dot(a, b)));
    }
    const shownTerms = await page
      .locator('#sinusoidal-terms-body tr')
      .evaluateAll((trs) => trs.map((tr) => [Number(tr.dataset.min), Number(tr.dataset.max)]));
    terms.forEach((values, n) => {
      const [min, max] = shownTerms[n];
      assert.ok(Math.abs(min - Math.min(...values)) < 1e-4 && Math.abs(max - Math.max(...values)) < 1e-4, `term ${n}`);
    });
    assert.ok(Math.max(...terms[3]) - Math.min(...terms[3]) < 1e-4, 'position × position is relative');
    assert.ok(Math.abs(Math.min(...terms[3]) - 8) < 1e-4, 'PE(p+k)·PE(p+k) = d/2');
    for (const n of [1, 2]) {
      assert.ok(Math.max(...terms[n]) - Math.min(...terms[n]) > 0.5, `term ${n} changes with p`);
    }
    // k back and k ahead of position p + k = 17 score the same.
    const back = lab.kernels.dot(pe.row(17), pe.row(10));
    const ahead = lab.kernels.dot(pe.row(17), pe.row(24));
    assert.equal(await data(page, 'sinusoidal-symmetry', 'state'), '16/1000/10/7');
    assert.equal(Number(await data(page, 'sinusoidal-symmetry', 'back')), back);
    assert.equal(Number(await data(page, 'sinusoidal-symmetry', 'ahead')), ahead);
    assert.ok(Math.abs(back - ahead) < 1e-5);
    assert.match(await text(page, 'sinusoidal-symmetry'), new RegExp(`PE\\(17\\)·PE\\(10\\) = ${fixed3(back)}`));
    pe.dispose();

    // Keyboard: focus the heatmap, move the cursor, read a value.
    await page.getByTestId('sinusoidal-heatmap').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="sinusoidal-readout"]').textContent.startsWith('PE(1, 1) = cos('),
    );
    assert.match(await text(page, 'sinusoidal-readout'), /= 0\.540/); // cos(1)
  });

  test('5 learned positions: the worker trains what node trains; GPT-2 wpe from a file', async () => {
    const d = buildData(lab, r50k);
    const model = trainModel(lab, d, 'learned', { steps: 400 });
    const wpe = model.positionEmbeddings(16);
    model.dispose();
    const lengths = Array.from({ length: 16 }, (_, i) => lab.kernels.norm(wpe.subarray(i * 32, (i + 1) * 32)));
    assert.equal(await data(page, 'learned-norms', 'step'), '400');
    assert.deepEqual((await data(page, 'learned-norms', 'norms')).split(' ').map(Number), lengths);
    const row = (i) => wpe.subarray(i * 32, (i + 1) * 32);
    let near = 0;
    for (let i = 0; i < 15; i++) {
      near += lab.kernels.cosine(row(i), row(i + 1)) / 15;
    }
    assert.equal(await data(page, 'learned-pca-note', 'step'), '400');
    assert.ok(
      Math.abs(Number(await data(page, 'learned-pca-note', 'near')) - near) < 1e-6,
      'mean neighbour cosine as in node',
    );

    // A checkpoint with a wpe tensor: only that tensor is read and shown.
    const small = lab.createModel({
      vocabSize: 10,
      contextLength: 40,
      channels: 24,
      layers: 1,
      heads: 2,
      positions: 'learned',
      seed: 9,
    });
    const bytes = small.save();
    small.dispose();
    const file = join(mkdtempSync(join(tmpdir(), 'embedlab-')), 'tiny.safetensors');
    writeFileSync(file, bytes);
    const st = await lab.readSafetensors(bytes);
    const first = (await st.get('wpe.weight'))[0];
    st.dispose();
    await page.getByTestId('learned-gpt2-file').setInputFiles(file);
    await page.waitForFunction(
      () => document.querySelector('[data-testid="learned-gpt2-status"]').dataset.state === 'done',
    );
    assert.equal(await data(page, 'learned-gpt2-status', 'shape'), '40x24');
    assert.equal(Number(await data(page, 'learned-gpt2-status', 'first')), first);
  });

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
      // At 0.02 the sinusoid swamps the token: the verdict says why the cosine shows 1.000.
      assert.equal(/35 times shorter/.test(await text(page, 'compare-verdict')), scale === 'gpt2', scale);
      assert.equal(fixed3(att.pooledCosine) === '1.000', scale === 'gpt2', scale);
      const expected = Array.from(ids[0], (_, i) => fixed3(lab.kernels.norm(rows.subarray(i * 64, (i + 1) * 64))));
      assert.deepEqual(await norms('token'), expected, scale);
      assert.deepEqual(await norms('position'), Array(ids[0].length).fill(fixed3(Math.sqrt(64 / 2))), scale);
    }

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

    // The race starts on a click; tests/browser/race.test.mjs runs it and compares it with the library in node.
    assert.equal(await data(page, 'beyond-race-status', 'state'), 'idle');
  });

  test('9 exercises: twelve exercises, each checked live (the full walk: tests/browser/exercises.test.mjs)', async () => {
    assert.equal(await page.locator('#exercises-list > li').count(), 12);
    const model = lab.createModel({
      vocabSize: 8,
      contextLength: 16,
      channels: 8,
      layers: 1,
      heads: 1,
      positions: 'learned',
    });
    assert.throws(() => model.evaluate({ ids: [new Array(17).fill(0)], targets: [new Array(17).fill(0)] }));
    model.dispose();
    await page.getByTestId('exercises-limit-length').fill('16');
    await page.getByTestId('exercises-limit-check').click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="exercises-limit-result"]').dataset.ok === 'true',
    );
    assert.match(await text(page, 'exercises-limit-result'), /16 tokens: accepted; 17 tokens: refused/);
  });

  test('no console errors and no non-local requests on the walked page', () => {
    assert.deepEqual(problems, []);
  });

  test('phone: nothing moves while the workers train; no sideways scrolling', async () => {
    const phone = await open({ width: 390, height: 844 });
    await phone.page.waitForFunction(
      // The workers that start with the page (sections 2 and 5; the race waits for a click) are still at work.
      () =>
        document.getElementById('main').dataset.state === 'ready' &&
        ['embeddings-status', 'learned-status'].some(
          (id) => document.querySelector(`[data-testid="${id}"]`).dataset.state !== 'done',
        ),
    );
    const boxes = () =>
      phone.page.evaluate(() =>
        Array.from(document.querySelectorAll('main > section'), (s) => {
          const box = s.getBoundingClientRect();
          return `${s.id}: ${Math.round(box.top + window.scrollY)}+${Math.round(box.height)}`;
        }),
      );
    const during = await boxes();
    await waitForPage(phone.page);
    assert.deepEqual(await boxes(), during, 'layout moved while training');
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
