// The tutorial page in headless Chromium, sections 1 to 5: set inputs, wait for results, and compare the numbers
// shown with the library computed here in node (sections 6 on: page_later.test.mjs). Every page fails on a console
// error, a page error or a request that leaves 127.0.0.1.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fixed3 } from '../../web/js/ui/format.js';
import { rotate } from '../../web/js/sections/sinusoidal/sinusoidal.js';
import { buildData, NOUNS, trainModel, VERBS } from '../../web/js/training/training.js';
import { useSession } from './browser.mjs';
import { data, DEFAULT_TEXT, orderIds, setRange, startPage, text } from './page_support.mjs';

describe('tutorial page, sections 1–5', { timeout: 150_000 }, () => {
  let lab, r50k, page, problems;
  useSession(startPage, (session) => ({ lab, r50k, page, problems } = session));

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
    // Each menu entry's size is its id range (tiktoken's n_vocab), as the library counts it, and says so: "ids".
    const labels = await page
      .getByTestId('tokenize-vocab')
      .locator('option')
      .evaluateAll((options) => Object.fromEntries(options.map((o) => [o.value, o.textContent])));
    for (const name of ['r50k_base', 'cl100k_base', 'o200k_base']) {
      const label = labels[name];
      const tok = await lab.getTokenizer(name);
      const size = /([\d\s]+) ids\)$/.exec(label)?.[1].replace(/\s/g, '');
      assert.equal(Number(size), tok.vocabSize, `${name}: ${label}`);
      tok.dispose();
    }
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
    // The corpus's nouns and verbs that r50k_base keeps whole (a split word's pieces are not listed).
    const corpusWords = [...NOUNS, ...VERBS];
    const whole = corpusWords.filter((w) => r50k.encode(` ${w}`).length === 1).length;
    assert.ok(total === whole && same / total >= 0.75, `nearest neighbours of the same kind: ${same}/${total}`);
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
    // The same swap at d = 64 (section 6's default), which the settings line names to explain section 6's number.
    const wide = lab.tokenEmbedding({ vocabSize: r50k.vocabSize, dim: 64, seed: 1, stddev: 1 });
    const pe64 = lab.positionalEncoding('sinusoidal', { dim: 64, maxLength: 64 });
    const ids = Array.from(r50k.encode(' dog bites man'));
    const at64 = lab.compare(ids, [ids[2], ids[1], ids[0]], {
      embedding: wide,
      positional: pe64,
      attention: { seed: 3 },
    });
    assert.equal(Number(await data(page, 'order-settings', 'wider')), at64.attention.pooledCosine);
    assert.match(
      await text(page, 'order-settings'),
      new RegExp(`d = 32.*d = 64.*gives ${fixed3(at64.attention.pooledCosine)}`),
    );
    wide.dispose();
    pe64.dispose();
    await check(0, 1);
    // A sentence of one token: an error, and no rows, scores or token choices of the last sentence left beside it.
    await page.getByTestId('order-text').fill(' dog');
    await page.waitForFunction(() => document.querySelector('[data-testid="order-error"]').textContent !== '');
    assert.match(await text(page, 'order-error'), /^Sentence: 1 token; type at least 2 to swap\.$/);
    assert.equal(await page.locator('#order-rows tr').count(), 0);
    assert.equal(await text(page, 'order-pooled'), '—');
    assert.equal(await text(page, 'order-pooled-pe'), '—');
    assert.equal(await data(page, 'order-pooled', 'swapped'), undefined);
    assert.ok(await page.getByTestId('order-i').isDisabled());
    await page.getByTestId('order-text').fill(' dog bites man');
    await page.waitForFunction(
      (s) => document.querySelector('[data-testid="order-pooled"]').dataset.swapped === s,
      [ids[2], ids[1], ids[0]].join(' '), // the first token with the last, the default of a new sentence
    );
    assert.equal(await text(page, 'order-pooled'), '1.000');
    assert.equal(await text(page, 'order-error'), '');
    assert.equal(await page.locator('#order-rows tr').count(), 3);
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
    assert.match(await text(page, 'sinusoidal-dots-note'), /PE\(p\)·PE\(p\) = d\/2 = 8 \(d = 16, base 1000\)\./);

    // The derivation: p / T, the bits of p and of p + k (lowest first), the library's PE(p); 10 = 1010₂, 17 = 10001₂.
    await setRange(page, 'sinusoidal-length', 40);
    await page.waitForFunction(
      () => document.querySelector('[data-testid="sinusoidal-derive-frac"]').textContent === '0.250',
    );
    assert.equal(await data(page, 'sinusoidal-derive-bits', 'bits'), '01010000');
    assert.equal(await data(page, 'sinusoidal-derive-bits', 'flips'), '4'); // 01010000 against 10001000
    assert.equal(Number(await data(page, 'sinusoidal-derive-values', 'first')), pe.row(10)[0]);
    assert.ok(Math.abs(pe.row(10)[0] - Math.sin(10)) < 1e-6);
    // T stays above p: at p = 63 the slider's low end is 64, and a T asked below it is raised to it (p / T < 1).
    await setRange(page, 'sinusoidal-pos', 63);
    await setRange(page, 'sinusoidal-length', 8);
    await page.waitForFunction(
      () => document.querySelector('[data-testid="sinusoidal-derive-frac"]').textContent === '0.984',
    );
    assert.equal(await page.getByTestId('sinusoidal-length').getAttribute('min'), '64');
    assert.equal(await page.getByTestId('sinusoidal-length').inputValue(), '64');
    await setRange(page, 'sinusoidal-pos', 10);
    await page.waitForFunction(
      () => document.querySelector('[data-testid="sinusoidal-residual"]').dataset.state === '16/1000/10/7',
    );
    assert.match(
      await text(page, 'sinusoidal-waves-note'),
      /^Dimensions 0, 2, 8, 14 .*\(d = 16, base 1000\)\. The vertical dotted line marks p = 10\.$/,
    );
    // Every pair's θ_i = base^(−2i/d) and wavelength 2π/θ_i, for the sliders' d = 16 and base 1000.
    const table = await page
      .getByTestId('sinusoidal-wavelengths')
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [Number(tr.dataset.theta), tr.cells[3].textContent]));
    assert.equal(table.length, 8);
    table.forEach(([theta, wavelength], i) => {
      const expected = 1000 ** ((-2 * i) / 16);
      assert.ok(Math.abs(theta - expected) < 1e-6 * Math.max(1, expected) + 1e-7, `θ_${i}: ${theta} vs ${expected}`);
      const lambda = (2 * Math.PI) / expected;
      assert.equal(wavelength.replace(/\u202f/g, ''), lambda < 1000 ? lambda.toFixed(1) : String(Math.round(lambda)));
    });

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
    const table = await st.get('wpe.weight');
    const first = table[0];
    st.dispose();
    // The PCA share against every component's variance (40 rows, 24 channels: all of them plotted).
    const { variances } = lab.principalComponents(table, 40, 24, { count: 24 });
    const share = (variances[0] + variances[1]) / variances.reduce((x, y) => x + y, 0);
    await page.getByTestId('learned-gpt2-file').setInputFiles(file);
    await page.waitForFunction(
      () => document.querySelector('[data-testid="learned-gpt2-status"]').dataset.state === 'done',
    );
    assert.equal(await data(page, 'learned-gpt2-status', 'shape'), '40x24');
    assert.equal(Number(await data(page, 'learned-gpt2-status', 'first')), first);
    assert.ok(Math.abs(Number(await data(page, 'learned-gpt2-status', 'share')) - share) < 1e-6, 'PCA share');
    const neighbours = Array.from({ length: 39 }, (_, i) =>
      lab.kernels.cosine(table.subarray(i * 24, (i + 1) * 24), table.subarray((i + 1) * 24, (i + 2) * 24)),
    ).reduce((x, y) => x + y / 39, 0);
    const cosines = (await data(page, 'learned-gpt2-status', 'cosines')).split(' ').map(Number);
    assert.ok(Math.abs(cosines[0] - neighbours) < 1e-6, 'mean neighbour cosine of the file');
    // The tensor and its file at one precision: the tensor is never shown larger than the file.
    const sizes = [...(await text(page, 'learned-gpt2-status')).matchAll(/([\d.]+) MB/g)].map((m) => m[1]);
    assert.equal(sizes.length, 2);
    assert.ok(sizes.every((x) => /^\d+\.\d\d$/.test(x)) && Number(sizes[0]) <= Number(sizes[1]), sizes.join(' vs '));
    assert.match(await text(page, 'learned-settings'), /weight decay 0\.1 on wte, wpe and the weight matrices/);
  });

  test('contents bar: the chapter in view is marked, its title lands below the bar', async () => {
    for (const id of ['order', 'compare', 'tokenize']) {
      await page.locator(`#contents a[href="#${id}"]`).click();
      await page.waitForFunction(
        (hash) => document.querySelector('#contents a[aria-current="location"]')?.hash === hash,
        `#${id}`,
      );
      assert.equal(await page.locator('#contents a[aria-current]').count(), 1);
      const { title, bar } = await page.evaluate(
        (i) => ({
          title: document.getElementById(`${i}-title`).getBoundingClientRect().top,
          bar: document.getElementById('contents').getBoundingClientRect().bottom,
        }),
        id,
      );
      assert.ok(title >= bar, `${id}: title at ${title}, bar ends at ${bar}`);
    }
  });

  test('no console errors and no non-local requests on the walked page', () => {
    assert.deepEqual(problems, []);
  });
});
