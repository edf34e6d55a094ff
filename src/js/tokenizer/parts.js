// A large text is encoded in parts cut where the ids cannot change (safe_cut.js), so one call grows the wasm heap
// by about one part's buffers (input, ids, spans) instead of the whole text's; the ids are gathered in JS. Long id
// arrays are decoded in parts the same way.
import { SafeCuts } from './safe_cut.js';

/** Inputs longer than this (string code units or bytes) are encoded in parts of about PART_LENGTH. */
export const PART_LENGTH = 1 << 18;
export const LARGE_INPUT = 2 * PART_LENGTH;

const textEncoder = new TextEncoder();
const specialsOfTokenizer = new WeakMap();

/** The special tokens' texts of `tokenizer` as {strings, bytes}, looked up once per tokenizer. */
export function specialTexts(tokenizer) {
  let specials = specialsOfTokenizer.get(tokenizer);
  if (specials === undefined) {
    const strings = tokenizer.specialTokens.map((token) => token.text);
    specials = { strings, bytes: strings.map((text) => textEncoder.encode(text)) };
    specialsOfTokenizer.set(tokenizer, specials);
  }
  return specials;
}

/**
 * The core names the byte of a disallowed special token within the text it was given; a part starts `offset`
 * bytes into the whole text, so the message is made to name the byte in the whole text.
 */
export function withByteOffset(error, offset) {
  if (offset > 0 && error instanceof Error && /at byte \d+/.test(error.message)) {
    error.message = error.message.replace(/at byte (\d+)/, (_, at) => `at byte ${Number(at) + offset}`);
  }
  return error;
}

/**
 * Encodes `text` (string or Uint8Array) part by part with `encodePart(part)`, which returns {count, ids?, starts?,
 * ends?, input?} as Tokenizer's #encode does, and merges the results: counts add up, ids are concatenated, spans
 * are shifted by the bytes of the parts before.
 */
export function encodeInParts(tokenizer, text, encodePart) {
  const { strings, bytes } = specialTexts(tokenizer);
  // The core sees a string's lone surrogates as U+FFFD; a special token holding U+FFFD must then be looked for in
  // the bytes the core sees.
  const data = typeof text === 'string' && strings.some((s) => s.includes('\ufffd')) ? textEncoder.encode(text) : text;
  const cuts = new SafeCuts(data, typeof data === 'string' ? strings : bytes);
  const results = [];
  let offset = 0; // bytes before `start`, kept up to date only for spans (an error works it out)
  for (let start = 0; start < data.length;) {
    const end = cuts.next(start, PART_LENGTH);
    const part = typeof data === 'string' ? data.substring(start, end) : data.subarray(start, end);
    let result;
    try {
      result = encodePart(part);
    } catch (error) {
      throw withByteOffset(error, typeof data === 'string' ? utf8Length(data.substring(0, start)) : start);
    }
    if (result.ends !== undefined && result.count > 0) {
      const partBytes = result.ends[result.count - 1];
      for (let i = 0; offset > 0 && i < result.count; i++) {
        result.starts[i] += offset;
        result.ends[i] += offset;
      }
      offset += partBytes;
    }
    results.push(result);
    start = end;
  }
  return merge(results);
}

/** Id arrays longer than this are decoded in parts of PART_IDS ids. */
export const PART_IDS = 1 << 18;
export const LARGE_IDS = 2 * PART_IDS;

/**
 * The bytes of `count` ids, decoded part by part with `decodePart(start, end)` (which decodes ids[start, end) and
 * returns a view of their bytes valid until the next call), gathered in one Uint8Array: a view of its first bytes
 * (the buffer is sized from the first part's bytes per id, so it may be longer). One copy per part, and one buffer
 * that is grown only when the later parts hold longer tokens.
 * @param {number} count
 * @param {(start: number, end: number) => Uint8Array} decodePart
 * @returns {Uint8Array}
 */
export function decodeInParts(count, decodePart) {
  let out = new Uint8Array(0);
  let size = 0;
  for (let start = 0; start < count; start += PART_IDS) {
    const end = Math.min(count, start + PART_IDS);
    const bytes = decodePart(start, end);
    if (size + bytes.length > out.length) {
      // The bytes so far per id, for the ids still to come, plus an eighth.
      const rest = Math.ceil((((size + bytes.length) / end) * (count - end) * 9) / 8);
      const grown = new Uint8Array(Math.max(size + bytes.length + rest, 2 * out.length));
      grown.set(out.subarray(0, size));
      out = grown;
    }
    out.set(bytes, size);
    size += bytes.length;
  }
  return out.subarray(0, size);
}

function merge(results) {
  const count = results.reduce((sum, r) => sum + r.count, 0);
  const merged = { count };
  for (const key of ['ids', 'starts', 'ends', 'input']) {
    if (results.length > 0 && results[0][key] !== undefined) {
      const total = results.reduce((sum, r) => sum + r[key].length, 0);
      const out = new results[0][key].constructor(total);
      let at = 0;
      for (const r of results) {
        out.set(r[key], at);
        at += r[key].length;
      }
      merged[key] = out;
    }
  }
  return merged;
}

// UTF-8 length of a string as TextEncoder writes it (a lone surrogate becomes the 3 bytes of U+FFFD).
function utf8Length(text) {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      length += 1;
    } else if (c < 0x800) {
      length += 2;
    } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        length += 4;
        i++;
      } else {
        length += 3;
      }
    } else {
      length += 3;
    }
  }
  return length;
}
