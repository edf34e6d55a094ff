// Decoded UTF-8 bytes into a JS string: TextDecoder's string, made faster in node. V8's UTF-8 decoder (behind
// TextDecoder and Buffer's utf8) goes byte by byte after the first non-ASCII byte (about 0.6 GB/s on English text,
// 0.4 GB/s on other scripts, measured in node 20), while a Latin-1 or UTF-16 string is made by a copy (several GB/s).
// So in node: ASCII bytes become a string as Latin-1; valid UTF-8 of some size is transcoded to UTF-16 by ICU
// (buffer.transcode, about 1.6-3× TextDecoder) and made a string from that; anything else (invalid UTF-8, which
// TextDecoder replaces with U+FFFD, or a leading byte-order mark, which it drops) goes to TextDecoder.
const textDecoder = new TextDecoder('utf-8'); // without {stream}, decode() keeps no state between calls
const NodeBuffer = typeof process === 'object' && typeof globalThis.Buffer === 'function' ? globalThis.Buffer : null;
// Below this many bytes, TextDecoder's smaller fixed cost wins.
const TRANSCODE_BYTES = 2048;
const nodeTranscoding = findNodeTranscoding();
/** Whether this runtime takes the transcoding path (for the tests). @internal */
export const transcodes = nodeTranscoding !== null;

/**
 * buffer's {transcode, isUtf8} where they exist and transcode UTF-8 to UTF-16 as TextDecoder decodes it (checked
 * once on text with 2-, 3- and 4-byte characters, since runtimes that imitate node may lack or differ in them).
 * @returns {{ transcode: Function; isUtf8: (bytes: Uint8Array) => boolean } | null}
 */
function findNodeTranscoding() {
  try {
    const getBuiltin = typeof process === 'object' ? process.getBuiltinModule : undefined;
    const buffer = typeof getBuiltin === 'function' ? getBuiltin('buffer') : null;
    if (NodeBuffer === null || typeof buffer?.transcode !== 'function' || typeof buffer?.isUtf8 !== 'function') {
      return null;
    }
    const sample = 'aé€😀\u0000z';
    const bytes = NodeBuffer.from(sample, 'utf8');
    const units = buffer.transcode(bytes, 'utf8', 'ucs2');
    return buffer.isUtf8(bytes) && units.toString('ucs2') === sample ? buffer : null;
  } catch {
    return null;
  }
}

/**
 * The string of UTF-8 `bytes` as TextDecoder('utf-8').decode gives it (invalid sequences become U+FFFD, a leading
 * byte-order mark is dropped); `ascii`: whether every byte is below 0x80.
 * @param {Uint8Array} bytes
 * @param {boolean} ascii
 * @returns {string}
 */
export function textOfBytes(bytes, ascii) {
  if (NodeBuffer !== null) {
    const buffer = NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    if (ascii) {
      return buffer.toString('latin1'); // for bytes below 0x80, Latin-1 and UTF-8 give the same string
    }
    if (
      nodeTranscoding !== null &&
      bytes.length >= TRANSCODE_BYTES &&
      !(bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) &&
      nodeTranscoding.isUtf8(bytes)
    ) {
      return nodeTranscoding.transcode(buffer, 'utf8', 'ucs2').toString('ucs2');
    }
  }
  return textDecoder.decode(bytes);
}
