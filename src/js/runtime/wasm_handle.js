// JS objects that own wasm memory. dispose() (or `using`) frees it; a FinalizationRegistry frees what a
// caller forgets, as a safety net only: it runs late or not at all.
/// <reference path="./types.d.ts" />
/** @import { WasmInstance } from './wasm_instance.js' */

// Typed as Symbol.dispose, which `using` calls where it exists; the declared [Symbol.dispose]() is this method.
/** @type {typeof Symbol.dispose} */
const disposeSymbol = Symbol.dispose ?? Symbol.for('Symbol.dispose');
// Cloudflare Workers before compatibility date 2025-05-05 have no FinalizationRegistry: there dispose() is the
// only way memory comes back, and the package must still load.
const registry =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry((raw) => {
        try {
          raw.delete();
        } catch {
          // Already freed with its instance: nothing left to do.
        }
      })
    : { register() {}, unregister() {} };

/** Base of every object that holds wasm memory: free it with `dispose()` or a `using` declaration. */
export class WasmHandle {
  /** @type {any} */
  #raw;
  /** @type {WasmInstance} */
  #lab;

  /**
   * @internal
   * @param {WasmInstance} lab the instance whose module holds the object
   * @param {any} raw the Embind object
   */
  constructor(lab, raw) {
    this.#lab = lab;
    this.#raw = raw;
    registry.register(this, raw, this);
  }

  /**
   * The raw Embind object; throws once disposed.
   * @internal
   * @param {string} [argumentName] who asks, for the error message
   * @returns {any}
   */
  raw(argumentName = this.constructor.name) {
    if (this.#raw === null) {
      throw new Error(`${argumentName} has been disposed; create a new ${this.constructor.name}`);
    }
    return this.#raw;
  }

  /**
   * @internal
   * @returns {WasmInstance}
   */
  get lab() {
    return this.#lab;
  }

  /** True once `dispose()` ran; every method then throws. */
  get disposed() {
    return this.#raw === null;
  }

  /** Frees the wasm memory now. Safe to call twice. A FinalizationRegistry frees forgotten objects as a fallback. */
  dispose() {
    if (this.#raw === null) {
      return;
    }
    registry.unregister(this);
    this.#raw.delete();
    this.#raw = null;
  }

  /** `dispose()`, for `using`. */
  [disposeSymbol]() {
    this.dispose();
  }
}
