// Where a text can be cut so that encoding the parts one after the other gives the ids of the whole text: shared by
// the streaming methods, the library's chunked encode of large inputs and the CLI.
//
// A cut at c is exact when (1) c is a piece boundary of the whole text's pre-tokenization and (2) the character
// before c is not whitespace. No pattern (gpt2, cl100k, o200k) looks behind, so after a boundary matching goes on
// as at the start of a text; the only look-ahead is \s+(?!\S), which can match differently at the end of a text
// only when the text ends in whitespace, hence (2). BPE never merges across pieces. Local rules that make a cut exact
// in all three patterns, with X the character before c, Y the one at c and W the one before X (A, B and D give (1)
// and (2); C gives (1) and shows directly that the text before c ends in the same piece):
//   A. X an ASCII letter or digit, Y ASCII but not a letter, digit or apostrophe: letter and digit runs end at Y
//      (o200k's letter pieces take a contraction only after an apostrophe);
//   B. X not whitespace, Y a space or tab: no piece goes on from a non-space into a space or tab (the optional
//      leading space is only ever at a piece's start; cl100k/o200k's punctuation runs take only \r \n /);
//   C. X "\n", W not whitespace, Y neither whitespace nor "/": the "\n" ends its piece both before Y and at the end
//      of a text (".\n" in cl100k/o200k, "\n" alone after a letter or in gpt2); a longer whitespace run would not
//      do (gpt2's \s+(?!\S) splits "\n\n" before a letter and keeps it whole at the end);
//   D. X a CJK ideograph, hiragana or katakana (Lo in every Unicode version), Y one of 、。，！？：； (Po): the
//      letter run ends at Y, so CJK text without spaces or line breaks can still be cut.
// Special tokens are matched before pre-tokenization: a cut must not fall inside any special token's text, nor
// where a special token could still be completed by data not seen yet.

const TAB = 0x09;
const NEWLINE = 0x0a;
const SPACE = 0x20;
const APOSTROPHE = 0x27;
const SLASH = 0x2f;

const isAsciiAlnum = (c) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
// Unicode White_Space (tiktoken's \s), the same in every Unicode version since 6.3.
const isWhitespace = (c) =>
  (c >= 0x09 && c <= 0x0d) ||
  c === 0x20 ||
  c === 0x85 ||
  c === 0xa0 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000;
const isCjkLetter = (c) => (c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3041 && c <= 0x3096) || (c >= 0x30a1 && c <= 0x30fa);
const isCjkPunctuation = (c) =>
  c === 0x3001 || c === 0x3002 || c === 0xff0c || c === 0xff01 || c === 0xff1f || c === 0xff1a || c === 0xff1b;

// The code point of the UTF-8 sequence that starts at i, decoded as the C++ core does (src/text/utf8.h); -1 for
// a byte that is not a whole valid sequence there (the core then treats that byte as a character of its own,
// never as whitespace or a letter).
function codePointAt(bytes, i) {
  const b0 = bytes[i];
  if (b0 < 0x80) {
    return b0;
  }
  const more = b0 < 0xc2 ? -1 : b0 < 0xe0 ? 1 : b0 < 0xf0 ? 2 : b0 < 0xf5 ? 3 : -1;
  if (more < 0 || i + more >= bytes.length) {
    return -1;
  }
  let cp = b0 & (0x3f >> more);
  for (let k = 1; k <= more; k++) {
    if ((bytes[i + k] & 0xc0) !== 0x80) {
      return -1;
    }
    cp = (cp << 6) | (bytes[i + k] & 0x3f);
  }
  const shortest = more === 1 ? 0x80 : more === 2 ? 0x800 : 0x10000;
  return cp < shortest || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff ? -1 : cp;
}

// The code point of the character that ends at byte end - 1, or -1 when that byte is not the end of a valid
// sequence. A lead byte is never a continuation, so decoding reaches the lead found by stepping back.
function codePointBefore(bytes, end) {
  let start = end - 1;
  while (start > 0 && end - start < 4 && (bytes[start] & 0xc0) === 0x80) {
    start--;
  }
  const cp = codePointAt(bytes, start);
  const length = cp < 0 ? 1 : cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  return cp >= 0 && start + length === end ? cp : -1;
}

// Rules A-D on UTF-8 bytes (1 <= c < bytes.length).
function ruleAllowsBytes(bytes, c) {
  const x = bytes[c - 1];
  const y = bytes[c];
  if (x < 0x80) {
    if (isAsciiAlnum(x)) {
      return y < 0x80 && !isAsciiAlnum(y) && y !== APOSTROPHE; // A
    }
    if (x === NEWLINE) {
      if (c < 2) {
        return false;
      }
      const w = codePointBefore(bytes, c - 1);
      const next = codePointAt(bytes, c);
      return !isWhitespace(w) && !isWhitespace(next) && next !== SLASH; // C (-1: an invalid byte, not a space)
    }
    return !isWhitespace(x) && (y === SPACE || y === TAB); // B
  }
  if (y === SPACE || y === TAB) {
    return !isWhitespace(codePointBefore(bytes, c)); // B
  }
  return y >= 0xe3 && isCjkPunctuation(codePointAt(bytes, c)) && isCjkLetter(codePointBefore(bytes, c)); // D
}

// Rules A-D on a string's UTF-16 code units (1 <= c < text.length). A surrogate is never whitespace; Y is always a
// BMP character, so no cut splits a surrogate pair.
function ruleAllowsString(text, c) {
  const x = text.charCodeAt(c - 1);
  const y = text.charCodeAt(c);
  if (x < 0x80 && isAsciiAlnum(x)) {
    return y < 0x80 && !isAsciiAlnum(y) && y !== APOSTROPHE; // A
  }
  if (x === NEWLINE) {
    return c >= 2 && !isWhitespace(text.charCodeAt(c - 2)) && !isWhitespace(y) && y !== SLASH; // C
  }
  if (y === SPACE || y === TAB) {
    return !isWhitespace(x); // B
  }
  return isCjkPunctuation(y) && isCjkLetter(x); // D
}

/**
 * The end of the part that starts at `start`: about `length` long when a cut allows it (the last cut within
 * `length`, else the first after it), else the end of the data. Shared by both kinds of cuts below.
 * @param {{data: {length: number}, last: (from: number, to: number) => number, first: (from: number, to: number) => number}} cuts
 * @param {number} start
 * @param {number} length
 * @returns {number}
 */
function partEnd(cuts, start, length) {
  const end = cuts.data.length;
  if (end - start <= length) {
    return end;
  }
  const cut = cuts.last(start + 1, start + length);
  if (cut > 0) {
    return cut;
  }
  const later = cuts.first(start + length + 1, end);
  return later > 0 ? later : end;
}

/**
 * Finds cuts in one text, a Uint8Array of UTF-8 (any bytes) or a string, given the special tokens' texts in the same
 * form (Uint8Arrays for bytes, strings for a string). `final` says whether the data is the whole text; when it is
 * not, cuts stay far enough from its end that a special token cannot straddle them.
 */
export class SafeCuts {
  constructor(data, specials) {
    this.data = data;
    this.bytes = typeof data !== 'string';
    this.specials = specials;
    this.longestSpecial = specials.reduce((longest, s) => Math.max(longest, s.length), 0);
  }

  // Whether the text can be cut at c (rules A-D, and not inside a special token's text).
  allows(c) {
    const data = this.data;
    if (c < 1 || c >= data.length) {
      return false;
    }
    if (this.bytes ? !ruleAllowsBytes(data, c) : !ruleAllowsString(data, c)) {
      return false;
    }
    return this.longestSpecial < 2 || !this.#insideSpecial(c);
  }

  // The largest index that can be a cut: with more data to come, far enough from the end that the character at
  // the cut is complete and no special token can straddle it.
  horizon(final) {
    return this.data.length - (final ? 1 : Math.max(4, this.longestSpecial - 1));
  }

  // The largest c in [from, to] where the text can be cut, or -1.
  last(from, to, final = true) {
    const limit = Math.min(to, this.horizon(final));
    for (let c = limit; c >= from; c--) {
      if (this.allows(c)) {
        return c;
      }
    }
    return -1;
  }

  // The smallest c in [from, to] where the text can be cut, or -1.
  first(from, to, final = true) {
    const limit = Math.min(to, this.horizon(final));
    for (let c = Math.max(from, 1); c <= limit; c++) {
      if (this.allows(c)) {
        return c;
      }
    }
    return -1;
  }

  // The end of the part that starts at `start` (partEnd).
  next(start, length) {
    return partEnd(this, start, length);
  }

  #insideSpecial(c) {
    const data = this.data;
    for (const special of this.specials) {
      for (let p = Math.max(0, c - special.length + 1); p < c; p++) {
        if (p + special.length <= data.length && matchesAt(data, p, special)) {
          return true;
        }
      }
    }
    return false;
  }
}

function matchesAt(data, p, special) {
  if (typeof data === 'string') {
    return data.startsWith(special, p);
  }
  for (let k = 0; k < special.length; k++) {
    if (data[p + k] !== special[k]) {
      return false;
    }
  }
  return true;
}

/**
 * Symbol key of the encode options of one part of a text cut at {@link CoreCuts} positions: {startsAfterCut,
 * endsAtCut} (a Hugging Face tokenizer leaves out its template's tokens there and does not treat the part's start as
 * a text start). Internal: a symbol, so the options' checks (which read string keys) do not see it.
 */
export const CUT_PART = Symbol('embedlab.cutPart');

// Bytes before a searched range handed to the core as context (the character and added tokens before a cut); fewer
// only lose cuts near the range's start, never make one unsafe (the core sees nothing before what it is given).
const CONTEXT_BYTES = 1024;
// With more data to come, the last bytes are searched again once it arrives (the core refuses cuts it cannot judge
// yet, e.g. before an incomplete character or added token).
const RESEARCH_BYTES = 16;

/**
 * The cuts of UTF-8 bytes as a Hugging Face tokenizer's core finds them (HfTokenizer::SafeCut, src/hf/hf_safe_cut.cc:
 * proven per pipeline, none where no proof applies). Each part is then encoded with the {@link CUT_PART} options.
 * The core reads the bytes after a range as unknown, so every cut holds whatever data follows.
 */
export class CoreCuts {
  constructor(tokenizer, data) {
    this.tokenizer = tokenizer;
    this.data = data;
  }

  horizon(final) {
    return this.data.length - (final ? 1 : RESEARCH_BYTES);
  }

  // The largest c in [from, to] where the text can be cut, or -1.
  last(from, to, final = true) {
    const limit = Math.min(to, this.horizon(final));
    if (limit < from) {
      return -1;
    }
    const start = Math.max(0, from - CONTEXT_BYTES);
    const end = Math.min(this.data.length, limit + CONTEXT_BYTES);
    const cut = this.tokenizer.safeCut(this.data.subarray(start, end), from - start, limit - start);
    return cut < 0 ? -1 : start + cut;
  }

  // A c in [from, to] where the text can be cut (the core finds the largest), or -1.
  first(from, to, final = true) {
    return this.last(from, to, final);
  }

  // The end of the part that starts at `start` (partEnd).
  next(start, length) {
    return partEnd(this, start, length);
  }
}
