// Streaming tokenization: encodeStream/countStream over an async iterable, iterable or ReadableStream of strings or
// bytes, decodeStream over ids, and isWithinTokenLimit, which stops once the limit is passed. The text is cut only
// where the ids cannot change (safe_cut.js; a Hugging Face tokenizer's core finds its cuts), so the results equal
// encoding the whole text at once; memory holds one chunk plus the text since the last cut.
import { describe, requireInteger, requireOptions } from '../runtime/checks.js';
import { CoreCuts, CUT_PART, SafeCuts } from './safe_cut.js';
import { specialTexts, withByteOffset } from './parts.js';

const textEncoder = new TextEncoder();
const MAX_BUFFER = 0xffffffff; // the core's text limit (spans are uint32)

function isReadableStream(source) {
  return typeof source?.getReader === 'function';
}

/** Throws unless `source` can be iterated by chunksOf; `name` names it in the message. */
function requireSource(name, source, what) {
  const iterable =
    source !== null &&
    typeof source === 'object' &&
    (typeof source[Symbol.asyncIterator] === 'function' || typeof source[Symbol.iterator] === 'function');
  if (!iterable && !isReadableStream(source)) {
    const hint = typeof source === 'string' ? ' (for one string, call encode/count/decode directly)' : '';
    throw new TypeError(
      `${name} must be an async iterable, an iterable or a ReadableStream of ${what}, got ${describe(source)}${hint}`,
    );
  }
}

// The items of an async iterable, iterable or ReadableStream; a ReadableStream left early is cancelled.
async function* chunksOf(source) {
  if (!isReadableStream(source) || typeof source[Symbol.asyncIterator] === 'function') {
    yield* source;
    return;
  }
  const reader = source.getReader(); // browsers without ReadableStream async iteration
  let done = false;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) {
        done = true;
        return;
      }
      yield next.value;
    }
  } finally {
    if (!done) {
      await reader.cancel();
    }
    reader.releaseLock();
  }
}

// Bytes waiting to be encoded: a buffer reused from chunk to chunk, compacted before it grows.
class ByteQueue {
  buffer = new Uint8Array(1 << 16);
  start = 0;
  end = 0;

  get length() {
    return this.end - this.start;
  }

  view() {
    return this.buffer.subarray(this.start, this.end);
  }

  push(bytes) {
    if (this.end + bytes.length > this.buffer.length) {
      const needed = this.length + bytes.length;
      const target =
        needed > this.buffer.length ? new Uint8Array(Math.max(needed, 2 * this.buffer.length)) : this.buffer;
      target.set(this.view(), 0);
      this.buffer = target;
      this.end = this.length;
      this.start = 0;
    }
    this.buffer.set(bytes, this.end);
    this.end += bytes.length;
  }

  shift(count) {
    this.start += count;
    if (this.start === this.end) {
      this.start = this.end = 0;
    }
  }
}

// The stream options, checked; `special` holds the encode options of the tokenizer's kind (tiktoken's
// allowedSpecial/disallowedSpecial, or a Hugging Face tokenizer's addSpecialTokens/splitSpecialTokens).
function streamOptions(tokenizer, options) {
  const names = tokenizer.encodeOptionNames;
  const checked = requireOptions('options', options, [...names, 'chunkSize', 'maxBufferBytes']);
  const { chunkSize = 1 << 20, maxBufferBytes = 64 << 20 } = checked;
  requireInteger('options.chunkSize', chunkSize, 1, 1 << 30);
  requireInteger('options.maxBufferBytes', maxBufferBytes, chunkSize, MAX_BUFFER);
  const special = {};
  for (const name of names) {
    if (checked[name] !== undefined) {
      special[name] = checked[name];
    }
  }
  tokenizer.count('', special); // checks the encode options before any input is read
  return { special, chunkSize, maxBufferBytes };
}

// Whether the tokenizer's core finds the cuts (a Hugging Face tokenizer): its parts need the CUT_PART options.
function hasCoreCuts(tokenizer) {
  return typeof tokenizer.safeCut === 'function';
}

/** The encode options of a part: for core cuts, whether it follows a cut and whether another part follows it. */
export function partOptions(tokenizer, special, first, last) {
  return hasCoreCuts(tokenizer) ? { ...special, [CUT_PART]: { startsAfterCut: !first, endsAtCut: !last } } : special;
}

/**
 * The source's text as UTF-8 parts that end where the text can be cut, as {bytes, last}; bytes is a view valid
 * until the next part is asked for. Strings and bytes may be mixed; a string ending in the first half of a surrogate
 * pair waits for the second half, and bytes may end inside a UTF-8 character (cuts never fall inside one).
 */
async function* safeParts(tokenizer, source, { chunkSize, maxBufferBytes }) {
  const specials = specialTexts(tokenizer).bytes;
  const cutsOf = tokenizer.cutsSafely
    ? (data) => new SafeCuts(data, specials)
    : (data) => new CoreCuts(tokenizer, data);
  const queue = new ByteQueue();
  let highSurrogate = '';
  let searched = 1; // cuts below this index of the queue were looked for already
  let index = 0;
  for await (const item of chunksOf(source)) {
    if (typeof item === 'string') {
      let text = highSurrogate + item;
      const last = text.charCodeAt(text.length - 1);
      highSurrogate = last >= 0xd800 && last <= 0xdbff ? text.slice(-1) : '';
      text = highSurrogate ? text.slice(0, -1) : text;
      queue.push(textEncoder.encode(text));
    } else if (item instanceof Uint8Array || item instanceof ArrayBuffer) {
      queue.push(highSurrogate ? textEncoder.encode(highSurrogate) : new Uint8Array(0));
      highSurrogate = '';
      queue.push(item instanceof ArrayBuffer ? new Uint8Array(item) : item);
    } else {
      throw new TypeError(`source item ${index} must be a string or a Uint8Array, got ${describe(item)}`);
    }
    index++;
    while (queue.length >= chunkSize) {
      const cuts = cutsOf(queue.view());
      let cut = cuts.last(searched, chunkSize, false);
      if (cut < 0) {
        cut = cuts.first(Math.max(searched, chunkSize + 1), queue.length, false);
      }
      if (cut < 0) {
        if (queue.length > maxBufferBytes) {
          throw noCutError(queue.length, maxBufferBytes);
        }
        searched = Math.max(searched, cuts.horizon(false) + 1);
        break;
      }
      yield { bytes: queue.buffer.subarray(queue.start, queue.start + cut), last: false };
      queue.shift(cut);
      searched = 1;
    }
  }
  if (highSurrogate) {
    queue.push(textEncoder.encode(highSurrogate)); // a lone surrogate at the very end: U+FFFD, as encode() does
  }
  const rest = queue.view();
  const cuts = cutsOf(rest);
  let start = 0;
  do {
    const end = cuts.next(start, chunkSize);
    yield { bytes: rest.subarray(start, end), last: end === rest.length };
    start = end;
  } while (start < rest.length);
}

/**
 * The RangeError of a stream that found no cut within maxBufferBytes; `code` and `bufferedBytes` let a caller (the
 * CLI) say it in terms of its own options.
 */
function noCutError(bufferedBytes, maxBufferBytes) {
  const error = new RangeError(
    `options.maxBufferBytes: found no place to cut the text within ${bufferedBytes} bytes, more than ` +
      `${maxBufferBytes} (a single pre-tokenizer piece this long, e.g. a run of one letter or of spaces, ` +
      'cannot be encoded in parts, nor can the text of a Hugging Face tokenizer whose pipeline has no ' +
      'proven cut); raise maxBufferBytes, or encode the text whole',
  );
  return Object.assign(error, { code: NO_CUT, bufferedBytes, maxBufferBytes });
}

/** The `code` of the RangeError of a stream that found no cut within maxBufferBytes. */
export const NO_CUT = 'EMBEDLAB_NO_CUT';

// The source's parts, each with its offset in the whole text and its encode options, and `use(bytes, options)`'s
// result for each; errors from the core name the byte in the whole stream.
async function* encodedParts(tokenizer, source, checked, use) {
  let offset = 0;
  let first = true;
  for await (const { bytes, last } of safeParts(tokenizer, source, checked)) {
    let result;
    try {
      result = use(bytes, partOptions(tokenizer, checked.special, first, last));
    } catch (error) {
      throw withByteOffset(error, offset);
    }
    yield { result, offset };
    offset += bytes.length;
    first = false;
  }
}

/**
 * The parts encodeStream would encode, as {bytes, first, last, offset}; bytes is a view valid until the next part
 * (the CLI's worker threads copy it). `partOptions(tokenizer, special, first, last)` gives a part's encode options.
 */
export async function* streamParts(tokenizer, source, options) {
  requireSource('source', source, 'strings or Uint8Arrays');
  const checked = streamOptions(tokenizer, options);
  let offset = 0;
  let first = true;
  for await (const { bytes, last } of safeParts(tokenizer, source, checked)) {
    yield { bytes, first, last, offset };
    offset += bytes.length;
    first = false;
  }
}

/** encodeStream(source, options): an async generator of Uint32Array chunks of ids. */
export function encodeStream(tokenizer, source, options) {
  requireSource('source', source, 'strings or Uint8Arrays');
  const checked = streamOptions(tokenizer, options);
  return (async function* () {
    for await (const { result } of encodedParts(tokenizer, source, checked, (bytes, encodeOptions) =>
      tokenizer.encode(bytes, encodeOptions),
    )) {
      yield result;
    }
  })();
}

/**
 * tokensStream(source, options): an async generator of the tokens() of each part, their start and end being byte
 * offsets in the whole text: together exactly tokens() of the whole text, template tokens once (the CLI's JSON).
 */
export function tokensStream(tokenizer, source, options) {
  requireSource('source', source, 'strings or Uint8Arrays');
  const checked = streamOptions(tokenizer, options);
  return (async function* () {
    for await (const { result, offset } of encodedParts(tokenizer, source, checked, (bytes, encodeOptions) =>
      tokenizer.tokens(bytes, encodeOptions),
    )) {
      for (const token of result) {
        token.start += offset;
        token.end += offset;
      }
      yield result;
    }
  })();
}

/** countStream(source, options): the number of tokens encodeStream would give. */
export async function countStream(tokenizer, source, options) {
  requireSource('source', source, 'strings or Uint8Arrays');
  const checked = streamOptions(tokenizer, options);
  let count = 0;
  for await (const { result } of encodedParts(tokenizer, source, checked, (bytes, encodeOptions) =>
    tokenizer.count(bytes, encodeOptions),
  )) {
    count += result;
  }
  return count;
}

/**
 * decodeStream(idsSource): an async generator of the text of the ids as they come (items: ids or arrays/typed
 * arrays of ids). A character split between tokens is held back until its last byte arrives; empty strings are
 * not yielded.
 */
export function decodeStream(tokenizer, idsSource) {
  requireSource('idsSource', idsSource, 'token ids or arrays of token ids');
  return (async function* () {
    const decoder = tokenizer.decoder();
    let index = 0;
    for await (const item of chunksOf(idsSource)) {
      const isIds = Array.isArray(item) || (ArrayBuffer.isView(item) && !(item instanceof DataView));
      if (typeof item !== 'number' && !isIds) {
        throw new TypeError(
          `idsSource item ${index} must be a token id or an array/typed array of ids, got ${describe(item)}`,
        );
      }
      index++;
      const text = decoder.write(typeof item === 'number' ? [item] : item);
      if (text.length > 0) {
        yield text;
      }
    }
    const rest = decoder.end();
    if (rest.length > 0) {
      yield rest;
    }
  })();
}

/**
 * isWithinTokenLimit(text, limit, options): false when `text` has more than `limit` tokens, else its token count.
 * Encodes part by part and stops as soon as the count passes the limit. As with count(), a disallowed special
 * token anywhere in the text throws.
 */
export function isWithinTokenLimit(tokenizer, text, limit, options) {
  if (typeof text !== 'string' && !(text instanceof Uint8Array)) {
    throw new TypeError(`text must be a string or a Uint8Array, got ${describe(text)}`);
  }
  requireInteger('limit', limit, 0, Number.MAX_SAFE_INTEGER);
  if (hasCoreCuts(tokenizer)) {
    return isWithinLimitInCoreParts(tokenizer, text, limit, options);
  }
  const maxBytes = typeof text === 'string' ? 3 * text.length : text.length;
  if (maxBytes <= limit) {
    return tokenizer.count(text, options); // a token has at least one byte
  }
  const { strings, bytes } = specialTexts(tokenizer);
  const specials = typeof text === 'string' ? strings : bytes;
  // A special token the options disallow makes count() throw wherever it is: throw the same error up front.
  for (const [i, special] of specials.entries()) {
    if (typeof text === 'string' ? text.includes(special) : includesBytes(text, special)) {
      try {
        tokenizer.count(strings[i], options);
      } catch {
        tokenizer.count(text, options); // throws the error of the whole text, naming the byte
      }
    }
  }
  const cuts = new SafeCuts(text, specials);
  let count = 0;
  for (let start = 0, length = Math.max(4096, 4 * limit); start < text.length; length *= 2) {
    const end = cuts.next(start, length);
    count += tokenizer.count(
      typeof text === 'string' ? text.substring(start, end) : text.subarray(start, end),
      options,
    );
    if (count > limit) {
      return false;
    }
    start = end;
  }
  return count;
}

// isWithinTokenLimit for a tokenizer whose core finds the cuts: parts double in length from about 4 * limit bytes.
function isWithinLimitInCoreParts(tokenizer, text, limit, options) {
  tokenizer.count('', options); // checks the options before the text is copied
  const bytes = typeof text === 'string' ? textEncoder.encode(text) : text;
  const cuts = new CoreCuts(tokenizer, bytes);
  let count = 0;
  let start = 0;
  for (let length = Math.max(4096, 4 * limit); ; length *= 2) {
    const end = cuts.next(start, length);
    count += tokenizer.count(
      bytes.subarray(start, end),
      partOptions(tokenizer, options, start === 0, end === bytes.length),
    );
    if (count > limit) {
      return false;
    }
    start = end;
    if (start >= bytes.length) {
      return count;
    }
  }
}

function includesBytes(bytes, pattern) {
  for (
    let p = bytes.indexOf(pattern[0]);
    p >= 0 && p + pattern.length <= bytes.length;
    p = bytes.indexOf(pattern[0], p + 1)
  ) {
    let k = 1;
    while (k < pattern.length && bytes[p + k] === pattern[k]) {
      k++;
    }
    if (k === pattern.length) {
      return true;
    }
  }
  return false;
}
