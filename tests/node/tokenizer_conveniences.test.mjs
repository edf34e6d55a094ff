// What peers' users rely on, each against a peer where it has the same feature: the model -> encoding table
// (npm tiktoken, js-tiktoken, gpt-tokenizer), tiktoken's positional encode(text, 'all') and its special-token
// precedence (tiktoken, js-tiktoken), o200k_harmony (gpt-tokenizer's published token table; tiktoken's o200k_base
// ranks), extra special tokens on a built-in encoding (tiktoken's get_encoding(name, extend_special_tokens)), and
// getTokenizer sharing one native tokenizer per vocabulary.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';

import * as gptTokenizerModels from 'gpt-tokenizer/modelsMap';
import { O200KHarmony } from 'gpt-tokenizer/encodingParams/o200k_harmony';
import { getEncoding, getEncodingNameForModel } from 'js-tiktoken';
import { get_encoding, get_encoding_name_for_model, encoding_for_model } from 'tiktoken';

import createEmbedLab from '../../dist/index.js';

const MB = 1 << 20;
const tiktokenModels = JSON.parse(
  readFileSync(createRequire(import.meta.url).resolve('tiktoken/model_to_encoding.json'), 'utf8'),
);
let lab;
before(async () => {
  lab = await createEmbedLab();
});

function outcome(body) {
  try {
    return Array.from(body());
  } catch (error) {
    return `throws: ${/not allowed|disallowed/.test(String(error)) ? 'disallowed special token' : String(error)}`;
  }
}

describe('encodingForModel', () => {
  test("every model of npm tiktoken's table maps as tiktoken maps it", () => {
    const names = Object.keys(tiktokenModels);
    assert.ok(names.length > 100, `tiktoken lists ${names.length} models`);
    for (const model of names) {
      assert.equal(lab.encodingNameForModel(model), get_encoding_name_for_model(model), model);
    }
  });

  test('js-tiktoken agrees, except its two known departures from tiktoken (davinci-002, babbage-002)', () => {
    const departures = {};
    for (const model of Object.keys(tiktokenModels)) {
      const theirs = getEncodingNameForModel(model);
      if (lab.encodingNameForModel(model) !== theirs) {
        departures[model] = theirs;
      }
    }
    assert.deepEqual(departures, { 'davinci-002': 'p50k_base', 'babbage-002': 'r50k_base' });
    assert.equal(get_encoding_name_for_model('davinci-002'), 'cl100k_base'); // tiktoken, which we follow
  });

  test("gpt-tokenizer's lists agree (gpt-3.5, gpt-2, gpt-oss-*, the search models' query sides)", () => {
    const unknown = [];
    for (const [encoding, models] of Object.entries(gptTokenizerModels)) {
      for (const model of Array.isArray(models) ? models : []) {
        try {
          assert.equal(lab.encodingNameForModel(model), encoding, model);
        } catch (error) {
          if (!(error instanceof RangeError)) {
            throw error;
          }
          unknown.push(model);
        }
      }
    }
    assert.deepEqual(unknown, ['gpt-3.5-0301']); // not an OpenAI model name; tiktoken does not map it either
  });

  test("dated and fine-tuned names go by tiktoken's prefix rules", () => {
    const expected = {
      'gpt-4o-2099-01-01': 'o200k_base',
      'gpt-4o-mini-2099-01-01': 'o200k_base',
      'chatgpt-4o-2099': 'o200k_base',
      'o1-2099-01-01': 'o200k_base',
      'o3-pro': 'o200k_base',
      'o4-mini-deep-research': 'o200k_base',
      'gpt-4.1-2099-01-01': 'o200k_base',
      'gpt-5-pro': 'o200k_base',
      'gpt-4-0613-custom': 'cl100k_base',
      'gpt-3.5-turbo-2099': 'cl100k_base',
      'gpt-35-turbo-16k': 'cl100k_base',
      'gpt-oss-20b': 'o200k_harmony',
      'ft:gpt-4o-mini-2024-07-18:my-org::abc123': 'o200k_base', // before the 'ft:gpt-4' rule
      'ft:gpt-4-0613:my-org::abc123': 'cl100k_base',
      'ft:gpt-3.5-turbo-0125:my-org::abc123': 'cl100k_base',
      'ft:davinci-002:my-org::abc123': 'cl100k_base',
    };
    for (const [model, encoding] of Object.entries(expected)) {
      assert.equal(lab.encodingNameForModel(model), encoding, model);
    }
  });

  test('an unknown model is refused with how to pass an encoding instead', async () => {
    for (const model of ['llama-3', 'gpt-4o ', 'GPT-4O', '', 'toString', '__proto__']) {
      assert.throws(
        () => lab.encodingNameForModel(model),
        (error) =>
          error instanceof RangeError &&
          error.message.includes(`no known encoding for ${JSON.stringify(model)}`) &&
          error.message.includes('lab.getTokenizer(name) with name one of gpt2, r50k_base'),
        model,
      );
    }
    assert.throws(() => lab.encodingNameForModel(42), /model must be a model name string .* got 42/);
    await assert.rejects(lab.encodingForModel('llama-3'), RangeError);
  });

  test("encodingForModel gives the model's tokenizer, with tiktoken's ids", async () => {
    const text = 'Positional encodings tell a transformer where each token sits. 日本語も。';
    for (const model of ['gpt-4o', 'gpt-4', 'text-davinci-003', 'gpt2']) {
      const tokenizer = await lab.encodingForModel(model);
      const reference = encoding_for_model(model);
      try {
        assert.equal(tokenizer.name, get_encoding_name_for_model(model));
        assert.deepEqual(tokenizer.encode(text), reference.encode(text), model);
      } finally {
        tokenizer.dispose();
        reference.free();
      }
    }
  });
});

describe("tiktoken's positional special-token arguments", () => {
  let tokenizer, tiktoken, jsTiktoken;
  const text = 'a<|endoftext|>b<|fim_prefix|>c<|endofprompt|>d';
  before(async () => {
    tokenizer = await lab.getTokenizer('cl100k_base');
    tiktoken = get_encoding('cl100k_base');
    jsTiktoken = getEncoding('cl100k_base');
  });
  after(() => {
    tokenizer.dispose();
    tiktoken.free();
  });

  const cases = [
    [],
    ['all'],
    ['all', 'all'],
    [['<|endoftext|>']],
    [['<|endoftext|>', '<|fim_prefix|>', '<|endofprompt|>']],
    [[], []],
    [['<|endoftext|>'], []],
    [[], 'all'],
    ['all', ['<|endoftext|>']], // a named disallowed token stays disallowed
    [['<|endoftext|>'], ['<|endoftext|>']],
    ['all', ['<|fim_middle|>']], // disallowed but absent: fine
  ];
  for (const args of cases) {
    test(`encode(text, ${args.map((a) => JSON.stringify(a)).join(', ')}) as tiktoken and js-tiktoken`, () => {
      const expected = outcome(() => tiktoken.encode(text, ...args));
      assert.deepEqual(
        outcome(() => jsTiktoken.encode(text, ...args)),
        expected,
      );
      assert.deepEqual(
        outcome(() => tokenizer.encode(text, ...args)),
        expected,
      );
      const sets = args.map((a) => (Array.isArray(a) ? new Set(a) : a));
      assert.deepEqual(
        outcome(() => tokenizer.encode(text, ...sets)),
        expected,
        'Sets as lists',
      );
      const [allowedSpecial, disallowedSpecial] = args;
      assert.deepEqual(
        outcome(() => tokenizer.encode(text, { allowedSpecial, disallowedSpecial })),
        expected,
      );
      if (Array.isArray(expected)) {
        assert.equal(tokenizer.count(text, ...args), expected.length);
        assert.deepEqual(
          tokenizer.tokens(text, ...args).map((token) => token.id),
          expected,
        );
      }
    });
  }

  test('a third argument needs the positional form; bad values name the argument', () => {
    assert.throws(() => tokenizer.encode(text, {}, 'all'), /disallowedSpecial as a third argument/);
    assert.throws(() => tokenizer.encode(text, 'everything'), /allowedSpecial must be 'all' or an array\/Set/);
    assert.throws(() => tokenizer.encode(text, 'all', 7), /disallowedSpecial must be 'all' or an array\/Set/);
    assert.throws(() => tokenizer.encode(text, ['<|nope|>']), /'<\|nope\|>' is not a special token/);
    assert.throws(() => tokenizer.encode(text, null), /options must be an object/);
  });
});

describe('o200k_harmony', () => {
  let harmony, o200k;
  const published = [...O200KHarmony(null).specialTokensEncoder].map(([text, id]) => ({ text, id }));
  before(async () => {
    harmony = await lab.getTokenizer('o200k_harmony');
    o200k = get_encoding('o200k_base');
  });
  after(() => {
    harmony.dispose();
    o200k.free();
  });

  test("its special tokens are gpt-tokenizer's published table, and its size tiktoken's n_vocab", () => {
    const byText = (a, b) => (a.text < b.text ? -1 : 1);
    assert.equal(published.length, 1091);
    assert.deepEqual([...harmony.specialTokens].sort(byText), published.sort(byText));
    assert.equal(harmony.vocabSize, 201088);
    assert.equal(harmony.name, 'o200k_harmony');
    assert.equal(harmony.pattern, 'o200k');
    // 200018 has two names; decoding shows <|endofprompt|>, as gpt-tokenizer does.
    assert.equal(harmony.decode([200018, 199998, 200012]), '<|endofprompt|><|startoftext|><|call|>');
  });

  test("ordinary text: o200k_base's ids; a chat in the harmony format: specials between tiktoken segments", () => {
    const prose = 'Harmony <is> the gpt-oss chat format. Ünïcödé 日本語 1234567 \r\n\t end';
    assert.deepEqual(harmony.encode(prose), o200k.encode(prose));
    const chat = [
      ['<|start|>', 'system'],
      ['<|message|>', 'You are helpful.'],
      ['<|end|>', ''],
      ['<|start|>', 'assistant'],
      ['<|channel|>', 'final'],
      ['<|message|>', 'Four, as <b>2+2</b> says.'],
      ['<|reserved_200500|>', ''],
      ['<|return|>', ''],
    ];
    const idOf = new Map(published.map(({ text, id }) => [text, id]));
    const expected = chat.flatMap(([special, segment]) => [idOf.get(special), ...o200k.encode(segment)]);
    const text = chat.map(([special, segment]) => special + segment).join('');
    assert.deepEqual(Array.from(harmony.encode(text, 'all')), expected);
    assert.throws(() => harmony.encode(text), /disallowed special token <\|start\|>/);
  });

  test("1090 special tokens cost one pass over the text, not one per token (o200k_base's speed within 3x)", (t) => {
    const text = 'The quick <b>brown</b> fox jumps over the lazy dog; 12345 <|not special|>. '.repeat(8000);
    const time = (body) => {
      let best = Infinity;
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        body();
        best = Math.min(best, performance.now() - started);
      }
      return best;
    };
    const checked = time(() => harmony.count(text)); // all 1091 disallowed: searched for
    const unchecked = time(() => harmony.count(text, [], [])); // none searched for
    t.diagnostic(`${(text.length / MB).toFixed(2)} MB: ${checked.toFixed(1)} ms, ${unchecked.toFixed(1)} ms unchecked`);
    assert.ok(checked < 3 * unchecked + 20, `${checked.toFixed(1)} ms checked, ${unchecked.toFixed(1)} ms unchecked`);
    assert.equal(harmony.count(text), o200k.encode(text).length);
  });
});

describe('extra special tokens on a built-in encoding', () => {
  const chatml = { '<|im_start|>': 100264, '<|im_end|>': 100265, '<|im_sep|>': 100266 };
  const text = '<|im_start|>user<|im_sep|>Hello<|im_end|><|endoftext|> plain <|im_start|>';

  test("ids as tiktoken's get_encoding(name, extend_special_tokens) and js-tiktoken's getEncoding give", async () => {
    const tokenizer = await lab.getTokenizer('cl100k_base', { specialTokens: chatml });
    const tiktoken = get_encoding('cl100k_base', chatml);
    try {
      const expected = Array.from(tiktoken.encode(text, 'all'));
      assert.deepEqual(Array.from(tokenizer.encode(text, 'all')), expected);
      assert.deepEqual(getEncoding('cl100k_base', chatml).encode(text, 'all'), expected);
      assert.deepEqual(
        Array.from(tokenizer.encode(text, ['<|im_start|>'], [])),
        Array.from(tiktoken.encode(text, ['<|im_start|>'], [])),
      );
      assert.throws(() => tokenizer.encode(text), /disallowed special token <\|im_start\|>/); // tiktoken raises too
      assert.equal(tokenizer.decode(expected), text);
      assert.equal(tokenizer.name, 'cl100k_base');
      assert.equal(tokenizer.vocabSize, 100277); // the base's specials reach 100276
      assert.deepEqual(
        tokenizer.specialTokens.filter((token) => token.text.startsWith('<|im_')),
        Object.entries(chatml).map(([text, id]) => ({ text, id })),
      );
    } finally {
      tokenizer.dispose();
      tiktoken.free();
    }
    // The plain encoding is untouched: ChatML's markers are text there.
    const plain = await lab.getTokenizer('cl100k_base');
    const reference = get_encoding('cl100k_base');
    assert.deepEqual(plain.encode('<|im_start|>', 'all'), reference.encode('<|im_start|>', 'all'));
    assert.equal(plain.vocabSize, 100277);
    assert.equal(plain.specialTokens.length, 5);
    plain.dispose();
    reference.free();
  });

  test('ids above the vocabulary are allowed; the same token again is no change', async () => {
    const tokenizer = await lab.getTokenizer('r50k_base', {
      specialTokens: { '<|pad|>': 60000, '<|endoftext|>': 50256 },
    });
    assert.equal(tokenizer.vocabSize, 60001);
    assert.deepEqual(Array.from(tokenizer.encode('x<|pad|>', 'all')), [87, 60000]);
    tokenizer.dispose();
  });

  test('bad extensions are refused, naming the option and the range', async () => {
    const max = lab.limits.maxVocabSize;
    const refused = [
      [{ '<|x|>': 1000 }, Error, /id 1000 of <\|x\|> is already the rank of an ordinary token/],
      [{ '<|x|>': 100257 }, RangeError, /id 100257 is already the id of <\|endoftext\|>/],
      [{ '<|a|>': 100300, '<|b|>': 100300 }, RangeError, /\["<\|b\|>"\]: id 100300 is already the id of <\|a\|>/],
      [{ '<|endoftext|>': 100300 }, RangeError, /<\|endoftext\|> is already special with id 100257, not 100300/],
      [{ '': 100300 }, RangeError, /must not be the empty string/],
      [{ '<|x|>': 1.5 }, RangeError, new RegExp(`\\["<\\|x\\|>"\\] must be an integer in \\[0, ${max - 1}\\]`)],
      [{ '<|x|>': max }, RangeError, /must be an integer in/],
      [{ '<|x|>': '100300' }, TypeError, /must be an integer in/],
      [['<|x|>'], TypeError, /options.specialTokens must be an object \{text: id\}/],
      [new Map([['<|x|>', 100300]]), TypeError, /options.specialTokens must be an object/],
      [null, TypeError, /options.specialTokens must be an object/],
    ];
    for (const [specialTokens, type, message] of refused) {
      await assert.rejects(lab.getTokenizer('cl100k_base', { specialTokens }), (error) => {
        assert.ok(error instanceof type, `${error}`);
        assert.match(error.message, message);
        return true;
      });
    }
    await assert.rejects(lab.getTokenizer('cl100k_base', { specialToken: {} }), /specialToken.*specialTokens/);
  });
});

describe('getTokenizer shares one native tokenizer per vocabulary', () => {
  let fresh;
  before(async () => {
    fresh = await createEmbedLab(); // its own wasm memory, so other tests' handles do not count
  });

  test('five o200k handles cost one vocabulary, not five; disposing one leaves the others working', async (t) => {
    const allocated = () => fresh.memory().allocatedBytes;
    const sample = 'Shared vocabularies, separate handles. Ünïcödé 日本語';
    const expected = Array.from(get_encoding('o200k_base').encode(sample));
    const start = allocated();
    const handles = [await fresh.getTokenizer('o200k_base')];
    const one = allocated() - start;
    for (let i = 1; i < 5; i++) {
      handles.push(await fresh.getTokenizer('o200k_base'));
    }
    const five = allocated() - start;
    // The same five from the caller's bytes (not shared: the package cannot know they are its file).
    const bytes = await (
      await import('node:fs/promises')
    ).readFile(new URL('../../dist/vocab/o200k_base.emblvoc', import.meta.url));
    const unsharedStart = allocated();
    const unshared = [];
    for (let i = 0; i < 5; i++) {
      unshared.push(await fresh.getTokenizer('o200k_base', { vocabulary: bytes }));
    }
    const unsharedFive = allocated() - unsharedStart;
    unshared.forEach((handle) => handle.dispose());
    t.diagnostic(
      `allocated: 1 handle ${(one / MB).toFixed(1)} MB, 5 shared ${(five / MB).toFixed(1)} MB, ` +
        `5 unshared ${(unsharedFive / MB).toFixed(1)} MB`,
    );
    assert.ok(one > 5 * MB, `one o200k tokenizer: ${one} bytes`);
    assert.ok(five - one < MB / 2, `four more handles added ${five - one} bytes`);
    assert.ok(unsharedFive > 4 * one, `five unshared: ${unsharedFive} bytes`);
    handles[0].dispose();
    handles[2].dispose();
    for (const handle of [handles[1], handles[3], handles[4]]) {
      assert.deepEqual(Array.from(handle.encode(sample)), expected);
      assert.equal(handle.decode(expected), sample);
    }
    handles.forEach((handle) => handle.dispose());
    assert.ok(allocated() - start < MB, `all disposed: ${allocated() - start} bytes left`);
    // Nothing live any more: the next call builds a new one, which works.
    const again = await fresh.getTokenizer('o200k_base');
    assert.deepEqual(Array.from(again.encode(sample)), expected);
    again.dispose();
  });

  test('extended tokenizers are shared per set of extra tokens, apart from the plain one', async () => {
    const specialTokens = { '<|im_start|>': 200264, '<|im_end|>': 200265 };
    const first = await fresh.getTokenizer('o200k_base', { specialTokens });
    const before = fresh.memory().allocatedBytes;
    const second = await fresh.getTokenizer('o200k_base', {
      specialTokens: { '<|im_end|>': 200265, '<|im_start|>': 200264 },
    });
    assert.ok(fresh.memory().allocatedBytes - before < MB / 2);
    const plain = await fresh.getTokenizer('o200k_base');
    first.dispose();
    assert.deepEqual(Array.from(second.encode('<|im_start|>hi<|im_end|>', 'all')), [200264, 3686, 200265]);
    assert.deepEqual(
      Array.from(plain.encode('<|im_start|>', 'all')),
      Array.from(get_encoding('o200k_base').encode('<|im_start|>', 'all')),
    );
    second.dispose();
    plain.dispose();
  });
});
