// Entry point: picks the SIMD module when the engine validates SIMD128 and wasm exception handling, else the
// fallback, and finds the .wasm next to this file or takes the caller's (wasm_loader.js).
import { EmbedLab } from './lab.js';
import { simdSupported, startModule } from './runtime/wasm_loader.js';

export { EmbedLab };
export { PositionalEncoding, SelfAttention, TokenEmbedding } from './embeddings/handles.js';
export { WasmHandle } from './runtime/wasm_handle.js';
export { WordVectors } from './embeddings/word_vectors.js';
export { CorpusBatches } from './training/batches.js';
export { Model } from './model/model.js';
export { SafetensorsFile } from './files/safetensors.js';
export { Tokenizer } from './tokenizer/tokenizer.js';

export { simdSupported };

// Literal URLs and imports, so that bundlers (Vite, webpack) see and copy both flavours.
const BUNDLED = {
  simd: { wasm: () => new URL('./embedlab-simd.wasm', import.meta.url), glue: () => import('./embedlab-simd.js') },
  fallback: {
    wasm: () => new URL('./embedlab-fallback.wasm', import.meta.url),
    glue: () => import('./embedlab-fallback.js'),
  },
};

/**
 * Loads the library. options.simd: true (require SIMD), false (force the fallback) or 'auto' (default).
 * options.wasm: the module to run instead of the .wasm next to this file — a WebAssembly.Module (Cloudflare
 * workerd imports .wasm files as Modules), its bytes, or its URL. The flavour is then read from the module
 * itself, and options.simd true/false must agree with it.
 */
export async function createEmbedLab(options = {}) {
  const { raw, flavour } = await startModule(options, BUNDLED, 'embedlab');
  return new EmbedLab(raw, flavour);
}

export default createEmbedLab;
