// The Hugging Face tokenizer's API around the core: save() -> loadTokenizer() round trips (both package entries),
// hand-made tokenizer.json files with an unsupported part refused with an Error naming it (the instance usable
// after), argument errors naming the argument, streams equal to encoding the whole text, and the streaming decoder.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import createEmbedLab, { HfTokenizer, Tokenizer } from '../../dist/index.js';
import { createTokenizers, loadTokenizer } from '../../dist/tokenizer.js';
import { Tokenizer as ReferenceTokenizer } from '@huggingface/tokenizers';
import { addedTokenTexts, HF_MODELS, readModelFiles, SAMPLE_TEXTS } from './hf_support.mjs';

const lab = await createEmbedLab();
const texts = [...Object.values(SAMPLE_TEXTS), Object.values(SAMPLE_TEXTS).join(' ')];

// A byte-level BPE file small enough to write by hand: "ab ab" -> [2, 4].
function tinyTokenizerJson() {
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [
      { id: 5, content: '<s>', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true },
    ],
    normalizer: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
    post_processor: null,
    decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: null,
      end_of_word_suffix: null,
      fuse_unk: false,
      byte_fallback: false,
      vocab: { a: 0, b: 1, ab: 2, Ġ: 3, Ġab: 4 },
      merges: ['a b', 'Ġ ab'],
    },
  };
}

test('a hand-made tokenizer.json encodes as Tokenizers.js does, in each of the accepted forms', async () => {
  const json = tinyTokenizerJson();
  const reference = new ReferenceTokenizer(json, {});
  const text = 'ab ab<s>ab';
  const expected = Uint32Array.from(reference.encode(text).ids);
  const serialized = JSON.stringify(json);
  const bytes = new TextEncoder().encode(serialized);
  for (const form of [json, serialized, bytes, bytes.buffer]) {
    const tokenizer = await lab.tokenizerFromHuggingFace(form);
    assert.ok(tokenizer instanceof HfTokenizer && tokenizer instanceof Tokenizer);
    assert.deepEqual(tokenizer.encode(text), expected);
    assert.equal(tokenizer.name, 'tokenizer.json');
    assert.equal(tokenizer.vocabSize, 6);
    assert.deepEqual(tokenizer.specialTokens, [{ text: '<s>', id: 5 }]);
    assert.deepEqual(tokenizer.addedTokens, [{ text: '<s>', id: 5, special: true }]);
    assert.equal(tokenizer.tokenString(4), 'Ġab');
    tokenizer.dispose();
  }
});

const UNKNOWN_REGEX = '(?<=q)(\\w)\\1+';

test('unsupported parts are refused with an Error naming them, and the instance stays usable', async () => {
  const cases = [
    ['another model type', (json) => Object.assign(json.model, { type: 'WordPiece' }), /WordPiece/],
    ['an unknown normalizer', (json) => (json.normalizer = { type: 'FancyNormalizer' }), /FancyNormalizer/],
    ['an unknown pre-tokenizer', (json) => (json.pre_tokenizer = { type: 'FancySplit' }), /FancySplit/],
    ['an unknown decoder', (json) => (json.decoder = { type: 'FancyDecoder' }), /FancyDecoder/],
    [
      'a regex without a scanner',
      (json) =>
        (json.pre_tokenizer = {
          type: 'Split',
          pattern: { Regex: UNKNOWN_REGEX },
          behavior: 'Isolated',
          invert: false,
        }),
      // quoted as it is, or as a JSON string
      { test: (message) => message.includes(UNKNOWN_REGEX) || message.includes(JSON.stringify(UNKNOWN_REGEX)) },
    ],
    ['a merge of unknown tokens', (json) => json.model.merges.push('x y'), /merges/],
  ];
  for (const [what, change, message] of cases) {
    const json = tinyTokenizerJson();
    change(json);
    await assert.rejects(
      lab.tokenizerFromHuggingFace(json),
      (error) => error instanceof Error && message.test(error.message),
      what,
    );
    const tokenizer = await lab.tokenizerFromHuggingFace(tinyTokenizerJson());
    assert.deepEqual(tokenizer.encode('ab ab'), Uint32Array.from([2, 4]), `usable after ${what}`);
    tokenizer.dispose();
  }
  await assert.rejects(lab.tokenizerFromHuggingFace('{"model": '), Error, 'JSON cut short');
});

test('bad arguments name the argument and what it takes', async () => {
  const tokenizer = await lab.tokenizerFromHuggingFace(tinyTokenizerJson());
  const refusals = [
    [() => lab.tokenizerFromHuggingFace(42), TypeError, /^json must be/],
    [() => lab.tokenizerFromHuggingFace(null), TypeError, /^json must be/],
    [() => lab.tokenizerFromHuggingFace('path/to/tokenizer.json'), TypeError, /json looks like a file path/],
    [() => lab.tokenizerFromHuggingFace(tinyTokenizerJson(), { config: 5 }), TypeError, /options\.config must be/],
    [() => lab.tokenizerFromHuggingFace(tinyTokenizerJson(), { name: 5 }), TypeError, /options\.name must be/],
    [() => lab.tokenizerFromHuggingFace(tinyTokenizerJson(), { nmae: 'x' }), TypeError, /nmae/],
  ];
  for (const [call, type, message] of refusals) {
    await assert.rejects(call(), (error) => error instanceof type && message.test(error.message), String(call));
  }
  const cases = [
    [
      () => tokenizer.encode('ab', { allowedSpecial: 'all' }),
      TypeError,
      /options\.allowedSpecial is an option of tiktoken/,
    ],
    [
      () => tokenizer.count('ab', { disallowedSpecial: [] }),
      TypeError,
      /options\.disallowedSpecial is an option of tiktoken/,
    ],
    [() => tokenizer.encode('ab', 'all'), TypeError, /allowedSpecial as a second argument/],
    [() => tokenizer.encode('ab', {}, 'all'), TypeError, /^disallowedSpecial is an argument of tiktoken/],
    [() => tokenizer.encode('ab', { addSpecialToken: true }), TypeError, /addSpecialToken/],
    [
      () => tokenizer.encode('ab', { addSpecialTokens: 1 }),
      TypeError,
      /options\.addSpecialTokens must be true or false/,
    ],
    [() => tokenizer.tokens('ab', { splitSpecialTokens: 'no' }), TypeError, /options\.splitSpecialTokens/],
    [() => tokenizer.encode(42), TypeError, /^text must be a string or a Uint8Array/],
    [() => tokenizer.decode([0], { skipSpecialTokens: 1 }), TypeError, /options\.skipSpecialTokens/],
    [
      () => tokenizer.decode([0], { cleanUpTokenizationSpaces: 'yes' }),
      TypeError,
      /options\.cleanUpTokenizationSpaces/,
    ],
    [() => tokenizer.decode([0], { cleanup: true }), TypeError, /cleanup/],
    [() => tokenizer.decode([0, 6]), RangeError, /6/],
    [() => tokenizer.decode([-1]), RangeError, /ids\[0\]/],
    [() => tokenizer.tokenString(6), RangeError, /^id must be an integer in \[0, 5\]/],
    [() => tokenizer.tokenBytes(-1), RangeError, /^id must be an integer in \[0, 5\]/],
    [() => tokenizer.save({ binary: false }), TypeError, /options\.binary must be true/],
    [() => tokenizer.isWithinTokenLimit('ab', -1), RangeError, /^limit must be/],
    [() => tokenizer.decoder({ skipSpecialTokens: 0 }), TypeError, /options\.skipSpecialTokens/],
  ];
  for (const [call, type, message] of cases) {
    assert.throws(call, (error) => error instanceof type && message.test(error.message), String(call));
    assert.deepEqual(tokenizer.encode('ab ab'), Uint32Array.from([2, 4]), `usable after ${call}`);
  }
  tokenizer.dispose();
  assert.throws(() => tokenizer.encode('ab'), /has been disposed/);
});

test('encodes and create/dispose cycles leave the wasm heap where it was', async () => {
  const tokenizer = await lab.tokenizerFromHuggingFace(tinyTokenizerJson());
  // Its memory is the Hugging Face module's (tokenizer.lab, internal), not the lab's own module's.
  const hfModule = tokenizer.lab;
  assert.notEqual(hfModule, lab);
  const text = 'ab ab<s>ab '.repeat(20);
  tokenizer.tokens(text);
  tokenizer.decode(tokenizer.encode(text));
  const before = hfModule.memory().allocatedBytes;
  for (let i = 0; i < 20_000; i++) {
    tokenizer.encode(text);
  }
  for (let i = 0; i < 1000; i++) {
    const other = await lab.tokenizerFromHuggingFace(tinyTokenizerJson());
    other.decode(other.encode(text));
    other.dispose();
  }
  const grown = hfModule.memory().allocatedBytes - before;
  assert.ok(grown < 1 << 20, `the heap grew by ${grown} bytes`);
  tokenizer.dispose();
});

for (const model of HF_MODELS) {
  test(`${model}: save() -> tokenizerFromHuggingFace() gives the same tokenizer, in both entries`, async () => {
    const { jsonText, configText, json } = readModelFiles(model);
    const tokenizer = await lab.tokenizerFromHuggingFace(jsonText, { name: model, config: configText });
    const saved = tokenizer.save();
    const loaded = await lab.tokenizerFromHuggingFace(saved);
    const tokenizers = await createTokenizers();
    const alone = await tokenizers.tokenizerFromHuggingFace(saved.buffer.slice(0));
    const shared = await loadTokenizer(saved); // embedlab/tokenizer's async loadTokenizer takes it too
    try {
      assert.ok(loaded instanceof HfTokenizer);
      // The lab's loadTokenizer is synchronous: it cannot start the Hugging Face module, and says where to go.
      assert.throws(() => lab.loadTokenizer(saved), { name: 'TypeError', message: /tokenizerFromHuggingFace/ });
      await assert.rejects(
        lab.tokenizerFromHuggingFace(saved, { config: configText }),
        /options\.name and options\.config/,
      );
      for (const other of [loaded, alone, shared]) {
        assert.equal(other.name, model);
        assert.equal(other.vocabSize, tokenizer.vocabSize);
        assert.deepEqual(other.addedTokens, tokenizer.addedTokens);
        assert.deepEqual(other.specialTokens, tokenizer.specialTokens);
        for (const text of [...texts, ...addedTokenTexts(json)]) {
          const ids = tokenizer.encode(text);
          assert.deepEqual(other.encode(text), ids, text);
          assert.deepEqual(
            other.tokens(text, { addSpecialTokens: false }),
            tokenizer.tokens(text, { addSpecialTokens: false }),
          );
          assert.equal(other.decode(ids), tokenizer.decode(ids));
        }
      }
    } finally {
      tokenizer.dispose();
      loaded.dispose();
      alone.dispose();
      shared.dispose();
    }
  });
}

// The binary form is a function of the tokenizer: saving what was loaded gives the same bytes (so a saved file can be
// checked against a hash, and a rebuild does not change it).
test('save() of a loaded tokenizer gives the bytes it was loaded from, for every file', async () => {
  for (const model of HF_MODELS) {
    const { jsonText, configText } = readModelFiles(model);
    const tokenizer = await lab.tokenizerFromHuggingFace(jsonText, { config: configText });
    const saved = tokenizer.save();
    tokenizer.dispose();
    const loaded = await lab.tokenizerFromHuggingFace(saved);
    const again = loaded.save();
    loaded.dispose();
    const at = again.findIndex((byte, i) => byte !== saved[i]);
    assert.ok(
      again.length === saved.length && at < 0,
      `${model}: ${saved.length} bytes, then ${again.length}; first difference at ${at}`,
    );
  }
});

async function* chunksOf(text, size) {
  for (let i = 0; i < text.length; i += size) {
    yield text.slice(i, i + size);
  }
}

async function collect(stream) {
  const parts = [];
  for await (const part of stream) {
    parts.push(part);
  }
  return parts;
}

for (const model of ['llama3_1', 'llama2']) {
  test(`${model}: streams give what the whole text gives; the streaming decoder what decode() does`, async () => {
    const { jsonText, configText } = readModelFiles(model);
    const tokenizer = await lab.tokenizerFromHuggingFace(jsonText, { config: configText });
    try {
      const text = texts.at(-1).repeat(3);
      const ids = tokenizer.encode(text);
      const streamed = await collect(tokenizer.encodeStream(chunksOf(text, 7), { chunkSize: 64 }));
      assert.deepEqual(Uint32Array.from(streamed.flatMap((part) => Array.from(part))), ids);
      assert.equal(await tokenizer.countStream(chunksOf(text, 5)), ids.length);
      const plain = { addSpecialTokens: false };
      assert.equal(await tokenizer.countStream(chunksOf(text, 5), plain), tokenizer.count(text, plain));
      // Cut where the core proves the ids are kept (hf_stream.test.mjs tests that at length), so a small buffer
      // does; a run with no such cut longer than maxBufferBytes does not.
      const small = await collect(tokenizer.encodeStream(chunksOf(text, 100), { chunkSize: 16, maxBufferBytes: 128 }));
      assert.deepEqual(Uint32Array.from(small.flatMap((part) => Array.from(part))), ids);
      await assert.rejects(
        collect(tokenizer.encodeStream(chunksOf('x'.repeat(300), 100), { chunkSize: 16, maxBufferBytes: 64 })),
        /options\.maxBufferBytes: found no place to cut the text within \d+ bytes, more than 64/,
      );
      assert.equal(tokenizer.isWithinTokenLimit(text, ids.length), ids.length);
      assert.equal(tokenizer.isWithinTokenLimit(text, ids.length - 1), false);
      const whole = tokenizer.decode(ids, { cleanUpTokenizationSpaces: false });
      const decoder = tokenizer.decoder();
      let decoded = '';
      for (const id of ids) {
        decoded += decoder.write([id]);
      }
      assert.equal(decoded + decoder.end(), whole);
      const pieces = await collect(tokenizer.decodeStream(chunksOf(Array.from(ids), 3)));
      assert.equal(pieces.join(''), whole);
    } finally {
      tokenizer.dispose();
    }
  });
}
