// `embedlab tokenize` and `embedlab count` stream FILE (or stdin) through the tokenizer's streaming methods, so a
// corpus of any size is tokenized in memory bounded by the chunk plus the text since the last cut, at most
// --max-buffer-bytes (see tokenizer/stream.js).
import { once } from 'node:events';
import { createReadStream, existsSync, statSync } from 'node:fs';

import { HfTokenizer } from '../tokenizer/hf_tokenizer.js';
import { NO_CUT, tokensStream } from '../tokenizer/stream.js';
import { UsageError } from './usage_error.js';

// Special-token text counts as special tokens: tiktoken's allowedSpecial 'all'; a Hugging Face tokenizer matches its
// added tokens and adds its template's tokens (BOS) by default, as transformers' encode() does.
export function specialOptions(tokenizer) {
  return tokenizer instanceof HfTokenizer ? {} : { allowedSpecial: 'all' };
}

/** --chunk-size of `command` as a number; a bad one is a usage error naming the option. */
export function chunkSizeOption(text, command) {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > 1 << 30) {
    throw new UsageError(`--chunk-size must be an integer in [1, ${1 << 30}], got ${text}`, command);
  }
  return value;
}

const JSON_PART_BYTES = 1 << 16;
const DEFAULT_MAX_BUFFER = 64 << 20; // the streams' own default
const MAX_BUFFER = 0xffffffff; // the core's text limit

/**
 * --max-buffer-bytes of `command` as a number (default 64 MiB, or the chunk size when larger); a bad one, or one
 * below --chunk-size, is a usage error naming the option.
 */
export function maxBufferOption(text, chunkSize, command) {
  if (text === undefined) {
    return Math.max(DEFAULT_MAX_BUFFER, chunkSize);
  }
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value) || value < chunkSize || value > MAX_BUFFER) {
    throw new UsageError(
      `--max-buffer-bytes must be an integer in [--chunk-size (${chunkSize}), ${MAX_BUFFER}], got ${text}`,
      command,
    );
  }
  return value;
}

/** The stream's RangeError for a text with no cut within maxBufferBytes, said in terms of the options. */
export function withBufferHint(error) {
  if (error?.code !== NO_CUT) {
    return error;
  }
  return new RangeError(
    `found no place to cut the text within ${error.bufferedBytes} bytes, more than --max-buffer-bytes ` +
      `${error.maxBufferBytes}: a stretch this long without a safe cut (e.g. a run of one letter or of spaces, or ` +
      'a tokenizer.json whose pipeline has no proven cut) is held in memory whole; raise --max-buffer-bytes ' +
      `(at most ${MAX_BUFFER}) to allow it`,
  );
}

/** A FILE that does not exist but looks like text (it has spaces) gets a hint instead of ENOENT. */
export function refuseTextAsFile(file) {
  if (file !== undefined && !existsSync(file) && /\s/.test(file)) {
    throw new TypeError(
      `no file named "${file}": FILE is a path; to pass text, pipe it: echo '${file}' | embedlab ...`,
    );
  }
}

/** FILE as a stream of chunks, or stdin without one. */
export function inputStream(file, chunkSize) {
  refuseTextAsFile(file);
  if (file !== undefined && existsSync(file) && statSync(file).isDirectory()) {
    throw new TypeError(`"${file}" is a directory: FILE must be a file (or omit it to read stdin)`);
  }
  return file === undefined ? process.stdin : createReadStream(file, { highWaterMark: Math.min(chunkSize, 1 << 24) });
}

// Writes `text` (a string or bytes), waiting when the output's buffer is full.
async function write(output, text) {
  if (!output.write(text)) {
    await once(output, 'drain');
  }
}

// The stream options of the commands: special-token text as special tokens, the chunk and the buffer limit.
export function streamOptions(tokenizer, { chunkSize, maxBufferBytes }) {
  return { ...specialOptions(tokenizer), chunkSize, maxBufferBytes };
}

/** Token count of FILE (stdin without one), special-token text counted as special tokens. */
export async function countFile(tokenizer, file, options) {
  return tokenizer.countStream(inputStream(file, options.chunkSize), streamOptions(tokenizer, options));
}

/** Ids separated by spaces and a final newline, as the whole text's ids would print. */
export async function writeIds(tokenizer, file, { chunkSize, maxBufferBytes, output = process.stdout }) {
  let separator = '';
  const options = streamOptions(tokenizer, { chunkSize, maxBufferBytes });
  for await (const ids of tokenizer.encodeStream(inputStream(file, chunkSize), options)) {
    if (ids.length > 0) {
      await write(output, separator + ids.join(' '));
      separator = ' ';
    }
  }
  await write(output, '\n');
}

/**
 * One JSON array of {id, start, end, text}, start and end being byte offsets in the whole input (and the vocabulary's
 * token string, `token`, for a Hugging Face tokenizer), streamed in parts as the ids are: template tokens once.
 */
export async function writeTokensJson(tokenizer, file, { chunkSize, maxBufferBytes, output = process.stdout }) {
  let separator = '[';
  // A token's span object, bytes and JSON take some hundreds of bytes of JS heap, left to the collector: parts of at
  // most 64 KiB keep that small (measured on 30 MB with Llama 3.1: 1 GB peak with 1 MiB parts, 274 MB with these).
  const partSize = Math.min(chunkSize, JSON_PART_BYTES);
  const options = streamOptions(tokenizer, { chunkSize: partSize, maxBufferBytes });
  const parts = tokensStream(tokenizer, inputStream(file, chunkSize), options);
  for await (const part of parts) {
    const tokens = part.map(({ id, token, start, end, text }) => JSON.stringify({ id, token, start, end, text }));
    if (tokens.length > 0) {
      await write(output, separator + tokens.join(','));
      separator = ',';
    }
  }
  await write(output, separator === '[' ? '[]\n' : ']\n');
}
