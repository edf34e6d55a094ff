// Text and ids into the wasm heap for a raw tokenizer handle (BPE or Hugging Face, which share this interface):
// text written straight into the handle's input buffer with TextEncoder.encodeInto, ids checked and copied into its
// id buffer.
import { describe } from '../runtime/checks.js';
/** @import { WasmInstance } from '../runtime/wasm_instance.js' */

const textEncoder = new TextEncoder();
const MAX_ID = 0xffffffff;

/**
 * @param {ArrayLike<number>} ids checked here
 * @returns {ArrayLike<number>}
 */
export function requireTokenIds(ids) {
  if (ids instanceof Uint32Array || ids instanceof Uint16Array || ids instanceof Uint8Array) {
    return ids;
  }
  if (!Array.isArray(ids) && !(ArrayBuffer.isView(ids) && !(ids instanceof DataView))) {
    throw new TypeError(`ids must be an array or typed array of token ids, got ${describe(ids)}`);
  }
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    if (typeof id !== 'number') {
      throw new TypeError(`ids[${i}] must be an integer token id, got ${describe(id)}`);
    }
    if (!Number.isInteger(id) || id < 0 || id > MAX_ID) {
      throw new RangeError(`ids[${i}] must be an integer in [0, ${MAX_ID}], got ${describe(id)}`);
    }
  }
  return ids;
}

/**
 * Writes `text` (a string, as UTF-8, or a Uint8Array) into the raw handle's input buffer; returns its byte count.
 * @param {WasmInstance} lab
 * @param {any} raw
 * @param {any} module the Embind module
 * @param {unknown} text
 * @returns {number}
 */
export function writeInput(lab, raw, module, text) {
  if (typeof text === 'string') {
    const capacity = text.length * 3; // UTF-16 code unit -> at most 3 UTF-8 bytes
    const pointer = lab.call(() => raw.inputBuffer(capacity));
    return textEncoder.encodeInto(text, module.HEAPU8.subarray(pointer, pointer + capacity)).written;
  }
  if (text instanceof Uint8Array) {
    const pointer = lab.call(() => raw.inputBuffer(text.length));
    module.HEAPU8.set(text, pointer);
    return text.length;
  }
  throw new TypeError(`text must be a string or a Uint8Array, got ${describe(text)}`);
}

/**
 * Decodes checked `ids` through the raw handle (rawArguments after the id count): a view of the bytes in the wasm
 * heap, valid until the next call.
 * @param {WasmInstance} lab
 * @param {any} raw
 * @param {any} module the Embind module
 * @param {ArrayLike<number>} ids
 * @param {any[]} rawArguments
 * @returns {Uint8Array}
 */
export function decodeIntoView(lab, raw, module, ids, rawArguments) {
  const pointer = lab.call(() => raw.idBuffer(ids.length));
  module.HEAPU32.set(ids, pointer >>> 2);
  const size = lab.call(() => raw.decode(ids.length, ...rawArguments));
  const bytes = raw.bytesPointer();
  return module.HEAPU8.subarray(bytes, bytes + size);
}
