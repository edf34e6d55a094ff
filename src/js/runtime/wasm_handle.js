// JS objects that own wasm memory. dispose() (or `using`) frees it; a FinalizationRegistry frees what a
// caller forgets, as a safety net only: it runs late or not at all.

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

export class WasmHandle {
  #raw;
  #lab;

  constructor(lab, raw) {
    this.#lab = lab;
    this.#raw = raw;
    registry.register(this, raw, this);
  }

  /** The raw Embind object; throws once disposed. */
  raw(argumentName = this.constructor.name) {
    if (this.#raw === null) {
      throw new Error(`${argumentName} has been disposed; create a new ${this.constructor.name}`);
    }
    return this.#raw;
  }

  get lab() {
    return this.#lab;
  }

  get disposed() {
    return this.#raw === null;
  }

  dispose() {
    if (this.#raw === null) {
      return;
    }
    registry.unregister(this);
    this.#raw.delete();
    this.#raw = null;
  }

  [disposeSymbol]() {
    this.dispose();
  }
}
