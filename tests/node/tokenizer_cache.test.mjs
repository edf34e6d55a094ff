// The tokenizer's piece cache, kept between calls: ids and spans from a warm cache equal tiktoken's (the
// reference), the cache stays within 65,536 pieces and 4 MiB however many new pieces come, and clearCache()
// and disposing the last handle free it.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';

import { get_encoding } from 'tiktoken';

import createEmbedLab from '../../dist/index.js';
import { englishCorpus, multilingualCorpus } from '../reference/tokenizer_corpora.mjs';

const MAX_PIECES = 65536;
const MAX_BYTES = 4 * 1024 * 1024;

let lab;
before(async () => {
  lab = await createEmbedLab();
});

test('ids and spans from a warm cache equal tiktoken, for every encoding', async () => {
  const texts = [...englishCorpus({ bytes: 0 }).slice(0, 3), ...multilingualCorpus({ bytes: 60000 })];
  for (const name of ['r50k_base', 'cl100k_base', 'o200k_base']) {
    const tokenizer = await lab.getTokenizer(name);
    const reference = get_encoding(name);
    try {
      tokenizer.clearCache();
      for (let pass = 0; pass < 2; pass++) {
        for (const text of texts) {
          const expected = reference.encode(text);
          assert.deepEqual(tokenizer.encode(text), expected, `${name} pass ${pass}`);
          assert.equal(tokenizer.count(text), expected.length);
        }
      }
      assert.ok(tokenizer.cacheSize.pieces > 1000, `${name}: ${tokenizer.cacheSize.pieces} pieces cached`);
      // Spans of cache hits come from the tokens' lengths: each token's bytes are the input's bytes at its span.
      const text = texts.at(-1);
      const input = new TextEncoder().encode(text);
      for (const token of tokenizer.tokens(text)) {
        assert.deepEqual(token.bytes, input.subarray(token.start, token.end));
        assert.deepEqual(token.bytes, tokenizer.tokenBytes(token.id));
      }
    } finally {
      tokenizer.dispose();
      reference.free();
    }
  }
});

test('the cache stays within its bounds, and clearCache() frees it', async () => {
  const tokenizer = await lab.getTokenizer('cl100k_base');
  try {
    tokenizer.clearCache();
    assert.deepEqual(tokenizer.cacheSize, { pieces: 0, bytes: 0 });
    // 200,000 new words of random letters, most of them several tokens: three times the piece bound.
    let state = 7; // xorshift32: the same words on every run
    const next = () => {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      return state >>> 0;
    };
    let most = { pieces: 0, bytes: 0 };
    let startedOver = false;
    for (let batch = 0; batch < 20; batch++) {
      const words = Array.from({ length: 10000 }, () =>
        Array.from({ length: 6 + (next() % 10) }, () => String.fromCharCode(97 + (next() % 26))).join(''),
      );
      tokenizer.encode(words.join(' '));
      const size = tokenizer.cacheSize;
      startedOver ||= size.pieces < most.pieces;
      most = { pieces: Math.max(most.pieces, size.pieces), bytes: Math.max(most.bytes, size.bytes) };
      assert.ok(size.pieces <= MAX_PIECES && size.bytes <= MAX_BYTES, JSON.stringify(size));
    }
    assert.ok(startedOver, `the cache never filled up: at most ${JSON.stringify(most)}`);
    tokenizer.clearCache();
    assert.deepEqual(tokenizer.cacheSize, { pieces: 0, bytes: 0 });
  } finally {
    tokenizer.dispose();
  }
});

test('handles on one tokenizer share its cache; disposing the last one frees it', async () => {
  const first = await lab.getTokenizer('o200k_base');
  const second = await lab.getTokenizer('o200k_base');
  first.clearCache();
  second.encode('Tokenizers cache the pieces they have already split: antidisestablishmentarianism.');
  assert.ok(first.cacheSize.pieces > 0);
  assert.deepEqual(first.cacheSize, second.cacheSize);
  first.dispose();
  assert.ok(second.cacheSize.pieces > 0);
  second.dispose();
  assert.throws(() => second.cacheSize, /has been disposed/);
  const fresh = await lab.getTokenizer('o200k_base'); // a new tokenizer: the old one and its cache are gone
  assert.deepEqual(fresh.cacheSize, { pieces: 0, bytes: 0 });
  fresh.dispose();
});
