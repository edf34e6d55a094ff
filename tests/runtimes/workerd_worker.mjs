// The Cloudflare Workers form of the smoke test: workerd compiles no wasm from bytes at run time and has no file
// system, so the .wasm arrives as a wasm module (a WebAssembly.Module) and the vocabulary as a data module (an
// ArrayBuffer), both named in the worker's config (runtimes.test.mjs writes it), as wrangler would bundle them.
import wasm from './embedlab/embedlab-simd.wasm';
import vocabulary from './embedlab/vocab/cl100k_base.emblvoc';
import { smoke } from './smoke_core.mjs';

export default {
  async fetch() {
    try {
      const report = await smoke(() => import('./embedlab/index.js'), { lab: { wasm }, tokenizer: { vocabulary } });
      return Response.json(report);
    } catch (error) {
      return new Response(String(error?.stack ?? error), { status: 500 });
    }
  },
};
