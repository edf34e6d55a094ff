// Entry point: picks the SIMD module when the engine validates SIMD128, else the fallback, and finds the
// .wasm next to this file (node: read from disk; browsers and bundlers: new URL(..., import.meta.url)).
import { EmbedLab } from './lab.js';

export { EmbedLab };
export { PositionalEncoding, SelfAttention, TokenEmbedding, WasmHandle } from './handles.js';
export { WordVectors } from './glove.js';
export { CorpusBatches } from './lab_batches.js';
export { Model } from './model.js';
export { SafetensorsFile } from './safetensors.js';
export { Tokenizer } from './tokenizer.js';

// The smallest module that uses a v128 instruction (the probe wasm-feature-detect uses too).
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

/** True when this engine runs WebAssembly SIMD128. */
export function simdSupported() {
  return WebAssembly.validate(SIMD_PROBE);
}

const isNode = typeof process === 'object' && typeof process.versions?.node === 'string';

async function loadFlavour(flavour) {
  const wasmUrl =
    flavour === 'simd'
      ? new URL('./embedlab-simd.wasm', import.meta.url)
      : new URL('./embedlab-fallback.wasm', import.meta.url);
  const moduleOptions = {};
  let factory;
  if (isNode && wasmUrl.protocol === 'file:') {
    // Node's fetch() cannot read file: URLs, so the bytes are read here. Compiling starts before the
    // Emscripten glue is imported, so that V8 compiles on its background threads meanwhile.
    const compiling = WebAssembly.compile(process.getBuiltinModule('fs').readFileSync(wasmUrl));
    factory = await importFactory(flavour);
    const compiled = await compiling;
    let fail;
    const failed = new Promise((_, reject) => {
      fail = reject;
    });
    moduleOptions.instantiateWasm = (imports, receiveInstance) => {
      WebAssembly.instantiate(compiled, imports).then((instance) => receiveInstance(instance, compiled), fail);
      return {}; // Emscripten's protocol: the exports arrive through receiveInstance
    };
    return Promise.race([factory(moduleOptions), failed]);
  }
  factory = await importFactory(flavour);
  moduleOptions.locateFile = () => wasmUrl.href;
  return factory(moduleOptions);
}

async function importFactory(flavour) {
  return flavour === 'simd'
    ? (await import('./embedlab-simd.js')).default
    : (await import('./embedlab-fallback.js')).default;
}

/**
 * Loads the library. options.simd: true (require SIMD), false (force the fallback) or 'auto' (default).
 */
export async function createEmbedLab(options = {}) {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`options must be an object, got ${options === null ? 'null' : typeof options}`);
  }
  const { simd = 'auto' } = options;
  if (simd !== 'auto' && simd !== true && simd !== false) {
    throw new TypeError(`options.simd must be true, false or 'auto', got ${String(simd)}`);
  }
  if (simd === true && !simdSupported()) {
    throw new Error('options.simd is true but this engine does not support WebAssembly SIMD128');
  }
  const flavour = simd === false || !simdSupported() ? 'fallback' : 'simd';
  return new EmbedLab(await loadFlavour(flavour), flavour);
}

export default createEmbedLab;
