// The base of both entries' instances (EmbedLab, Tokenizers): one loaded wasm module, what its core reports at
// start-up, its memory, the call wrapper that turns a recorded C++ error into a JS error, and the staging buffer.
// The domain functions (tokenizer/loading.js, model/create.js, …) take the instance's internals {lab, raw, stage},
// which internalsOf() hands to the subclasses and nothing else.
const ERROR_TYPES = { RangeError, TypeError, Error };
const internals = new WeakMap();

/** The internals {lab, raw, stage} of an instance, for the package's own domain functions. */
export function internalsOf(instance) {
  return internals.get(instance);
}

export class WasmInstance {
  #raw;

  constructor(raw, flavour) {
    this.#raw = raw;
    internals.set(this, Object.freeze({ lab: this, raw, stage: (bytes) => this.#stage(bytes) }));
    /** Package version. */
    this.version = raw.version();
    /** Highway target the kernels run on: "WASM" (SIMD128) or "EMU128" (no SIMD). */
    this.simdTarget = raw.simdTarget();
    /** Which module was loaded: "simd" or "fallback". */
    this.flavour = flavour;
    /** Caps on sizes, the same the C++ core enforces (read once from it). */
    this.limits = Object.freeze(raw.limits());
  }

  /** Wasm memory: {heapBytes: size of the wasm memory, allocatedBytes: bytes malloc has handed out}. */
  memory() {
    return { heapBytes: this.#raw.HEAPU8.length, allocatedBytes: this.#raw.allocatedBytes() };
  }

  /** Runs a raw call and turns a recorded C++ error into a thrown JS error. */
  call(body) {
    const result = body();
    if (this.#raw.hasError()) {
      const { kind, message } = this.#raw.takeError();
      throw new (ERROR_TYPES[kind] ?? Error)(message);
    }
    return result;
  }

  // Copies bytes into the wasm staging buffer that the next raw call reads.
  #stage(bytes) {
    const raw = this.#raw;
    const pointer = this.call(() => raw.stagingBuffer(bytes.length));
    raw.HEAPU8.set(bytes, pointer);
  }
}
