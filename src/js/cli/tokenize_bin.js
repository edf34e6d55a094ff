// `embedlab tokenize --format bin`: token ids as uint32 little-endian (nanoGPT's train.bin), streamed so a corpus
// of any size can be tokenized in bounded memory (cuts: tokenizer/safe_cut.js, streaming: tokenizer/stream.js).
import { once } from 'node:events';

import { chunkSizeOption, inputStream, maxBufferOption, streamOptions } from './stream.js';
import { encodeInThreads } from './tokenize_threads.js';

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function littleEndianBytes(ids) {
  if (LITTLE_ENDIAN) {
    return new Uint8Array(ids.buffer, ids.byteOffset, ids.length * 4); // the ids' own bytes already are
  }
  const bytes = new Uint8Array(ids.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < ids.length; ++i) {
    view.setUint32(i * 4, ids[i], true);
  }
  return bytes;
}

/**
 * Reads `file` (stdin without one) in chunks of `chunkSize` bytes and writes the ids of each part to `output` as it
 * goes. Memory: one chunk plus the text since the last place where it can be cut (at most maxBufferBytes, default
 * that of --max-buffer-bytes), and with `threads` > 1 two parts per thread in flight. `values` (the command's
 * options) let each thread open the same tokenizer.
 * @param {any} tokenizer
 * @param {string | undefined} file
 * @param {{ chunkSize?: number; maxBufferBytes?: number; output?: any; threads?: number; values?: object;
 *   flavour?: 'simd' | 'fallback' }} [options]
 */
export async function tokenizeBin(
  tokenizer,
  file,
  { chunkSize = 1 << 20, maxBufferBytes, output = process.stdout, threads = 1, values = {}, flavour } = {},
) {
  chunkSizeOption(String(chunkSize), 'tokenize');
  const options = { chunkSize, maxBufferBytes: maxBufferBytes ?? maxBufferOption(undefined, chunkSize, 'tokenize') };
  const write = async (chunk) => {
    if (chunk.length > 0 && !output.write(littleEndianBytes(chunk))) {
      await once(output, 'drain');
    }
  };
  if (threads > 1) {
    const job = { values, command: 'tokenize', file, threads, ...options, mode: /** @type {const} */ ('ids'), flavour };
    return encodeInThreads(tokenizer, job, write);
  }
  for await (const chunk of tokenizer.encodeStream(inputStream(file, chunkSize), streamOptions(tokenizer, options))) {
    await write(chunk);
  }
}
