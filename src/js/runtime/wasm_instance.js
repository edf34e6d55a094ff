// The base of both entries' instances (EmbedLab, Tokenizers): one loaded wasm module, what its core reports at
// start-up, its memory, the call wrapper that turns a recorded C++ error into a JS error, and the staging buffer.
// The domain functions (tokenizer/create.js, model/create.js, …) take the instance's internals {lab, raw, stage},
// which internalsOf() hands to the subclasses and nothing else.
/** @import { LabInternals, Limits } from './types.js' */
const ERROR_TYPES = { RangeError, TypeError, Error };
/** @type {WeakMap<WasmInstance, LabInternals<any>>} */
const internals = new WeakMap();

/**
 * The internals {lab, raw, stage} of an instance, for the package's own domain functions.
 * @template {WasmInstance} L
 * @param {L} instance
 * @returns {LabInternals<L>}
 */
export function internalsOf(instance) {
  return /** @type {LabInternals<L>} */ (internals.get(instance));
}

/** @import { EmbedLab } from '../lab.js' */
/** @import { Tokenizers } from '../tokenizer/tokenizers.js' */

/** What every loaded instance has: {@link EmbedLab} and {@link Tokenizers} extend it. */
export class WasmInstance {
  /** @type {any} */
  #raw;

  /**
   * @internal
   * @param {any} raw the Embind module
   * @param {'simd' | 'fallback'} flavour
   */
  constructor(raw, flavour) {
    this.#raw = raw;
    internals.set(this, Object.freeze({ lab: this, raw, stage: (bytes) => this.#stage(bytes) }));
    /**
     * Package version.
     * @readonly
     * @type {string}
     */
    this.version = raw.version();
    /**
     * Highway target of the kernels: "WASM" (SIMD128) or "EMU128".
     * @readonly
     * @type {'WASM' | 'EMU128'}
     */
    this.simdTarget = raw.simdTarget();
    /**
     * "simd" or "fallback".
     * @readonly
     * @type {'simd' | 'fallback'}
     */
    this.flavour = flavour;
    /**
     * Size caps, the same the C++ core enforces.
     * @readonly
     * @type {Limits}
     */
    this.limits = Object.freeze(raw.limits());
  }

  /**
   * Wasm memory in use: the memory's size and the bytes malloc has handed out.
   * @returns {{ heapBytes: number; allocatedBytes: number }}
   */
  memory() {
    return { heapBytes: this.#raw.HEAPU8.length, allocatedBytes: this.#raw.allocatedBytes() };
  }

  /**
   * Runs a raw call and turns a recorded C++ error into a thrown JS error.
   * @internal
   * @template T
   * @param {() => T} body
   * @returns {T}
   */
  call(body) {
    const result = body();
    if (this.#raw.hasError()) {
      const { kind, message } = this.#raw.takeError();
      throw new (ERROR_TYPES[kind] ?? Error)(message);
    }
    return result;
  }

  /**
   * Copies bytes into the wasm staging buffer that the next raw call reads.
   * @param {Uint8Array} bytes
   */
  #stage(bytes) {
    const raw = this.#raw;
    const pointer = this.call(() => raw.stagingBuffer(bytes.length));
    raw.HEAPU8.set(bytes, pointer);
  }
}
