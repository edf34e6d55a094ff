// Hugging Face tokenizer benchmark (issue 24): ours (lab.tokenizerFromHuggingFace, wasm SIMD128 and fallback) against
// Tokenizers.js (@huggingface/tokenizers) and transformers.js (@lenml/tokenizers) on the six real tokenizer.json
// files × two corpora (Brown English, translated man pages), all in this one node process: encode, count, decode
// (tokenizer_hf_peers.mjs), then load times and wasm heap (tokenizer_hf_load.mjs). Before a peer is timed on a
// corpus, its ids, counts and decoded texts are compared with ours on every text; a peer that disagrees is timed all
// the same and its cells say on how many texts it differs.
// Goals: encode and count ≥ 10× both peers, byte-level files ≥ 0.7× our cl100k_base on the same text; decode ≥ 2×;
// load from the binary form ≤ 1/5 of the peers' construction; Gemma 3's wasm heap from the binary form < 64 MB.
//   node tests/bench/run.mjs 'Hugging Face tokenizers'     (or: node tests/bench/tokenizer_hf.mjs)
//   HF_BENCH_MB=0.05 for a quick run (MB of each corpus; default 0.2); HF_BENCH_MODELS=llama3,gemma3 for some files.
// The results also go to build/bench/hf_results.json (tokenizer_hf_tables.mjs prints their tables again).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { createTokenizers } from '../../dist/tokenizer.js';
import { utf8Bytes } from '../reference/tokenizer_corpora.mjs';
import { benchLoad, benchMemory } from './tokenizer_hf_load.mjs';
import { BYTE_LEVEL_MODELS, HF_MODELS, HF_PEERS, hfCorpora, PEER_KEYS, readModelTexts } from './tokenizer_hf_peers.mjs';
import { hfTables } from './tokenizer_hf_tables.mjs';
import { interleaved } from './tokenizer_timing.mjs';

const mb = Number(process.env.HF_BENCH_MB ?? 0.2);
const models = process.env.HF_BENCH_MODELS?.split(',') ?? HF_MODELS;
const NO_TEMPLATE = Object.freeze({ addSpecialTokens: false });

// Each decoded text is read once (charCodeAt) inside the timing: a string built lazily as a rope defers part of its
// cost to the first read; for a flat string the read costs nothing.
// eslint-disable-next-line no-unused-vars -- a sink, so that V8 cannot drop the reads
let checksum = 0;
const readOnce = (text) => {
  checksum += text.charCodeAt(text.length >> 1) | 0;
};

const sameIds = (a, b) => a.length === b.length && Array.prototype.every.call(a, (v, i) => v === b[i]);

/** {encode, count, decode}: {peer: texts on which it differs from ours}; also the peers' first pass (warm-up). */
function checkPeers(instances, texts, ours) {
  const differs = { encode: {}, count: {}, decode: {} };
  for (const [who, p] of Object.entries(instances)) {
    const peer = HF_PEERS[who];
    differs.encode[who] = texts.filter((t, i) => !sameIds(ours.ids[i], peer.encode(p, t))).length;
    differs.count[who] = texts.filter((t, i) => peer.count(p, t) !== ours.counts[i]).length;
    differs.decode[who] = texts.filter((t, i) => peer.decode(p, ours.arrays[i]) !== ours.texts[i]).length;
  }
  return differs;
}

/** Encode, count and decode times of one file on one corpus (and of cl100k_base on the same texts). */
async function benchCorpus({ model, label, texts, ours, instances, cl100k }) {
  const byteLevel = BYTE_LEVEL_MODELS.includes(model);
  const ids = texts.map((t) => ours.simd.encode(t));
  texts.forEach((t, i) => {
    if (!sameIds(ours.fallback.encode(t), ids[i])) {
      throw new Error(`${model}: the fallback module encodes text ${i} of ${label} otherwise than the SIMD128 one`);
    }
  });
  const reference = {
    ids,
    arrays: ids.map((a) => Array.from(a)),
    counts: texts.map((t) => ours.simd.count(t, NO_TEMPLATE)),
    texts: ids.map((a) => ours.simd.decode(a)),
  };
  const differs = checkPeers(instances, texts, reference);
  const forTexts = (fn) => () => texts.forEach(fn);
  // Every BPE here keeps a piece cache across calls, full of this corpus's pieces after the check above. Every
  // contender runs both ways: <who> empties its cache before every run (each pass starts cold), <who>Warm keeps it.
  const peerRuns = (kind) =>
    Object.fromEntries(
      Object.entries(instances).flatMap(([who, p]) => {
        const peer = HF_PEERS[who];
        const cold = () => {
          peer.clear(p);
          texts.forEach((t) => peer[kind](p, t));
        };
        return [
          [who, cold],
          [`${who}Warm`, () => texts.forEach((t) => peer[kind](p, t))],
        ];
      }),
    );
  const cl100kRuns = (method) =>
    byteLevel
      ? {
          cl100k: () => {
            cl100k.clearCache();
            texts.forEach((t) => cl100k[method](t));
          },
          cl100kWarm: forTexts((t) => cl100k[method](t)),
        }
      : {};
  // Ours cold: clearCache() before every run, as the peers and cl100k_base empty theirs.
  const oursCold = (run) => ({
    simdCold: () => {
      ours.simd.clearCache();
      texts.forEach((t) => run(ours.simd, t));
    },
  });
  const encode = await interleaved({
    simd: forTexts((t) => ours.simd.encode(t)),
    fallback: forTexts((t) => ours.fallback.encode(t)),
    ...oursCold((tokenizer, t) => tokenizer.encode(t)),
    ...cl100kRuns('encode'),
    ...peerRuns('encode'),
  });
  const count = await interleaved({
    simd: forTexts((t) => ours.simd.count(t, NO_TEMPLATE)),
    ...oursCold((tokenizer, t) => tokenizer.count(t, NO_TEMPLATE)),
    ...cl100kRuns('count'),
    ...peerRuns('count'),
  });
  const cl100kIds = byteLevel ? texts.map((t) => cl100k.encode(t)) : [];
  const decode = await interleaved({
    simd: () => ids.forEach((x) => readOnce(ours.simd.decode(x))),
    fallback: () => ids.forEach((x) => readOnce(ours.fallback.decode(x))),
    ...(byteLevel ? { cl100k: () => cl100kIds.forEach((x) => readOnce(cl100k.decode(x))) } : {}),
    ...Object.fromEntries(
      Object.entries(instances).map(([who, p]) => [
        who,
        () => reference.arrays.forEach((x) => readOnce(HF_PEERS[who].decode(p, x))),
      ]),
    ),
  });
  return {
    model,
    label,
    byteLevel,
    bytes: utf8Bytes(texts),
    texts: texts.length,
    encode,
    count,
    decode,
    differs,
  };
}

/** One row per corpus for `model`. */
async function benchModel(model, labs, corpora, cl100k) {
  const { jsonText, configText } = readModelTexts(model);
  const json = JSON.parse(jsonText);
  const config = JSON.parse(configText);
  const ours = {
    simd: await labs.simd.tokenizerFromHuggingFace(jsonText, { name: model, config: configText }),
    fallback: await labs.fallback.tokenizerFromHuggingFace(jsonText, { name: model, config: configText }),
  };
  const instances = Object.fromEntries(PEER_KEYS.map((who) => [who, HF_PEERS[who].construct(json, config)]));
  const rows = [];
  for (const [label, texts] of Object.entries(corpora)) {
    rows.push(await benchCorpus({ model, label, texts, ours, instances, cl100k }));
  }
  ours.simd.dispose();
  ours.fallback.dispose();
  return rows;
}

export async function benchHfTokenizers() {
  const started = performance.now();
  const labs = { simd: await createTokenizers({ simd: true }), fallback: await createTokenizers({ simd: false }) };
  const corpora = hfCorpora(mb * 1e6);
  const cl100k = await labs.simd.getTokenizer('cl100k_base');
  const rows = [];
  for (const model of models) {
    rows.push(...(await benchModel(model, labs, corpora, cl100k)));
  }
  cl100k.dispose();
  const load = [];
  for (const model of models) {
    load.push(await benchLoad(model, labs.simd));
  }
  const memory = models.map((model) => benchMemory(model));
  const results = {
    rows,
    load,
    memory,
    corpora: { English: corpora.English.length, multilingual: corpora.multilingual.length },
    seconds: (performance.now() - started) / 1000,
  };
  writeFileSync(new URL('../../build/bench/hf_results.json', import.meta.url), JSON.stringify(results));
  return hfTables(results);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await benchHfTokenizers());
}
