// Streaming tokenization against encoding the whole text at once (itself checked against tiktoken elsewhere), and
// the cut rules against the definition: encode(prefix) + encode(suffix) = encode(text) at every allowed cut.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { isWithinTokenLimit as gptIsWithinTokenLimit } from 'gpt-tokenizer/encoding/cl100k_base';

import createEmbedLab from '../../dist/index.js';
import { SafeCuts } from '../../dist/tokenizer/safe_cut.js';
import { DELICATE_PIECES } from './delicate_pieces.mjs';

const lab = await createEmbedLab();
const ENCODINGS = ['gpt2', 'p50k_base', 'cl100k_base', 'o200k_base'];
const tokenizers = Object.fromEntries(await Promise.all(ENCODINGS.map(async (e) => [e, await lab.getTokenizer(e)])));
const encoder = new TextEncoder();
const ALL = { allowedSpecial: 'all' };

function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function trickyText(count, seed) {
  const next = random(seed);
  let text = '';
  for (let i = 0; i < count; i++) {
    text += DELICATE_PIECES[Math.floor(next() * DELICATE_PIECES.length)];
  }
  return text;
}

// Bytes of `data` in chunks of random sizes from 1 to `max` (so cuts fall inside characters, CRLF, numbers and
// special tokens), as an async generator.
async function* randomChunks(data, max, seed) {
  const next = random(seed);
  for (let i = 0; i < data.length;) {
    const size = 1 + Math.floor(next() * max);
    yield data.slice(i, i + size);
    i += size;
  }
}

async function streamedIds(tokenizer, source, options) {
  const ids = [];
  for await (const chunk of tokenizer.encodeStream(source, options)) {
    assert.ok(chunk instanceof Uint32Array);
    ids.push(...chunk);
  }
  return ids;
}

test('every allowed cut gives the ids of the whole text, in all four encodings, on bytes and strings', () => {
  for (const [seed, count] of [
    [1, 400],
    [2, 400],
    [3, 300],
  ]) {
    const text = trickyText(count, seed);
    const bytes = encoder.encode(text);
    const byteCuts = new SafeCuts(bytes, []);
    const stringCuts = new SafeCuts(text, []);
    const allowedBytes = [];
    for (let c = 1; c < bytes.length; c++) {
      if (byteCuts.allows(c)) {
        allowedBytes.push(c);
      }
    }
    assert.ok(allowedBytes.length > count / 4, `only ${allowedBytes.length} cuts in ${bytes.length} bytes`);
    const allowedStrings = [];
    for (let c = 1; c < text.length; c++) {
      if (stringCuts.allows(c)) {
        allowedStrings.push(encoder.encode(text.slice(0, c)).length);
      }
    }
    // The two forms agree on where text can be cut (the string form sees the same characters).
    assert.deepEqual(allowedStrings, allowedBytes);
    for (const encoding of ENCODINGS) {
      const tokenizer = tokenizers[encoding];
      const whole = Array.from(tokenizer.encodeOrdinary(bytes));
      for (const c of allowedBytes) {
        const parts = [
          ...tokenizer.encodeOrdinary(bytes.subarray(0, c)),
          ...tokenizer.encodeOrdinary(bytes.subarray(c)),
        ];
        assert.deepEqual(parts, whole, `${encoding}: cut at byte ${c} of ${JSON.stringify(text)}`);
      }
    }
  }
});

test('cuts never fall inside a special token, nor where one could still be completed', () => {
  const specials = ['<|endoftext|>', '<|fim_prefix|>'].map((s) => encoder.encode(s));
  const text = encoder.encode('word <|endoftext|> more <|fim_prefix|>x y');
  const cuts = new SafeCuts(text, specials);
  for (let c = 1; c < text.length; c++) {
    const inside = [5, 24].some((start) => c > start && c < start + (start === 5 ? 13 : 14));
    if (inside) {
      assert.equal(cuts.allows(c), false, `cut at ${c}`);
    }
  }
  // "t|" in "<|endoftext|>" is a letter before ASCII punctuation (rule A), but inside a special token.
  assert.ok(cuts.allows(4) && !cuts.allows(16) && new SafeCuts(text, []).allows(16));
  // With more data to come, no cut within the longest special token (14 bytes) of the end.
  assert.ok(cuts.last(1, text.length, false) <= text.length - 13);
});

test('encodeStream and countStream equal encode and count of the whole text, whatever the chunks', async () => {
  for (const encoding of ENCODINGS) {
    const tokenizer = tokenizers[encoding];
    for (let seed = 1; seed <= 12; seed++) {
      const text = trickyText(60 + seed * 25, seed);
      const bytes = encoder.encode(text);
      // Invalid UTF-8 in a bytes source: its bytes go through as the core's own characters.
      const withInvalid = new Uint8Array([...bytes.subarray(0, 40), 0xff, 0xe6, 0x97, ...bytes.subarray(40)]);
      const what = `${encoding}, seed ${seed}`;
      for (const [max, chunkSize] of [
        [1, 1],
        [3, 8],
        [17, 64],
        [200, 1 << 20],
      ]) {
        const options = { ...ALL, chunkSize };
        assert.deepEqual(
          await streamedIds(tokenizer, randomChunks(bytes, max, seed), options),
          Array.from(tokenizer.encode(text, ALL)),
          `${what}, bytes in chunks of 1..${max}, chunkSize ${chunkSize}`,
        );
        assert.deepEqual(
          await streamedIds(tokenizer, randomChunks(text, max, seed), options),
          Array.from(tokenizer.encode(text, ALL)),
          `${what}, string chunks of 1..${max}`,
        );
        assert.deepEqual(
          await streamedIds(tokenizer, randomChunks(withInvalid, max, seed), options),
          Array.from(tokenizer.encode(withInvalid, ALL)),
          `${what}, invalid UTF-8, chunks of 1..${max}`,
        );
        const ordinary = { allowedSpecial: [], disallowedSpecial: [], chunkSize };
        assert.equal(
          await tokenizer.countStream(randomChunks(bytes, max, seed + 1), ordinary),
          tokenizer.encodeOrdinary(text).length,
          `${what}, countStream with special tokens as text`,
        );
      }
    }
  }
});

test('a text without any cut is held whole up to maxBufferBytes, then refused with the reason', async () => {
  const tokenizer = tokenizers.cl100k_base;
  const run = 'x'.repeat(20000);
  const options = { chunkSize: 1024, maxBufferBytes: 1 << 20 };
  assert.deepEqual(await streamedIds(tokenizer, randomChunks(run, 999, 4), options), Array.from(tokenizer.encode(run)));
  await assert.rejects(
    tokenizer.countStream(randomChunks(run, 999, 4), { chunkSize: 1024, maxBufferBytes: 4096 }),
    /options\.maxBufferBytes: found no place to cut the text within \d+ bytes, more than 4096/,
  );
});

test('a disallowed special token split across chunks is found, named at its byte in the whole stream', async () => {
  const tokenizer = tokenizers.o200k_base;
  const text = `${'Some words here. '.repeat(300)}<|endoftext|> and more`;
  let expected;
  try {
    tokenizer.encode(text);
  } catch (error) {
    expected = error.message;
  }
  assert.match(expected, /disallowed special token <\|endoftext\|> at byte 5100/);
  for (const max of [1, 5, 4096]) {
    await assert.rejects(tokenizer.countStream(randomChunks(text, max, 9), { chunkSize: 64 }), { message: expected });
  }
});

test('ReadableStream sources, with and without async iteration; leaving early cancels the stream', async () => {
  const tokenizer = tokenizers.cl100k_base;
  const text = trickyText(500, 11);
  const bytes = encoder.encode(text);
  const stream = () =>
    new ReadableStream({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 7) {
          controller.enqueue(bytes.slice(i, i + 7)); // cuts inside characters too
        }
        controller.close();
      },
    });
  const whole = Array.from(tokenizer.encode(text, ALL));
  assert.deepEqual(await streamedIds(tokenizer, stream(), { ...ALL, chunkSize: 16 }), whole);
  // A browser's ReadableStream may lack Symbol.asyncIterator: only getReader() is used then.
  const readerOnly = (inner) => ({ getReader: () => inner.getReader() });
  assert.deepEqual(await streamedIds(tokenizer, readerOnly(stream()), { ...ALL, chunkSize: 16 }), whole);
  let cancelled = false;
  const endless = new ReadableStream({
    pull: (controller) => controller.enqueue('word '.repeat(100)),
    cancel: () => {
      cancelled = true;
    },
  });
  for await (const ids of tokenizer.encodeStream(readerOnly(endless), { chunkSize: 256 })) {
    assert.ok(ids.length > 0);
    break;
  }
  assert.ok(cancelled, 'the stream was not cancelled');
  assert.equal(await tokenizer.countStream(['Hello', ' world'], {}), tokenizer.count('Hello world'));
});

test('decodeStream yields whole characters as ids arrive, and their concatenation is decode()', async () => {
  for (const encoding of ['cl100k_base', 'o200k_base']) {
    const tokenizer = tokenizers[encoding];
    const text = trickyText(300, 5).replaceAll('<|', '<');
    const ids = Array.from(tokenizer.encode(text));
    async function* oneByOne() {
      yield* ids;
    }
    const pieces = [];
    for await (const piece of tokenizer.decodeStream(oneByOne())) {
      assert.ok(piece.length > 0 && !piece.includes('\ufffd'), `${encoding}: ${JSON.stringify(piece)}`);
      pieces.push(piece);
    }
    assert.equal(pieces.join(''), text);
    assert.ok(pieces.length < ids.length, 'some tokens end inside a character');
    const arrays = [ids.slice(0, 10), new Uint32Array(ids.slice(10, 31)), ids.slice(31)];
    let joined = '';
    for await (const piece of tokenizer.decodeStream(arrays)) {
      joined += piece;
    }
    assert.equal(joined, text);
  }
  // Bytes that never complete a character come out at the end as U+FFFD, as decode() gives them.
  const tokenizer = tokenizers.cl100k_base;
  const partial = tokenizer.encode('日').slice(0, 1);
  let rest = '';
  for await (const piece of tokenizer.decodeStream([partial])) {
    rest += piece;
  }
  assert.equal(rest, tokenizer.decode(partial));
});

test("isWithinTokenLimit: gpt-tokenizer's results, and it stops early", () => {
  const tokenizer = tokenizers.cl100k_base;
  const texts = ['', 'Hello, world!', trickyText(200, 8).replaceAll('<|', '<'), 'word '.repeat(5000)];
  for (const text of texts) {
    const count = tokenizer.count(text);
    for (const limit of [0, 1, count - 1, count, count + 1, 10 * count + 100].filter((l) => l >= 0)) {
      assert.equal(tokenizer.isWithinTokenLimit(text, limit), gptIsWithinTokenLimit(text, limit), `limit ${limit}`);
    }
  }
  const large = 'The quick brown fox jumps over the lazy dog. '.repeat(200000); // 9 MB
  let encodedBytes = 0;
  tokenizer.count = (part, options) => {
    encodedBytes += part.length;
    return Object.getPrototypeOf(tokenizer).count.call(tokenizer, part, options);
  };
  try {
    assert.equal(tokenizer.isWithinTokenLimit(large, 100), false);
  } finally {
    delete tokenizer.count;
  }
  assert.ok(encodedBytes < 20000, `encoded ${encodedBytes} code units to find the limit passed`);
  assert.equal(tokenizer.isWithinTokenLimit(new Uint8Array(encoder.encode('Hello, world!')), 4), 4);
  assert.throws(() => tokenizer.isWithinTokenLimit(large + '<|endoftext|>', 10), /disallowed special token/);
  assert.equal(tokenizer.isWithinTokenLimit('a<|endoftext|>', 2, ALL), 2);
});

test('bad sources, items and options are refused, naming the argument', async () => {
  const tokenizer = tokenizers.cl100k_base;
  assert.throws(
    () => tokenizer.encodeStream('some text'),
    /source must be an async iterable, an iterable or a ReadableStream of strings or Uint8Arrays, got the string "some text" \(for one string, call encode/,
  );
  assert.throws(() => tokenizer.encodeStream(42), /source must be .* got 42/);
  await assert.rejects(tokenizer.countStream(null), /source must be .* got null/);
  await assert.rejects(tokenizer.countStream(['ok', 7]), /source item 1 must be a string or a Uint8Array, got 7/);
  assert.throws(
    () => tokenizer.encodeStream([], { chunksize: 5 }),
    /options has no option "chunksize" \(did you mean "chunkSize"\?\)/,
  );
  assert.throws(
    () => tokenizer.encodeStream([], { chunkSize: 0 }),
    /options\.chunkSize must be an integer in \[1, 1073741824\], got 0/,
  );
  assert.throws(
    () => tokenizer.encodeStream([], { chunkSize: 64, maxBufferBytes: 8 }),
    /options\.maxBufferBytes must be an integer in \[64, /,
  );
  assert.throws(() => tokenizer.encodeStream([], { allowedSpecial: 7 }), /allowedSpecial must be 'all' or an array/);
  assert.throws(
    () => tokenizer.decodeStream('1 2 3'),
    /idsSource must be an async iterable, an iterable or a ReadableStream of token ids/,
  );
  await assert.rejects(
    (async () => {
      for await (const piece of tokenizer.decodeStream([[1, 2], 'x'])) {
        assert.ok(piece);
      }
    })(),
    /idsSource item 1 must be a token id or an array\/typed array of ids, got the string "x"/,
  );
  assert.throws(
    () => tokenizer.isWithinTokenLimit('x', -1),
    /limit must be an integer in \[0, 9007199254740991\], got -1/,
  );
  assert.throws(() => tokenizer.isWithinTokenLimit(['x'], 5), /text must be a string or a Uint8Array, got an array/);
});
