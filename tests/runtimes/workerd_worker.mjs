// The Cloudflare Workers form of the smoke test: workerd compiles no wasm from bytes at run time and has no file
// system, so the .wasm arrives as a wasm module (a WebAssembly.Module) and the vocabulary as a data module (an
// ArrayBuffer), imported by the names the guide's recipe uses (docs/guide.md, Runtimes; runtimes_workerd.test.mjs
// writes the config).
import wasm from 'embedlab/embedlab-simd.wasm';
import vocabulary from 'embedlab/vocab/cl100k_base.emblvoc';
import { smoke } from './smoke_core.mjs';

export default {
  async fetch() {
    try {
      const report = await smoke(() => import('embedlab'), { lab: { wasm }, tokenizer: { vocabulary } });
      return Response.json(report);
    } catch (error) {
      return new Response(String(error?.stack ?? error), { status: 500 });
    }
  },
};
