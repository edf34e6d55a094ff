// Types shared by the whole package: the array-likes the API accepts, the internals each domain module gets from
// its EmbedLab, and the few global names the declarations use.
import type { EmbedLab } from '../lab.js';
import type { WasmInstance } from './wasm_instance.js';

/** Array or typed array of integer token ids. */
export type TokenIds = ArrayLike<number>;

/** Array or typed array of finite numbers. */
export type Vector = ArrayLike<number>;

/** Options of `createEmbedLab` and `createTokenizers`. */
export interface CreateOptions {
  /** `true` requires the SIMD128 module, `false` forces the non-SIMD fallback, `'auto'` (default) picks. */
  simd?: boolean | 'auto';
  /**
   * The wasm module to run instead of the `.wasm` file next to the package's JS: a compiled
   * `WebAssembly.Module` (what Cloudflare workerd gives for `import wasm from './embedlab-simd.wasm'`), the
   * file's bytes, or its URL (a `URL` or a string; a string without a scheme is a file path in node). Either
   * flavour may be given; `lab.flavour` then reports which it is, and `simd: true | false` must agree with it.
   */
  wasm?: WasmModule | ArrayBuffer | Uint8Array | { readonly href: string } | string;
  /**
   * The Hugging Face tokenizer module (`embedlab-hf-simd.wasm` or `embedlab-hf-fallback.wasm`), in the same forms
   * as `wasm`. That module is started only when the instance first needs it (`tokenizerFromHuggingFace`, or
   * its binary form), from the `.wasm` next to the package's JS unless
   * given here: runtimes that cannot compile wasm bytes at run time (Cloudflare workerd) pass its imported Module.
   * Without it, the Hugging Face module is of the instance's flavour; with it, of the given module's.
   */
  hfWasm?: WasmModule | ArrayBuffer | Uint8Array | { readonly href: string } | string;
}

/** `WebAssembly.Module` where the libs declare it (DOM, webworker, @types/node), any object otherwise (lib es2022). */
export type WasmModule = typeof globalThis extends {
  WebAssembly: { Module: abstract new (...args: never[]) => infer M };
}
  ? M
  : object;

/** Size caps enforced by the library. */
export interface Limits {
  readonly maxDim: number;
  readonly maxVocabSize: number;
  readonly maxSequenceLength: number;
  /** The largest PRNG seed, 2^53 (every seed is an integer in [0, maxSeed]). */
  readonly maxSeed: number;
}

/**
 * What the functions of each domain module get from their instance (runtime/wasm_instance.js's internalsOf): the
 * instance as `lab` (an EmbedLab, or the Tokenizers of `embedlab/tokenizer` for the tokenizer's functions), its raw
 * Embind module (untyped: the C++ bindings, src/bindings/) and `stage`, which copies bytes into wasm memory.
 * @internal
 */
export interface LabInternals<L extends WasmInstance = EmbedLab> {
  readonly lab: L;
  readonly raw: any;
  readonly stage: (bytes: Uint8Array) => any;
}

// The few global names these declarations use, declared so that they type-check with `lib: es2022` alone (no
// DOM, no @types/node). Each member is declared exactly as lib.dom, lib.esnext.disposable and @types/node
// declare it, so the declarations merge with theirs where those are present.
declare global {
  interface SymbolConstructor {
    /** The method `using` calls: node ≥ 20 defines it; elsewhere handles use `Symbol.for('Symbol.dispose')`. */
    readonly dispose: unique symbol;
  }
  interface AbortSignal {
    readonly aborted: boolean;
  }
  interface Blob {
    readonly size: number;
    readonly type: string;
  }
}
