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
  if (!isUnsignedIdArray(requireIdArray(ids))) {
    checkIds(ids, 0, ids.length);
  }
  return ids;
}

// Throws unless every one of ids[start, end) is an integer in [0, MAX_ID] (`id >>> 0 === id` holds exactly for
// those numbers, -0 included; typeof first, so that no valueOf is called).
function checkIds(ids, start, end) {
  for (let i = start; i < end; i++) {
    const id = ids[i];
    if (typeof id !== 'number' || id >>> 0 !== id) {
      throw idError(i, id);
    }
  }
}

/**
 * Throws unless `ids` is an array or a typed array; its elements are checked where they are read.
 * @param {ArrayLike<number>} ids
 * @returns {ArrayLike<number>}
 */
export function requireIdArray(ids) {
  if (!isUnsignedIdArray(ids) && !Array.isArray(ids) && !(ArrayBuffer.isView(ids) && !(ids instanceof DataView))) {
    throw new TypeError(`ids must be an array or typed array of token ids, got ${describe(ids)}`);
  }
  return ids;
}

// Arrays whose every element is a valid id as it stands.
const isUnsignedIdArray = (ids) =>
  ids instanceof Uint32Array || ids instanceof Uint16Array || ids instanceof Uint8Array;

// The error for ids[i] = id, which is not an integer in [0, MAX_ID].
function idError(i, id) {
  if (typeof id !== 'number') {
    return new TypeError(`ids[${i}] must be an integer token id, got ${describe(id)}`);
  }
  return new RangeError(`ids[${i}] must be an integer in [0, ${MAX_ID}], got ${describe(id)}`);
}

/**
 * Copies ids[start, end) of an array checked by requireIdArray into `heap` from index `at`, checking each id that is
 * not from a Uint8/16/32Array.
 * @param {Uint32Array} heap
 * @param {number} at
 * @param {ArrayLike<number>} ids
 * @param {number} start
 * @param {number} end
 */
function copyIds(heap, at, ids, start, end) {
  if (isUnsignedIdArray(ids)) {
    const typed = /** @type {Uint32Array} */ (ids);
    heap.set(start === 0 && end === typed.length ? typed : typed.subarray(start, end), at);
    return;
  }
  if (start === 0 && end === ids.length) {
    checkIds(ids, start, end); // a check loop, then TypedArray.set: faster than one loop that checks and stores
    heap.set(/** @type {number[]} */ (ids), at);
    return;
  }
  // Part of an array: each id stored as it is checked (a slice for set() would cost an allocation and a copy).
  const offset = at - start;
  for (let i = start; i < end; i++) {
    const id = ids[i];
    if (typeof id !== 'number' || id >>> 0 !== id) {
      throw idError(i, id);
    }
    heap[offset + i] = id;
  }
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
 * Decodes ids[start, end) of an array checked by requireIdArray (each id is checked here) through the raw handle
 * (rawArguments after the id count): a view of the bytes in the wasm heap, valid until the next call.
 * @param {WasmInstance} lab
 * @param {any} raw
 * @param {any} module the Embind module
 * @param {ArrayLike<number>} ids
 * @param {number} start
 * @param {number} end
 * @param {any[]} rawArguments
 * @returns {Uint8Array}
 */
export function decodeIntoView(lab, raw, module, ids, start, end, rawArguments) {
  const count = end - start;
  const pointer = lab.call(() => raw.idBuffer(count));
  copyIds(module.HEAPU32, pointer >>> 2, ids, start, end);
  let size;
  try {
    size = lab.call(() => raw.decode(count, ...rawArguments));
  } catch (error) {
    // The core names the id's index among the ids it was given; name it in the whole array.
    if (start > 0 && error instanceof Error) {
      error.message = error.message.replace(/ids\[(\d+)\]/, (_, at) => `ids[${Number(at) + start}]`);
    }
    throw error;
  }
  const bytes = raw.bytesPointer();
  return module.HEAPU8.subarray(bytes, bytes + size);
}
