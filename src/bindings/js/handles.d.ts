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
