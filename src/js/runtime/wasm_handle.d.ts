// Shared by every declaration file: the base of objects that hold wasm memory, and the array-likes
// the API accepts.

/** Array or typed array of integer token ids. */
export type TokenIds = ArrayLike<number>;

/** Array or typed array of finite numbers. */
export type Vector = ArrayLike<number>;

/** Base of every object that holds wasm memory: free it with `dispose()` or a `using` declaration. */
export declare class WasmHandle {
  /** True once `dispose()` ran; every method then throws. */
  readonly disposed: boolean;
  /** Frees the wasm memory now. Safe to call twice. A FinalizationRegistry frees forgotten objects as a fallback. */
  dispose(): void;
  [Symbol.dispose](): void;
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
