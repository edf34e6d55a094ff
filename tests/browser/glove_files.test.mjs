// Section 2's file control under hostile GloVe files: binary, ragged, NaN/Inf, 10 000 and 20 000 dimensions, empty,
// and a large file (read and parsed in a worker, with progress). Each failure says what is wrong and on which line
// (the library's message in node, or the page's own for what never reaches the parser), the file loaded before stays
// the frozen side, and a good file loads afterwards. Fails on a console error or a request that leaves 127.0.0.1.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import createEmbedLab from '../../dist/index.js';
import { neighboursText } from '../../web/js/sections/embeddings/glove_text.js';
import { launch, openPage } from './browser.mjs';

const GOOD = ['dog 0.9 0.1 0.0 0.2', 'cat 0.8 0.2 0.1 0.1', 'man 0.1 0.9 0.1 0.0', 'bites 0.0 0.1 0.9 0.1', ''].join(
  '\n',
);
const row = (word, dim, seed) =>
  `${word} ${Array.from({ length: dim }, (_, c) => Math.sin(seed * 7 + c).toFixed(4)).join(' ')}`;

describe('section 2: hostile GloVe files through the file control', { timeout: 480_000 }, () => {
  let env;
  let lab;
  let context;
  let page;
  let problems;

  const status = () => page.getByTestId('embeddings-glove-status').textContent();
  const error = () => page.getByTestId('embeddings-glove-error').textContent();

  /** Picks a file and waits until the page has answered: an error, or a status naming the file. */
  async function pick(name, buffer) {
    await page.getByTestId('embeddings-glove-error').evaluate((el) => {
      el.textContent = '';
    });
    await page
      .getByTestId('embeddings-glove-file')
      .setInputFiles({ name, mimeType: 'text/plain', buffer }, { timeout: 120_000 });
    await page.waitForFunction(
      (n) =>
        document.querySelector('[data-testid="embeddings-glove-error"]').textContent !== '' ||
        document.querySelector('[data-testid="embeddings-glove-status"]').textContent.includes(`Frozen file: ${n},`),
      name,
      { timeout: 120_000 },
    );
  }

  /** The library's own message for `text` in node. */
  const nodeMessage = (text) =>
    lab.loadWordVectors(text).then(
      () => assert.fail('node loads it'),
      (e) => e.message,
    );

  /** A failed load: the message, and the good file still frozen (its neighbours as node computes them). */
  async function refused(name, buffer, expected) {
    await pick(name, buffer);
    const message = await error();
    if (typeof expected === 'string') {
      assert.equal(message, `${name}: ${expected.replace(/\.$/, '')}. The frozen side is still good.txt.`);
    } else {
      assert.match(message, expected);
    }
    assert.match(await status(), /^Frozen file: good\.txt, 4 words × 4\./);
    const good = await lab.loadWordVectors(GOOD);
    const shown = await page.locator('#embeddings-glove-rows tr[data-word="dog"] td[data-col="frozen"]').textContent();
    assert.equal(shown, neighboursText(good.nearest('dog', 3)));
    assert.equal(await page.getByTestId('embeddings-glove-loading').isHidden(), true);
  }

  before(async () => {
    [env, lab] = await Promise.all([launch(), createEmbedLab()]);
    ({ context, page, problems } = await openPage(env.browser, env.url));
    await page.evaluate(() => document.querySelectorAll('#embeddings details').forEach((d) => (d.open = true))); // the folded panels
    await page.waitForFunction(
      () => document.querySelector('[data-testid="embeddings-glove-status"]')?.dataset.state === 'loaded',
      null,
      { timeout: 240_000 }, // the first snapshot of section 2's training: minutes on a machine with every core busy
    );
    await pick('good.txt', Buffer.from(GOOD));
    assert.equal(await error(), '');
  });

  after(async () => {
    await context?.close().catch(() => {});
    await env?.browser.close();
    await new Promise((resolve) => (env ? env.server.close(resolve) : resolve()));
  });

  test('binary files: the line of the first NUL byte, and what the file is not', async () => {
    // A PNG's signature and header: the signature holds two line feeds, the first NUL is on line 3.
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
    await refused(
      'image.png',
      png,
      /^image\.png: GloVe text, line 3: a NUL byte \(at byte 8\), which UTF-8 text never holds: this is a binary file/,
    );
    // word2vec's binary format: a text header, then each word followed by dim raw float32s.
    const floats = Buffer.from(new Float32Array([0.5, -0.25, 1, 0]).buffer);
    const bin = Buffer.concat([Buffer.from('2 4\ndog '), floats, Buffer.from('\ncat '), floats, Buffer.from('\n')]);
    await refused('vectors.bin', bin, /^vectors\.bin: GloVe text, line 2: a NUL byte .*word2vec \.bin/);
    // GloVe text saved as UTF-16: a NUL after every ASCII character.
    const utf16 = Buffer.from(GOOD, 'utf16le');
    await refused(
      'utf16.txt',
      utf16,
      /^utf16\.txt: GloVe text, line 1: a NUL byte \(at byte 1\).*UTF-16 text \(save it as UTF-8\)/,
    );
  });

  test('ragged rows, NaN and Inf: the library’s line error', async () => {
    const ragged = 'dog 0.1 0.2 0.3\ncat 0.4 0.5 0.6\nman 0.7 0.8\n';
    await refused('ragged.txt', Buffer.from(ragged), await nodeMessage(ragged));
    assert.match(await error(), /line 3: expected a word and 3 values \(the dim set by line 1\), got 2 values/);
    for (const bad of ['NaN', 'inf', '-Infinity', '1e39']) {
      const text = `dog 0.1 0.2\ncat 0.3 ${bad}\n`;
      await refused('bad-value.txt', Buffer.from(text), await nodeMessage(text));
      assert.match(await error(), new RegExp(`line 2: value 2 of "cat" is not a finite number: "${bad}"`));
    }
  });

  test('10 000 dimensions load (neighbours as in node, no cosine with the model’s 32); 20 000 are refused', async () => {
    const wide = ['dog', 'cat', 'man', 'horse'].map((w, k) => row(w, 10_000, k + 1)).join('\n');
    await pick('wide.txt', Buffer.from(wide));
    assert.equal(await error(), '');
    assert.match(
      await status(),
      /^Frozen file: wide\.txt, 4 words × 10000\. 4 of the model’s \d+ nouns and verbs and 0 of the \d+ pieces of “chases” are in it\. Its 10000 dimensions are not the model’s 32, so only neighbours compare\.$/,
    );
    const vectors = await lab.loadWordVectors(wide);
    const shown = await page.locator('#embeddings-glove-rows tr[data-word="man"] td[data-col="frozen"]').textContent();
    assert.equal(shown, neighboursText(vectors.nearest('man', 3)));
    await pick('good.txt', Buffer.from(GOOD));
    const wider = row('dog', 20_000, 1);
    await refused('wider.txt', Buffer.from(wider), await nodeMessage(wider));
    assert.match(await error(), /line 1: dim must be in \[1, 16384\], got 20000/);
  });

  test('an empty file, and one of blank lines', async () => {
    await refused('empty.txt', Buffer.alloc(0), /^empty\.txt: the file is empty \(0 bytes\)/);
    const blank = '\n  \n\t\n';
    await refused('blank.txt', Buffer.from(blank), await nodeMessage(blank));
  });

  test('a large file: progress while it is read and parsed in the worker, then a good file again', async () => {
    // 24 000 rows of 50 values (about 8.6 MiB): three slices of the worker's reads.
    const lines = Array.from({ length: 24_000 }, (_, i) => row(i === 23_999 ? 'dog' : `w${i}`, 50, i));
    const text = `${lines.join('\n')}\n`;
    await page.getByTestId('embeddings-glove-loading').evaluate((el) => {
      window.glovePhases = [];
      new MutationObserver(() => {
        if (!el.hidden && window.glovePhases.at(-1) !== el.dataset.phase) {
          window.glovePhases.push(el.dataset.phase);
        }
      }).observe(el, { attributes: true, subtree: true, childList: true });
    });
    await pick('large.txt', Buffer.from(text));
    assert.equal(await error(), '');
    assert.match(await status(), /^Frozen file: large\.txt, 24000 words × 50\. 1 of the model’s/);
    assert.deepEqual(await page.evaluate(() => window.glovePhases), ['reading', 'parsing']);
    assert.equal(await page.getByTestId('embeddings-glove-loading').isHidden(), true);
    const vectors = await lab.loadWordVectors(text);
    const shown = await page.locator('#embeddings-glove-rows tr[data-word="dog"] td[data-col="frozen"]').textContent();
    assert.equal(shown, neighboursText(vectors.nearest('dog', 3)));
    // An error far into a large file names its line; the large file stays the frozen side.
    const broken = lines.slice();
    broken[20_000] = 'w20000 0.1 0.2';
    await pick('large-broken.txt', Buffer.from(broken.join('\n')));
    assert.equal(
      await error(),
      'large-broken.txt: GloVe text, line 20001: expected a word and 50 values (the dim set by line 1), got 2 values. The frozen side is still large.txt.',
    );
    assert.match(await status(), /^Frozen file: large\.txt, 24000 words × 50\./);
    await pick('good.txt', Buffer.from(GOOD));
    assert.equal(await error(), '');
    assert.deepEqual(problems, []);
  });
});
