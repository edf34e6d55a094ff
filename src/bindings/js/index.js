// Entry point: picks the SIMD module when the engine validates SIMD128, else the fallback, and finds the
// .wasm next to this file or takes the caller's (wasm_loader.js).
import { requireOptions } from './checks.js';
import { EmbedLab } from './lab.js';
import {
  chooseFlavour,
  compileBundled,
  compileWasmSource,
  instantiateCompiled,
  requireWasmSource,
  simdSupported,
} from './wasm_loader.js';

export { EmbedLab };
export { PositionalEncoding, SelfAttention, TokenEmbedding, WasmHandle } from './handles.js';
export { WordVectors } from './glove.js';
export { CorpusBatches } from './lab_batches.js';
export { Model } from './model.js';
export { SafetensorsFile } from './safetensors.js';
export { Tokenizer } from './tokenizer.js';

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
 * itself (its Highway target), and options.simd true/false must agree with it.
 */
export async function createEmbedLab(options = {}) {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`options must be an object, got ${options === null ? 'null' : typeof options}`);
  }
  const { simd = 'auto', wasm } = requireOptions('options', options, ['simd', 'wasm']);
  const flavour = chooseFlavour(simd);
  const fileName = `embedlab-${flavour}.wasm`;
  requireWasmSource(wasm);
  // Compiling starts before the glue is imported, so that V8 compiles on its background threads meanwhile.
  const compiling = wasm === undefined ? compileBundled(BUNDLED[flavour].wasm()) : compileWasmSource(wasm);
  compiling.catch(() => {}); // awaited below; a failure must not be reported as unhandled meanwhile
  const { default: factory } = await BUNDLED[flavour].glue();
  const raw = await instantiateCompiled(factory, compiling, fileName);
  return new EmbedLab(raw, wasm === undefined ? flavour : givenFlavour(raw, simd));
}

// Both flavours share one glue (they differ only in the .wasm file name), so a given module runs under either;
// its flavour is the Highway target it was built for.
function givenFlavour(raw, simd) {
  const flavour = raw.simdTarget() === 'EMU128' ? 'fallback' : 'simd';
  if (simd !== 'auto' && simd !== (flavour === 'simd')) {
    throw new Error(`options.simd is ${simd} but options.wasm is the ${flavour} module (embedlab-${flavour}.wasm)`);
  }
  return flavour;
}

export default createEmbedLab;
