// Load times and memory of the Hugging Face tokenizer benchmark. Load: CPU time, round-robin, median of MIN_RUNS:
// ours from the tokenizer.json text and from the binary form (save() bytes → lab.tokenizerFromHuggingFace), the peers both
// from the file texts (JSON.parse of both files + construction) and from the already parsed objects (construction
// alone). Memory: each contender loads the file in a fresh node process (so nothing else is in its heap): our wasm
// memory's size and malloc's bytes in use after the load, and every process's peak resident set (VmHWM).
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { HF_PEERS, PEER_KEYS, readModelTexts } from './tokenizer_hf_peers.mjs';
import { interleaved, MIN_RUNS } from './tokenizer_timing.mjs';

const hfDir = fileURLToPath(new URL('../../build/bench/hf/', import.meta.url));
const binaryFile = (model) => `${hfDir}${model}.embedlab-hf`;

/** {times: {contender: CPU seconds}, binaryBytes}; writes the binary form to build/bench/hf/ for benchMemory. */
export async function benchLoad(model, lab) {
  const { jsonText, configText } = readModelTexts(model);
  const json = JSON.parse(jsonText);
  const config = JSON.parse(configText);
  const fromJson = () => lab.tokenizerFromHuggingFace(jsonText, { name: model, config: configText });
  const first = await fromJson();
  const binary = first.save();
  first.dispose();
  mkdirSync(hfDir, { recursive: true });
  writeFileSync(binaryFile(model), binary);
  const peers = {};
  for (const who of PEER_KEYS) {
    const peer = HF_PEERS[who];
    peers[`${who}Parse`] = () => peer.construct(JSON.parse(jsonText), JSON.parse(configText));
    peers[`${who}Construct`] = () => peer.construct(json, config);
  }
  const times = await interleaved(
    {
      oursJson: async () => (await fromJson()).dispose(),
      oursBinary: async () => (await lab.tokenizerFromHuggingFace(binary)).dispose(),
      parseOnly: () => [JSON.parse(jsonText), JSON.parse(configText)],
      ...peers,
    },
    MIN_RUNS,
  );
  return { model, times, binaryBytes: binary.length, jsonBytes: Buffer.byteLength(jsonText) };
}

const distUrl = new URL('../../dist/tokenizer.js', import.meta.url).href;
const peersUrl = new URL('./tokenizer_hf_peers.mjs', import.meta.url).href;
// Each script loads the file once and prints JSON: our wasm memory, or the peer's V8 heap after a full GC (the file's
// text dropped first; what the peer keeps of the parsed objects counts), and the process's peak resident set.
const report =
  "const hwm = Number(/VmHWM:\\s+(\\d+) kB/.exec(require('node:fs').readFileSync('/proc/self/status', 'utf8'))[1]) * 1024;";
const scripts = (model) => {
  const texts = `const { readModelTexts } = await import(${JSON.stringify(peersUrl)}); const { jsonText, configText } = readModelTexts(${JSON.stringify(model)});`;
  const ours = (load) =>
    `const { createRequire } = await import('node:module'); const require = createRequire(import.meta.url); ` +
    `const lab = await (await import(${JSON.stringify(distUrl)})).createTokenizers({ simd: true }); ${load} ` +
    `const { heapBytes, allocatedBytes } = t.lab.memory(); ${report} ` +
    `process.stdout.write(JSON.stringify({ heapBytes, allocatedBytes, hwm })); t.dispose();`;
  const peer = (who) =>
    `const { createRequire } = await import('node:module'); const require = createRequire(import.meta.url); ` +
    `const { HF_PEERS, readModelTexts } = await import(${JSON.stringify(peersUrl)}); ` +
    `const p = (() => { const { jsonText, configText } = readModelTexts(${JSON.stringify(model)}); ` +
    `return HF_PEERS.${who}.construct(JSON.parse(jsonText), JSON.parse(configText)); })(); ` +
    `globalThis.gc(); const v8Heap = process.memoryUsage().heapUsed; ${report} ` +
    `process.stdout.write(JSON.stringify({ v8Heap, hwm, ok: p !== null }));`;
  return {
    oursBinary: ours(
      `const t = await lab.tokenizerFromHuggingFace(require('node:fs').readFileSync(${JSON.stringify(binaryFile(model))}));`,
    ),
    oursJson: ours(`${texts} const t = await lab.tokenizerFromHuggingFace(jsonText, { config: configText });`),
    ...Object.fromEntries(PEER_KEYS.map((who) => [who, peer(who)])),
  };
};

/** {model, oursBinary, oursJson, <peer>}: what each process printed (benchLoad must have run first). */
export function benchMemory(model) {
  const result = { model };
  for (const [who, script] of Object.entries(scripts(model))) {
    const run = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    });
    if (run.status !== 0) {
      throw new Error(`memory of ${who} on ${model} failed: ${run.stderr}`);
    }
    result[who] = JSON.parse(run.stdout);
  }
  return result;
}
