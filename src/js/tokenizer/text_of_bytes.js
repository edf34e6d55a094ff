// Decoded UTF-8 bytes into a JS string, with a faster path for ASCII.
const textDecoder = new TextDecoder('utf-8'); // without {stream}, decode() keeps no state between calls
// Node's Buffer turns ASCII bytes into a string about 3x faster than TextDecoder (a plain copy); for bytes
// below 0x80, Latin-1 and UTF-8 give the same string.
const NodeBuffer = typeof process === 'object' && typeof globalThis.Buffer === 'function' ? globalThis.Buffer : null;

/**
 * The string of UTF-8 `bytes` (invalid sequences become U+FFFD); `ascii`: whether every byte is below 0x80.
 * @param {Uint8Array} bytes
 * @param {boolean} ascii
 * @returns {string}
 */
export function textOfBytes(bytes, ascii) {
  if (ascii && NodeBuffer !== null) {
    return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1');
  }
  return textDecoder.decode(bytes);
}
