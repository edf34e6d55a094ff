// The tokenizer benchmark's decode table: ours (wasm SIMD128 and fallback) against the npm peers, per vocabulary ×
// corpus, for both sizes of input (the corpus text by text, and the whole corpus, repeated to CORPUS_MB, decoded at
// once) and both kinds of ids (a plain Array, and the Uint32Array our encode returns). Every contender's decoded
// string is read once inside the timing (readOnce), and every peer's strings are checked against the texts first.
//   node tests/bench/tokenizer_decode.mjs     (the decode table alone; TOKENIZER_BENCH_ENCODINGS, TOKENIZER_BENCH_MB
//   as in tokenizer.mjs; TOKENIZER_BENCH_DECODE_MB: bytes of the at-once input, default 2.5, which is over
//   parts.js's LARGE_IDS ids for every vocabulary, so that the parts path is measured)
import { fileURLToPath } from 'node:url';

import createEmbedLab from '../../dist/index.js';
import { englishCorpus, multilingualCorpus, utf8Bytes } from '../reference/tokenizer_corpora.mjs';
import { formatRatio } from './timing.mjs';
import { loadPeers, PEER_NAMES } from './tokenizer_peers.mjs';
import { interleaved, mbps, ROUNDS } from './tokenizer_timing.mjs';

const PEERS = Object.keys(PEER_NAMES);
const GOAL = 2;
const CORPUS_MB = Number(process.env.TOKENIZER_BENCH_DECODE_MB ?? 2.5);
export const ID_KINDS = ['Array', 'Uint32Array'];

// Each decoded text is read once (charCodeAt), which makes V8 flatten a rope: gpt-tokenizer and others build their
// string with += per token, and a rope defers about half of its decoding cost to the first read. For flat strings
// the read is O(1).
// eslint-disable-next-line no-unused-vars -- a sink, so that V8 cannot drop the reads
let checksum = 0;
export const readOnce = (text) => {
  checksum += text.charCodeAt(text.length >> 1) | 0;
};

/** `texts` joined by line breaks, repeated until it holds at least `bytes` UTF-8 bytes. */
function corpusText(texts, bytes) {
  const once = texts.join('\n');
  const copies = Math.max(1, Math.ceil(bytes / utf8Bytes([once])));
  return Array.from({ length: copies }, () => once).join('\n');
}

// A peer's decode of ids of `kind`: @huggingface/tokenizers refuses a typed array, so for Uint32Array ids its
// Array.from is part of its time.
const peerDecode = (peer, p, ids) =>
  peer.typedIds === false && !Array.isArray(ids) ? peer.decode(p, Array.from(ids)) : peer.decode(p, ids);

/**
 * Rows {name, label, size, kind, bytes, inputs, times, differs} for the vocabulary `name` on `corpora`; `ours` are
 * the vocabulary's tokenizers {simd, fallback}, `peers` and `instances` as tokenizer.mjs makes them.
 */
export async function benchDecode(name, ours, peers, instances, corpora) {
  const rows = [];
  for (const [label, texts] of Object.entries(corpora)) {
    const whole = corpusText(texts, CORPUS_MB * 1e6);
    for (const [size, inputs] of [
      ['texts', texts],
      ['corpus at once', [whole]],
    ]) {
      const typed = inputs.map((t) => ours.simd.encode(t));
      for (const kind of ID_KINDS) {
        const ids = kind === 'Array' ? typed.map((a) => Array.from(a)) : typed;
        const differs = {};
        for (const who of ['simd', 'fallback']) {
          if (inputs.some((t, i) => ours[who].decode(ids[i]) !== t)) {
            throw new Error(`ours (${who}) does not decode ${name} ${label} ${size} back to its text`);
          }
        }
        for (const [who, p] of Object.entries(instances)) {
          differs[who] = inputs.filter((t, i) => peerDecode(peers[who], p, ids[i]) !== t).length;
        }
        const times = await interleaved({
          simd: () => ids.forEach((x) => readOnce(ours.simd.decode(x))),
          fallback: () => ids.forEach((x) => readOnce(ours.fallback.decode(x))),
          ...Object.fromEntries(
            Object.entries(instances).map(([who, p]) => [
              who,
              () => ids.forEach((x) => readOnce(peerDecode(peers[who], p, x))),
            ]),
          ),
        });
        rows.push({ name, label, size, kind, bytes: utf8Bytes(inputs), inputs: inputs.length, times, differs });
      }
    }
  }
  return rows;
}

/** The decode table's caption and lines, and the rows below the goal. */
export function decodeTable(rows) {
  const misses = [];
  const lines = rows.map((r) => {
    const best = PEERS.filter((p) => r.times[p] !== undefined).reduce(
      (a, p) => (a && r.times[a] <= r.times[p] ? a : p),
      null,
    );
    const ratio = r.times[best] / r.times.simd;
    if (ratio < GOAL) {
      misses.push(`decode ${r.name} ${r.label} ${r.size} ${r.kind}: ${formatRatio(ratio)} ${PEER_NAMES[best]}`);
    }
    const peers = PEERS.map((p) => {
      if (r.times[p] === undefined) {
        return 'no such encoding';
      }
      const differs = r.differs[p];
      return mbps(r.bytes, r.times[p]) + (differs ? ` (≠ on ${differs}/${r.inputs})` : '');
    });
    const mark = ratio < GOAL ? '' : '**';
    const ours = [mbps(r.bytes, r.times.simd), mbps(r.bytes, r.times.fallback)];
    return `| ${r.name} | ${r.label} | ${r.size} | ${r.kind} | ${[...ours, ...peers].join(' | ')} | ${mark}${formatRatio(ratio)}${mark} (${PEER_NAMES[best]}) |`;
  });
  const corpusMb = rows.find((r) => r.size !== 'texts')?.bytes / 1e6;
  return {
    misses,
    lines: [
      `Decode to a string, MB/s of text, CPU time, round-robin, median of ${ROUNDS} rounds: the ids (from our encode) of ` +
        `the corpus text by text, and of the whole corpus joined and repeated to ${corpusMb?.toFixed(2)} MB decoded at ` +
        'once; each as a plain Array and as the Uint32Array encode returns, given as they are to every contender ' +
        "(@huggingface/tokenizers refuses a typed array: its Array.from is inside its time; tiktoken's bytes go " +
        'through TextDecoder). Every decoded string is read once (one charCodeAt) inside the timing, so that a string ' +
        'built lazily as a rope (gpt-tokenizer concatenates token strings) is flattened where it is measured, as any ' +
        `real use of it would; for flat strings that read costs nothing. Every peer's strings are checked against the texts first (goal ≥ ${GOAL}×).`,
      '',
      `| vocabulary | corpus | input | ids | ours wasm SIMD128 | ours wasm fallback | ${Object.values(PEER_NAMES).join(' | ')} | ours SIMD / fastest peer |`,
      `|---|---|---|---|${['simd', 'fallback', ...PEERS, 'ratio'].map(() => '---:|').join('')}`,
      ...lines,
    ],
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const mb = Number(process.env.TOKENIZER_BENCH_MB ?? 0.5);
  const corpora = {
    English: englishCorpus({ bytes: Math.max(0, mb - 0.26) * 1e6 }),
    multilingual: multilingualCorpus({ bytes: mb * 1e6 }),
  };
  const encodings = process.env.TOKENIZER_BENCH_ENCODINGS?.split(',') ?? [
    'r50k_base',
    'p50k_base',
    'cl100k_base',
    'o200k_base',
  ];
  const labs = { simd: await createEmbedLab({ simd: true }), fallback: await createEmbedLab({ simd: false }) };
  const hfDir = fileURLToPath(new URL('../../build/bench/hf', import.meta.url));
  const rows = [];
  for (const name of encodings) {
    const peers = await loadPeers(name, hfDir);
    const ours = { simd: await labs.simd.getTokenizer(name), fallback: await labs.fallback.getTokenizer(name) };
    const instances = Object.fromEntries(PEERS.filter((who) => peers[who]).map((who) => [who, peers[who].create()]));
    rows.push(...(await benchDecode(name, ours, peers, instances, corpora)));
    Object.entries(instances).forEach(([who, p]) => peers[who].free(p));
    ours.simd.dispose();
    ours.fallback.dispose();
  }
  const { lines, misses } = decodeTable(rows);
  console.log(
    [...lines, '', misses.length ? `Below the goal: ${misses.join('; ')}.` : 'Every row meets the goal.'].join('\n'),
  );
}
