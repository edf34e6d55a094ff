// The Cloudflare Workers form of the smoke test: workerd compiles no wasm from bytes at run time and has no file
// system, so the .wasm files (the lab's and the Hugging Face one) arrive as wasm modules (WebAssembly.Module) and the
// vocabulary as a data module (an ArrayBuffer), imported by the names the guide's recipes use (docs/guide.md,
// Runtimes; runtimes_workerd.test.mjs writes the config).
import wasm from 'embedlab/embedlab-simd.wasm';
import hfWasm from 'embedlab/embedlab-hf-simd.wasm';
import vocabulary from 'embedlab/vocab/cl100k_base.emblvoc';
import { smoke } from './smoke_core.mjs';

export default {
  async fetch() {
    try {
      const report = await smoke(() => import('embedlab'), { lab: { wasm, hfWasm }, tokenizer: { vocabulary } });
      return Response.json(report);
    } catch (error) {
      return new Response(String(error?.stack ?? error), { status: 500 });
    }
  },
};
