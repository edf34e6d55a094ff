// Hugging Face streams in parts: encodeStream/countStream/isWithinTokenLimit cut the text where the core proves the
// ids are kept (HfTokenizer::SafeCut, src/hf/hf_safe_cut.cc), so memory is bounded by the chunk plus the text since
// the last cut. For all six files, over many chunkings (1 byte, random sizes, inside multi-byte characters, inside
// added tokens), the streamed ids equal encode() of the whole text (itself checked against Tokenizers.js in
// hf_tokenizers.test.mjs); each cut the core gives holds for the text that really follows it; adversarial texts
// with no cut for a long way are held whole up to maxBufferBytes and then refused.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import createEmbedLab from '../../dist/index.js';
import { CUT_PART } from '../../dist/tokenizer/safe_cut.js';
import {
  HF_MODELS,
  SAMPLE_TEXTS,
  addedTokenTexts,
  brownExcerpt,
  firstDifference,
  randomStrings,
  readModelFiles,
  seededRandom,
} from './hf_support.mjs';

const encoder = new TextEncoder();
let lab;
const tokenizers = new Map();
const corpora = new Map();

before(async () => {
  lab = await createEmbedLab();
  for (const model of HF_MODELS) {
    const { jsonText, configText, json } = readModelFiles(model);
    tokenizers.set(model, await lab.tokenizerFromHuggingFace(jsonText, { name: model, config: configText }));
    const tokens = json.added_tokens.map((t) => t.content);
    corpora.set(model, {
      // The corpus the hf tests use, the sample texts, added tokens inside text, random strings with added tokens.
      long: [brownExcerpt(120_000), ...Object.values(SAMPLE_TEXTS), ...addedTokenTexts(json)].join('\n'),
      short: [...Object.values(SAMPLE_TEXTS), ...addedTokenTexts(json), ...randomStrings(40, 7, tokens)].join(' '),
      tokens,
    });
  }
});

after(() => {
  for (const tokenizer of tokenizers.values()) {
    tokenizer.dispose();
  }
});

function concat(parts) {
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const out = new Uint32Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

async function streamed(tokenizer, items, options) {
  const parts = [];
  for await (const ids of tokenizer.encodeStream(items, options)) {
    parts.push(ids);
  }
  return { ids: concat(parts), parts: parts.length };
}

function assertSameIds(actual, expected, what) {
  assert.ok(
    actual.length === expected.length && actual.every((id, i) => id === expected[i]),
    `${what}: ${firstDifference(actual, expected)}`,
  );
}

// The bytes in items of the given sizes (cycled), so items end inside multi-byte characters and added tokens.
function byteItems(bytes, sizes) {
  const items = [];
  for (let at = 0, k = 0; at < bytes.length; k++) {
    const size = sizes[k % sizes.length];
    items.push(bytes.subarray(at, at + size));
    at += size;
  }
  return items;
}

function randomSizes(seed, count, max) {
  const next = seededRandom(seed);
  return Array.from({ length: count }, () => 1 + Math.floor(next() * max));
}

for (const model of HF_MODELS) {
  test(`${model}: streams of the corpus in parts equal the whole text, with and without the template`, async () => {
    const tokenizer = tokenizers.get(model);
    const text = corpora.get(model).long;
    const bytes = encoder.encode(text);
    for (const options of [{}, { addSpecialTokens: false }, { splitSpecialTokens: true }]) {
      const whole = tokenizer.encode(text, options);
      for (const [chunkSize, sizes] of [
        [4096, randomSizes(1, 64, 3000)],
        [65536, [8191]],
        [100, randomSizes(2, 64, 200)],
      ]) {
        const { ids, parts } = await streamed(tokenizer, byteItems(bytes, sizes), { ...options, chunkSize });
        assertSameIds(ids, whole, `chunkSize ${chunkSize} ${JSON.stringify(options)}`);
        // Memory is bounded: the text is encoded in many parts, not held whole.
        const largestItem = Math.max(...sizes);
        assert.ok(
          parts >= Math.floor(bytes.length / (2 * (chunkSize + largestItem))),
          `${parts} parts of ${bytes.length} bytes`,
        );
      }
      assert.equal(
        await tokenizer.countStream(byteItems(bytes, [5000]), { ...options, chunkSize: 1000 }),
        whole.length,
      );
      assert.equal(tokenizer.isWithinTokenLimit(text, whole.length, options), whole.length);
      assert.equal(tokenizer.isWithinTokenLimit(bytes, whole.length - 1, options), false);
      assert.equal(tokenizer.isWithinTokenLimit(text, 10, options), false);
    }
  });

  test(`${model}: 1-byte items, strings split in surrogate pairs, items cut inside added tokens`, async () => {
    const tokenizer = tokenizers.get(model);
    const { short, tokens } = corpora.get(model);
    const bytes = encoder.encode(short);
    const whole = tokenizer.encode(short);
    for (const chunkSize of [1, 7, 64]) {
      assertSameIds(
        (await streamed(tokenizer, byteItems(bytes, [1]), { chunkSize })).ids,
        whole,
        `1-byte ${chunkSize}`,
      );
    }
    const units = [...randomSizes(3, 50, 9)];
    const strings = [];
    for (let at = 0, k = 0; at < short.length; k++) {
      strings.push(short.slice(at, at + units[k % units.length])); // may end between the halves of a pair
      at += units[k % units.length];
    }
    assertSameIds((await streamed(tokenizer, strings, { chunkSize: 16 })).ids, whole, 'string items');
    // Added tokens next to each other and to text, each cut by the items at every byte in turn.
    const crowded =
      tokens
        .slice(0, 40)
        .map((token, i) => `${token}a${i} ${token}${token}. `)
        .join('') + 'end';
    const crowdedBytes = encoder.encode(crowded);
    const crowdedWhole = tokenizer.encode(crowded);
    for (const size of [2, 3, 5, 11]) {
      const { ids } = await streamed(tokenizer, byteItems(crowdedBytes, [size]), { chunkSize: 8 });
      assertSameIds(ids, crowdedWhole, `added tokens in ${size}-byte items`);
    }
  });

  test(`${model}: each cut the core gives holds for the text that really follows it`, () => {
    const tokenizer = tokenizers.get(model);
    const text = corpora.get(model).short;
    const bytes = encoder.encode(text);
    const whole = tokenizer.encode(bytes);
    const next = seededRandom(11);
    let cuts = 0;
    for (let trial = 0; trial < 200; trial++) {
      // Only a prefix is shown: the cut must hold whatever follows, here the real rest.
      const end = 1 + Math.floor(next() * bytes.length);
      const from = Math.floor(next() * end);
      const cut = tokenizer.safeCut(bytes.subarray(0, end), from, end);
      if (cut < 0) {
        continue;
      }
      assert.ok(cut >= from && cut <= end, `cut ${cut} in [${from}, ${end}]`);
      cuts++;
      const first = tokenizer.encode(bytes.subarray(0, cut), {
        [CUT_PART]: { startsAfterCut: false, endsAtCut: true },
      });
      const rest = tokenizer.encode(bytes.subarray(cut), { [CUT_PART]: { startsAfterCut: true, endsAtCut: false } });
      assertSameIds(concat([first, rest]), whole, `cut at ${cut} of ${bytes.length}`);
    }
    assert.ok(cuts > 50, `only ${cuts} of 200 prefixes had a cut`);
  });

  test(`${model}: texts with no cut for a long way are held whole up to maxBufferBytes, then refused`, async () => {
    const tokenizer = tokenizers.get(model);
    // A run of one letter, of spaces, of newlines, of a combining mark, CJK without punctuation, emoji with ZWJ,
    // and an added token repeated: none has a cut the core can prove inside it (or few).
    const adversarial = [
      'a'.repeat(20_000),
      ' '.repeat(20_000),
      '\n'.repeat(20_000),
      'e' + '\u0301'.repeat(10_000),
      '我们今天去北京天安门广场看到了很多人'.repeat(500),
      '👨‍👩‍👧‍👦'.repeat(2000),
      corpora.get(model).tokens[0].repeat(2000),
      `${'x'.repeat(9000)} ${' '.repeat(9000)}y${'\t'.repeat(5000)}`,
    ];
    for (const text of adversarial) {
      const whole = tokenizer.encode(text);
      const bytes = encoder.encode(text);
      const { ids } = await streamed(tokenizer, byteItems(bytes, [997]), { chunkSize: 256 });
      assertSameIds(ids, whole, `adversarial ${JSON.stringify(text.slice(0, 12))}…`);
      assert.equal(tokenizer.isWithinTokenLimit(text, whole.length), whole.length);
    }
    await assert.rejects(
      streamed(tokenizer, byteItems(encoder.encode('a'.repeat(50_000)), [1000]), {
        chunkSize: 256,
        maxBufferBytes: 10_000,
      }),
      {
        name: 'RangeError',
        message: /^options\.maxBufferBytes: found no place to cut the text within \d+ bytes, more than 10000/,
      },
    );
  });
}

test('a 32 MB stream leaves the wasm heap about one chunk larger, not the text larger', async () => {
  const own = await createEmbedLab(); // a fresh instance: its heap has not grown for other tests
  const { jsonText, configText } = readModelFiles('llama3');
  const tokenizer = await own.tokenizerFromHuggingFace(jsonText, { config: configText });
  const block = encoder.encode(brownExcerpt(1 << 20));
  const items = Array.from({ length: Math.ceil((32 << 20) / block.length) }, () => block);
  tokenizer.count(block); // the buffers one chunk needs
  const memory = () => tokenizer.lab.memory(); // the Hugging Face module's heap, where src/hf runs
  const heap = memory().heapBytes;
  let count = 0;
  for await (const ids of tokenizer.encodeStream(items, { chunkSize: 1 << 20 })) {
    count += ids.length;
  }
  const grown = memory().heapBytes - heap;
  assert.ok(grown <= 8 << 20, `the heap grew by ${grown} bytes for ${items.length * block.length} bytes of text`);
  const whole = new Uint8Array(items.length * block.length);
  items.forEach((item, i) => whole.set(item, i * block.length));
  assert.equal(count, tokenizer.count(whole)); // now the heap grows by the text
  assert.ok(memory().heapBytes - heap > 32 << 20);
  tokenizer.dispose();
});
