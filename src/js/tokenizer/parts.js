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
 * The bytes of `ids`, decoded part by part with `decodePart(part)` (which returns a view of the part's bytes valid
 * until the next call) into a new Uint8Array. Errors name the id's index in the whole array.
 * @param {any} ids an array or typed array, checked by the caller
 * @param {(part: ArrayLike<number>) => Uint8Array} decodePart
 * @returns {Uint8Array}
 */
export function decodeInParts(ids, decodePart) {
  const pieces = [];
  let total = 0;
  for (let start = 0; start < ids.length; start += PART_IDS) {
    const part = ArrayBuffer.isView(ids)
      ? /** @type {Uint32Array} */ (ids).subarray(start, start + PART_IDS)
      : ids.slice(start, start + PART_IDS);
    try {
      pieces.push(decodePart(part).slice());
    } catch (error) {
      if (start > 0 && error instanceof Error) {
        error.message = error.message.replace(/ids\[(\d+)\]/, (_, at) => `ids[${Number(at) + start}]`);
      }
      throw error;
    }
    total += /** @type {Uint8Array} */ (pieces.at(-1)).length;
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
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
