// The tokenizer benchmark's init table on its own (a few minutes shorter than the whole benchmark):
//   node tests/bench/tokenizer_init.mjs
import { fileURLToPath } from 'node:url';

import createEmbedLab from '../../dist/index.js';
import { benchInit, nativeTool } from './tokenizer.mjs';
import { loadPeers } from './tokenizer_peers.mjs';
import { initTableLines } from './tokenizer_tables.mjs';

const hfDir = fileURLToPath(new URL('../../build/bench/hf', import.meta.url));
const labs = { simd: await createEmbedLab({ simd: true }), fallback: await createEmbedLab({ simd: false }) };
const rows = [];
for (const name of ['r50k_base', 'p50k_base', 'cl100k_base', 'o200k_base']) {
  rows.push(await benchInit(name, labs, nativeTool(), await loadPeers(name, hfDir)));
}
console.log(initTableLines(rows).join('\n'));
