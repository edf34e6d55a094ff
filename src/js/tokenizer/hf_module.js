// The Hugging Face tokenizer module (embedlab-hf-{simd,fallback}: src/hf on a wasm module of its own, about as large
// as the rest of the tokenizer), started on demand: an instance of either entry starts it once, at its first
// tokenizerFromHuggingFace() (of a tokenizer.json or of HfTokenizer.save()'s binary form), and shares it among all
// its Hugging Face tokenizers. So neither entry's own module, nor a page that loads one at start, carries it.
import { WasmInstance, internalsOf } from '../runtime/wasm_instance.js';
import { startFlavour } from '../runtime/wasm_loader.js';
/** @import { LabInternals } from '../runtime/types.js' */

// Literal URLs and imports, so that bundlers (Vite, webpack) see and copy both flavours.
const BUNDLED = {
  simd: {
    wasm: () => new URL('../embedlab-hf-simd.wasm', import.meta.url),
    glue: () => import('../embedlab-hf-simd.js'),
  },
  fallback: {
    wasm: () => new URL('../embedlab-hf-fallback.wasm', import.meta.url),
    glue: () => import('../embedlab-hf-fallback.js'),
  },
};

/** The loaded Hugging Face module of an instance, which its Hugging Face tokenizers run on (neither entry exports it). */
export class HfModule extends WasmInstance {}

/**
 * A function that starts an instance's Hugging Face module on its first call and gives the same module to every
 * later one (a failed start is tried again by the next call). Without `hfWasm` (the entry's options.hfWasm) the
 * module is the instance's flavour, next to the package's JS; with it, the flavour of the given module.
 * @param {'simd' | 'fallback'} flavour the instance's
 * @param {unknown} hfWasm
 * @returns {() => Promise<LabInternals<HfModule>>}
 * @internal
 */
export function hfModuleStarter(flavour, hfWasm) {
  /** @type {Promise<LabInternals<HfModule>> | undefined} */
  let started;
  return () => {
    if (started === undefined) {
      const simd = hfWasm === undefined ? flavour === 'simd' : 'auto';
      started = startFlavour(simd, hfWasm, BUNDLED, 'embedlab-hf', 'options.hfWasm').then(
        ({ raw, flavour: hfFlavour }) => internalsOf(new HfModule(raw, hfFlavour)),
      );
      started.catch(() => {
        started = undefined;
      });
    }
    return started;
  };
}
