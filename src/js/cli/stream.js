// `embedlab tokenize` and `embedlab count` stream FILE (or stdin) through the tokenizer's streaming methods, so a
// corpus of any size is tokenized in memory bounded by the chunk size (see tokenizer/stream.js).
import { once } from 'node:events';
import { createReadStream, existsSync, statSync } from 'node:fs';

import { HfTokenizer } from '../tokenizer/hf_tokenizer.js';
import { safeTextParts } from '../tokenizer/stream.js';
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

/** Token count of FILE (stdin without one), special-token text counted as special tokens. */
export async function countFile(tokenizer, file, { chunkSize }) {
  return tokenizer.countStream(inputStream(file, chunkSize), { ...specialOptions(tokenizer), chunkSize });
}

/** Ids separated by spaces and a final newline, as the whole text's ids would print. */
export async function writeIds(tokenizer, file, { chunkSize, output = process.stdout }) {
  let separator = '';
  const options = { ...specialOptions(tokenizer), chunkSize };
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
 * token string, `token`, for a Hugging Face tokenizer).
 */
export async function writeTokensJson(tokenizer, file, { chunkSize, output = process.stdout }) {
  let offset = 0;
  let separator = '[';
  const special = specialOptions(tokenizer);
  const parts = safeTextParts(tokenizer, inputStream(file, chunkSize), { ...special, chunkSize });
  for await (const part of parts) {
    const tokens = tokenizer
      .tokens(part, special)
      .map(({ id, token, start, end, text }) =>
        JSON.stringify({ id, token, start: start + offset, end: end + offset, text }),
      );
    if (tokens.length > 0) {
      await write(output, separator + tokens.join(','));
      separator = ',';
    }
    offset += part.length;
  }
  await write(output, separator === '[' ? '[]\n' : ']\n');
}
