// `embedlab tokenize --format bin`: token ids as uint32 little-endian (nanoGPT's train.bin), streamed so a corpus
// of any size can be tokenized in bounded memory.
import { createReadStream } from 'node:fs';
import { once } from 'node:events';

const NEWLINE = 0x0a;
const RETURN = 0x0d;
const isAsciiLetterOrDigit = (byte) =>
  (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a);
const isVisibleAscii = (byte) => byte > 0x20 && byte < 0x7f;

// The last index where the text can be cut without changing its ids, or -1. Two kinds of places, safe in every
// pre-tokenizer pattern (gpt2, cl100k, o200k); no pattern looks behind, so matching after a place where the whole
// text has a piece boundary goes on as at the start of a text, and BPE never merges across pieces:
//   - a letter or digit, then "\n" or "\r" (cut between): a letter or digit run ends the same before a line
//     break as at the end of a text, and never takes the line break in;
//   - a visible ASCII character, "\n", then a letter or digit (cut after the "\n"): the line break ends its piece
//     (".\n" in cl100k, "\n" alone in gpt2) both there and at the end of a text. A longer whitespace run would
//     not do: at the end of a text gpt2's \s+(?!\S) keeps "\n\n" whole, before a letter it splits it.
// Line breaks are never part of a multi-byte UTF-8 character. Only indices >= `from` are tried (the text before
// it was searched already).
export function lastSafeCut(bytes, from = 1) {
  for (let i = bytes.length - 1; i >= Math.max(1, from); --i) {
    const before = bytes[i - 1];
    const at = bytes[i];
    if ((at === NEWLINE || at === RETURN) && isAsciiLetterOrDigit(before)) {
      return i;
    }
    if (before === NEWLINE && isAsciiLetterOrDigit(at) && i >= 2 && isVisibleAscii(bytes[i - 2])) {
      return i;
    }
  }
  return -1;
}

function littleEndianBytes(ids) {
  const bytes = new Uint8Array(ids.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < ids.length; ++i) {
    view.setUint32(i * 4, ids[i], true);
  }
  return bytes;
}

// Reads `file` (stdin without one) in chunks of `chunkSize` bytes and writes the ids of each safe prefix to
// `output` as it goes. Memory: one chunk plus the text since the last safe cut (a file without newlines is
// read whole).
export async function tokenizeBin(tokenizer, file, { chunkSize = 1 << 20, output = process.stdout } = {}) {
  if (!Number.isInteger(chunkSize) || chunkSize < 1 || chunkSize > 1 << 30) {
    throw new RangeError(`--chunk-size must be an integer in [1, ${1 << 30}], got ${chunkSize}`);
  }
  const input = file ? createReadStream(file, { highWaterMark: chunkSize }) : process.stdin;
  const write = async (text) => {
    if (text.length === 0) {
      return;
    }
    const ids = tokenizer.encode(text, { allowedSpecial: 'all' });
    if (!output.write(littleEndianBytes(ids))) {
      await once(output, 'drain');
    }
  };
  let pending = new Uint8Array(0);
  for await (const chunk of input) {
    const text = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    const cut = lastSafeCut(text, pending.length);
    if (cut < 0) {
      pending = text;
      continue;
    }
    await write(text.subarray(0, cut));
    pending = Uint8Array.prototype.slice.call(text, cut); // a copy, so the chunk behind it can be freed
  }
  await write(pending);
}
