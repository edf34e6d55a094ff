/**
 * embedlab: token embeddings and positional encodings in C++/Highway, compiled to WebAssembly.
 *
 * @example
 * ```ts
 * import createEmbedLab from 'embedlab';
 * const lab = await createEmbedLab();
 * using embedding = lab.tokenEmbedding({ vocabSize: 3, dim: 32, seed: 1, stddev: 1 });
 * using positions = lab.positionalEncoding('sinusoidal', { dim: 32, maxLength: 16 });
 * const result = lab.compare([0, 1, 2], [2, 1, 0], { embedding, positional: positions });
 * console.log(result.attention?.pooledCosine); // < 1: attention now sees word order
 * ```
 * @packageDocumentation
 */

import type { EmbedLab } from './lab.js';

export * from './training/batches.js';
export * from './embeddings/embeddings.js';
export * from './files/files.js';
export * from './runtime/wasm_handle.js';
export * from './lab.js';
export * from './training/long_context.js';
export * from './model/model.js';
export * from './embeddings/nearest.js';
export * from './model/parameter_count.js';
export * from './positions/positions.js';
export * from './embeddings/principal_components.js';
export * from './tokenizer/tokenizer.js';

/** Options of {@link createEmbedLab}. */
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
}

/** `WebAssembly.Module` where the libs declare it (DOM, webworker, @types/node), any object otherwise (lib es2022). */
export type WasmModule = typeof globalThis extends {
  WebAssembly: { Module: abstract new (...args: never[]) => infer M };
}
  ? M
  : object;

/** Loads the wasm module and resolves to a ready {@link EmbedLab}. */
export declare function createEmbedLab(options?: CreateOptions): Promise<EmbedLab>;
export default createEmbedLab;

/** True when this engine runs WebAssembly SIMD128. */
export declare function simdSupported(): boolean;
