// embedlab/tokenizer: the tokenizer-only module gives the same ids as the full package and as npm tiktoken (the
// reference) for every encoding, reads the same vocabulary files, trains the same merges, and takes {wasm}.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { get_encoding } from 'tiktoken';

import createEmbedLab from '../../dist/index.js';
import createTokenizers, * as entry from '../../dist/tokenizer.js';

const TEXTS = [
  'Hello, world! The quick brown fox jumps over the lazy dog.',
  "  leading spaces, trailing ones   \n\n\tand tabs; it's we'll I'M don't 1234567 3.14159",
  'function f(x) { return x ** 2; } // code: snake_case, camelCase, HTTPServer',
  'Ça va? Grüße aus Köln. Привет мир. 你好，世界。こんにちは。안녕하세요. مرحبا بالعالم',
  'emoji 👋🏽 family 👨‍👩‍👧 flags 🇩🇪🇯🇵 and combining e\u0301 a\u0308',
  'numbers 1 12 123 1234 12345 ١٢٣ ①②③ and \u00a0no-break\u2009thin\u3000ideographic spaces',
  'special <|endoftext|> text and <|fim_prefix|> as ordinary text',
  '\r\n\r\n   \u0085 \ufeff mixed line ends\r and a lone surrogate \ud800 here',
];

const lab = await createEmbedLab();
const tokenizers = await createTokenizers();

test('the tokenizer module is its own small module, not the full one', () => {
  assert.equal(tokenizers.version, lab.version);
  assert.deepEqual(tokenizers.patternNames, lab.patternNames);
  assert.deepEqual(tokenizers.tokenizerNames, lab.tokenizerNames);
  assert.equal(tokenizers.flavour, lab.flavour);
  assert.equal(tokenizers.simdTarget, lab.simdTarget);
  assert.equal(typeof tokenizers.createModel, 'undefined');
});

for (const name of lab.tokenizerNames) {
  test(`${name}: the same ids as the full package and as npm tiktoken`, async () => {
    const ours = await entry.getTokenizer(name);
    const full = await lab.getTokenizer(name);
    let reference = null;
    try {
      reference = get_encoding(name);
    } catch {
      // an encoding npm tiktoken lacks: compared with the full package only
    }
    try {
      assert.equal(ours.vocabSize, full.vocabSize);
      assert.deepEqual(ours.specialTokens, full.specialTokens);
      for (const text of TEXTS) {
        const ids = ours.encode(text, { allowedSpecial: 'all' });
        assert.deepEqual(ids, full.encode(text, { allowedSpecial: 'all' }), text);
        assert.deepEqual(ours.encodeOrdinary(text), full.encodeOrdinary(text), text);
        assert.equal(ours.count(text, { allowedSpecial: 'all' }), ids.length);
        assert.equal(ours.decode(ids), full.decode(ids));
        if (reference !== null) {
          assert.deepEqual(ids, reference.encode(text, 'all'), `tiktoken, ${text}`);
        }
      }
    } finally {
      reference?.free();
      ours.dispose();
      full.dispose();
    }
  });
}

test('encodingForModel: the encoding of an OpenAI model, as the full package maps it', async () => {
  for (const model of ['gpt-4o', 'gpt-4', 'gpt-3.5-turbo', 'text-davinci-003']) {
    assert.equal(entry.encodingNameForModel(model), lab.encodingNameForModel(model));
    const ours = await entry.encodingForModel(model);
    const full = await lab.encodingForModel(model);
    assert.equal(ours.name, full.name);
    assert.deepEqual(ours.encode(TEXTS[0]), full.encode(TEXTS[0]));
    ours.dispose();
    full.dispose();
  }
  await assert.rejects(entry.encodingForModel('no-such-model'), { name: 'RangeError' });
});

test('tokenizerFromVocabulary reads the same files into the same tokenizers', async () => {
  const tiktokenFile = readFileSync(
    new URL('../../node_modules/gpt-tokenizer/data/r50k_base.tiktoken', import.meta.url),
  );
  const gpt2Json = readFileSync(new URL('../../node_modules/tiktoken/encoders/gpt2.json', import.meta.url), 'utf8');
  const cases = [
    { tiktoken: tiktokenFile, encoding: 'r50k_base' },
    { tiktoken: tiktokenFile, pattern: 'cl100k', specialTokens: { '<|end|>': 50257 }, name: 'custom' },
    { tiktokenJson: gpt2Json },
  ];
  for (const files of cases) {
    const ours = await entry.tokenizerFromVocabulary(files);
    const full = lab.tokenizerFromVocabulary(files);
    for (const text of [...TEXTS, 'x<|end|>y']) {
      assert.deepEqual(ours.encode(text, { allowedSpecial: 'all' }), full.encode(text, { allowedSpecial: 'all' }));
    }
    assert.deepEqual(ours.specialTokens, full.specialTokens);
    ours.dispose();
    full.dispose();
  }
  assert.throws(() => tokenizers.tokenizerFromVocabulary({}), {
    name: 'TypeError',
    message: /^files must have tiktoken/,
  });
});

test("trainTokenizer trains the same merges; each module loads the other one's file", async () => {
  const corpus = TEXTS.join('\n').repeat(20);
  const options = { vocabSize: 400, pattern: 'cl100k', specialTokens: ['<|end|>'] };
  const ours = await entry.trainTokenizer(corpus, options);
  const full = await lab.trainTokenizer(corpus, options);
  assert.deepEqual(ours.merges, full.merges);
  assert.ok(ours.merges.length > 100);
  for (const binary of [false, true]) {
    const fromOurs = await lab.loadTokenizer(ours.save({ binary }));
    const fromFull = await entry.loadTokenizer(full.save({ binary }));
    for (const text of TEXTS) {
      const ids = full.encode(text);
      assert.deepEqual(ours.encode(text), ids);
      assert.deepEqual(fromOurs.encode(text), ids);
      assert.deepEqual(fromFull.encode(text), ids);
    }
    fromOurs.dispose();
    fromFull.dispose();
  }
  ours.dispose();
  full.dispose();
});

test('createTokenizers({wasm, simd}) as createEmbedLab takes them', async () => {
  const dist = new URL('../../dist/', import.meta.url);
  const fallbackBytes = readFileSync(new URL('embedlab-tokenizer-fallback.wasm', dist));
  const fallback = await createTokenizers({ wasm: await WebAssembly.compile(fallbackBytes) });
  assert.equal(fallback.flavour, 'fallback');
  assert.equal(fallback.simdTarget, 'EMU128');
  const tokenizer = await fallback.getTokenizer('cl100k_base');
  assert.deepEqual(Array.from(tokenizer.encode('hello world')), [15339, 1917]);
  const simd = await createTokenizers({ wasm: new URL('embedlab-tokenizer-simd.wasm', dist), simd: true });
  assert.equal(simd.flavour, 'simd');
  await assert.rejects(createTokenizers({ wasm: fallbackBytes, simd: true }), {
    message: /^options\.simd is true but options\.wasm is the fallback module \(embedlab-tokenizer-fallback\.wasm\)$/,
  });
  // The full package's module is not the tokenizer module's (nor the other way round).
  await assert.rejects(createTokenizers({ wasm: new URL('embedlab-simd.wasm', dist) }), {
    message:
      /^options\.wasm is embedlab-simd\.wasm, the module of another entry: pass embedlab-tokenizer-simd\.wasm or embedlab-tokenizer-fallback\.wasm$/,
  });
  await assert.rejects(createEmbedLab({ wasm: new URL('embedlab-tokenizer-simd.wasm', dist) }), {
    message: /^options\.wasm is embedlab-tokenizer-simd\.wasm, the module of another entry: pass embedlab-simd\.wasm/,
  });
  await assert.rejects(createTokenizers({ wasm: 42 }), { name: 'TypeError', message: /^options\.wasm must be/ });
  await assert.rejects(createTokenizers({ simd: 'yes' }), { name: 'TypeError', message: /^options\.simd must be/ });
});

test('embedlab/tokenizer adds no process-wide listeners', async () => {
  const { execFileSync } = await import('node:child_process');
  const url = new URL('../../dist/tokenizer.js', import.meta.url).href;
  const out = execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { getTokenizer } = await import(${JSON.stringify(url)});
       const ids = (await getTokenizer('cl100k_base')).encode('hello world');
       console.log(ids.join(' '), process.listenerCount('uncaughtException'), process.listenerCount('unhandledRejection'));`,
    ],
    { encoding: 'utf8' },
  );
  assert.equal(out.trim(), '15339 1917 0 0');
});
