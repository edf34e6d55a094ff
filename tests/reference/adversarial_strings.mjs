// Seeded adversarial strings for tokenizer parity tests (combining marks, ZWJ emoji, CJK, RTL, NEL, BOM, lone
// surrogates, long whitespace and digit runs, contractions in odd cases, random code points from every plane), and
// texts mixing special-token strings into them. The same seed gives the same strings.

export function mulberry32(a) {
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const fragments = [
  // combining marks: alone, after letters, spaces, digits, punctuation; Mn, Mc, Me
  'e\u0301',
  '\u0301',
  'a\u0308\u0323',
  '\u20dd',
  'क\u0903',
  ' \u0301x',
  '1\u0301',
  '!\u0301',
  'A\u0301B',
  '\u0301\u0302\u0303',
  'Z\u0351a',
  'ǅ\u0301',
  'ʰ\u0301',
  '\u0e31',
  'ก\u0e31',
  "x\u0301's",
  '\n\u0301',
  // emoji and ZWJ sequences
  '👨‍👩‍👧‍👦',
  '🏳️‍🌈',
  '👍🏽',
  '🇺🇸🇫🇷',
  '1️⃣',
  '🍏🍎',
  '\u200d',
  '❤️',
  '🧑🏿‍🚀',
  // CJK, Korean, fullwidth, Japanese
  '日本語のテキスト',
  '中文字符测试',
  '한국어 문장',
  'ＡＢＣ１２３',
  'カタカナー',
  '〇〻',
  // RTL and bidi controls
  'مرحبا بالعالم',
  'שלום עולם',
  '\u200f',
  '\u202e',
  'ال٣٤٥',
  'فی‌الحال',
  // special whitespace and format characters
  '\u0085',
  '\ufeff',
  '\u00a0',
  '\u2028',
  '\u2029',
  '\u3000',
  '\u200b',
  '\u180e',
  '\u1680',
  '\u000b',
  '\u000c',
  '\u001c',
  '\u001f',
  '\u2000\u200a',
  ' \u0085 ',
  '\u0085\n',
  'x\ufeffy',
  // lone surrogates (JS encodes them as U+FFFD)
  '\ud800',
  '\udc00',
  'a\ud83dz',
  '\ud83d',
  '\ufffd',
  // whitespace runs
  ' ',
  '  ',
  '   ',
  '\t',
  '\n',
  '\r\n',
  ' \n ',
  '\n\n\n',
  '  \r\n  ',
  '\t\t x',
  ' \t\n',
  '\r',
  '\r\r\n',
  // digits and numbers of every kind
  '1234567',
  '１２３４',
  'Ⅻ',
  '½',
  '²³',
  '٠١٢٣٤',
  '१२३',
  '3.14159',
  '1,000,000',
  '0x7f',
  '12ab34',
  // contractions in odd cases
  "'S",
  "'Ll",
  "'lL",
  "'RE",
  "'Ve",
  "'D",
  "'M",
  "'T",
  "'ſ",
  "'ſt",
  '’s',
  "''s",
  "don't",
  "DON'T",
  "I'M",
  "y'all",
  "'",
  "''",
  "it's'S",
  " 's",
  "'ll've",
  "L'Ll",
  // letter classes that o200k separates
  'ǅungla',
  'ʰello',
  'Aʰ',
  'aʰB',
  'getHTTPResponse',
  'XMLHttpRequest',
  'HELLOworld',
  'helloWORLD',
  'ǈǋ',
  'ᾈᾉ',
  'ΣΊΣΥΦΟΣ',
  'İstanbul',
  'straße',
  'ǲwx',
  // punctuation, slashes, code, markup, special-token text
  '/',
  '//',
  '\\',
  '...',
  '—',
  '–',
  '«»',
  '()',
  '{}',
  '<|endoftext|>',
  '<|fim_prefix|>',
  '<|endofprompt|>',
  'for (int i = 0; i < n; ++i) {\n\treturn x;\n}',
  'https://example.com/a/b?c=d',
  '/usr/share/man/',
  '#include <stdio.h>',
  '  - item\n  - item',
  '**bold**',
  '$HOME/.bashrc',
  '\t\t}\n\n',
  // plain words
  'Hello',
  ' world',
  'the',
  ' quick',
  'brown',
  ' fox',
  'The',
  'a',
  'I',
  'ok',
];

function randomCodePoint(rand) {
  const r = rand();
  let cp;
  if (r < 0.3) {
    cp = Math.floor(rand() * 0x80);
  } else if (r < 0.6) {
    cp = Math.floor(rand() * 0x800);
  } else if (r < 0.9) {
    cp = Math.floor(rand() * 0x10000);
  } else {
    cp = Math.floor(rand() * 0x110000);
  }
  return String.fromCodePoint(cp);
}

/** `count` seeded adversarial strings: runs of 2..3000 repeats first, then random fragment mixes and code points. */
export function adversarialStrings({ count = 4000, seed = 1 } = {}) {
  const rand = mulberry32(seed);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const strings = [];
  const runs = [' ', '\n', '\t', '0', '7', 'x', '\u0085', '\ufeff', '\u0301', '.', ' \n', 'ab'];
  for (const run of runs) {
    for (const n of [2, 3, 17, 100, 1000, 3000]) {
      strings.push(run.repeat(n), `a${run.repeat(n)}b`, ` ${run.repeat(n)} `);
    }
  }
  while (strings.length < count) {
    const kind = rand();
    let s = '';
    if (kind < 0.25) {
      // random code points from every plane, unassigned and private use included
      const n = 1 + Math.floor(rand() * 20);
      for (let i = 0; i < n; ++i) {
        s += randomCodePoint(rand);
      }
    } else {
      const n = 1 + Math.floor(rand() * 10);
      for (let i = 0; i < n; ++i) {
        s += pick(fragments);
        const sep = rand();
        if (sep < 0.3) {
          s += ' ';
        } else if (sep < 0.4) {
          s += pick(['\n', '  ', '\t', '\u0085', "'", '\r\n']);
        }
      }
    }
    strings.push(s);
  }
  return strings;
}

/**
 * `count` texts mixing the given special-token strings with adversarial fragments; uses the stream of
 * seed + 1 so that it differs from adversarialStrings({seed}).
 */
export function specialTokenStrings({ count = 500, seed = 1, specials }) {
  const rand = mulberry32(seed + 1);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const strings = [];
  for (let i = 0; i < count; ++i) {
    let s = '';
    const n = 1 + Math.floor(rand() * 6);
    for (let k = 0; k < n; ++k) {
      s += rand() < 0.4 ? pick(specials) : pick(fragments) + pick(['', ' ', '\n', '  ']);
    }
    strings.push(s);
  }
  return strings;
}
