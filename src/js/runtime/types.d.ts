// Types shared by the whole package: the array-likes the API accepts, the internals each domain module gets from
// its EmbedLab, and the few global names the declarations use.
import type { EmbedLab } from '../lab.js';

/** Array or typed array of integer token ids. */
export type TokenIds = ArrayLike<number>;

/** Array or typed array of finite numbers. */
export type Vector = ArrayLike<number>;

/** Size caps enforced by the library. */
export interface Limits {
  readonly maxDim: number;
  readonly maxVocabSize: number;
  readonly maxSequenceLength: number;
}

/**
 * What the functions of each domain module get from their EmbedLab: the lab (limits, `call`), its raw Embind
 * module (untyped: the C++ bindings, src/bindings/) and `stage`, which copies bytes into wasm memory.
 * @internal
 */
export interface LabInternals {
  readonly lab: EmbedLab;
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
