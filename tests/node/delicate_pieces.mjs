// Test texts for the streaming and CLI tests (one list for both).
// Pieces whose boundaries are delicate in some pattern: line break runs, CR/CRLF, punctuation before line breaks and
// "/", digit runs, contractions (also o200k's letter+contraction), Unicode spaces, multi-byte letters and marks, CJK
// punctuation, emoji (surrogate pairs), special tokens and their halves, invalid UTF-8 (bytes sources only).
export const DELICATE_PIECES = [
  '\n',
  '\n\n',
  '\r\n',
  '\r',
  ' \n',
  '\n ',
  ' ',
  '  ',
  '\t',
  '\f',
  '\u0085',
  '\u00a0',
  '\u2028',
  '\u3000',
  'Hello',
  'world',
  "'s",
  "'LL",
  "'re",
  "don't",
  "'",
  '123',
  '4567',
  '8',
  '.',
  '...',
  '.\n',
  ',\n\n',
  '/',
  '\n/',
  '\n\t',
  '\n\r\n',
  'naïve',
  '日本語',
  '中文',
  '。',
  '，',
  'ひらがな',
  'カタカナ',
  '👍',
  'ÄÖ',
  'e\u0301',
  '<|endoftext|>',
  '<|endof',
  'text|>',
  '<|fim_prefix|>',
  'A',
  'z',
  '0',
  '?!\n',
  '-',
  '\n1',
  '\nA',
  'x\n',
  '9\r',
  'Ω',
  'ſ',
];

/** `count` delicate pieces picked by a seeded LCG (Numerical Recipes'; its high bits pick). */
export function trickyText(count, seed) {
  let state = seed;
  let text = '';
  for (let i = 0; i < count; ++i) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    text += DELICATE_PIECES[(state >>> 16) % DELICATE_PIECES.length];
  }
  return text;
}
