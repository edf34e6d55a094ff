// The tokenizer benchmark's Markdown: tables, their captions and the list of rows that miss a goal
// (encode >= 3× the fastest peer, count >= 3×, decode >= 2×, cold start below every peer).
import { formatRatio } from './timing.mjs';
import { decodeTable } from './tokenizer_decode.mjs';
import { PEER_NAMES } from './tokenizer_peers.mjs';
import { MIN_RUNS, mbps, ms, ROUNDS } from './tokenizer_timing.mjs';

const PEERS = Object.keys(PEER_NAMES);
const GOALS = { encode: 3, count: 3 };
const header = (first, ours, last) => [
  `| ${[...first, ...ours, ...Object.values(PEER_NAMES), last].join(' | ')} |`,
  `|${first.map(() => '---|').join('')}${[...ours, ...PEERS, last].map(() => '---:|').join('')}`,
];
// Fastest peer: every peer that ran, including one that disagrees with ours (the stricter comparison).
const fastest = (times) =>
  PEERS.filter((p) => times[p] !== undefined).reduce((best, p) => (best && times[best] <= times[p] ? best : p), null);

// kind: encode or count, with warm caches when `warm` (encodeWarm, countWarm; nativeWarm).
function speedTable(rows, kind, oursColumns, warm = false) {
  const misses = [];
  const timesKey = warm ? `${kind}Warm` : kind;
  const nativeKey = warm ? 'nativeWarm' : 'native';
  const lines = rows.map((r) => {
    const times = r[timesKey];
    const best = fastest(times);
    const ratio = times[best] / times.simd;
    if (ratio < GOALS[kind]) {
      misses.push(
        `${kind}${warm ? ' (warm caches)' : ''} ${r.name} ${r.label}: ${formatRatio(ratio)} ${PEER_NAMES[best]}`,
      );
    }
    const ours = oursColumns.map((c) =>
      c === 'native' ? (r[nativeKey] ? mbps(r.bytes, r[nativeKey]) : '–') : mbps(r.bytes, times[c]),
    );
    const peers = PEERS.map((p) => {
      if (times[p] === undefined) {
        return 'no such encoding';
      }
      const differs = r.differs[kind][p];
      return mbps(r.bytes, times[p]) + (differs ? ` (≠ on ${differs}/${r.texts} texts)` : '');
    });
    const mark = ratio < GOALS[kind] ? '' : '**';
    return `| ${r.name} | ${r.label} | ${[...ours, ...peers].join(' | ')} | ${mark}${formatRatio(ratio)}${mark} (${PEER_NAMES[best]}) |`;
  });
  return { lines, misses };
}

/** The init table: caption, header and one row per encoding (also used on its own by an init-only run). */
export function initTableLines(initRows) {
  const rows = initRows.map((r) => {
    const peers = PEERS.map((p) => r.init[p]);
    const bestPeer = Math.min(...peers.filter((t) => t !== undefined));
    const native = r.nativeInit ? `${ms(r.nativeInit.binary)} / ${ms(r.nativeInit.tiktoken)}` : '–';
    return (
      `| ${r.name} | ${ms(r.init.oursShipped)} | ${ms(r.init.oursTiktoken)} | ${native} | ` +
      `${peers.map((t) => (t === undefined ? 'no such encoding' : ms(t))).join(' | ')} | ` +
      `${formatRatio(bestPeer / r.init.oursShipped)} / ${formatRatio(bestPeer / r.init.oursTiktoken)} |`
    );
  });
  return [
    `Init, CPU ms (round-robin, median of ${MIN_RUNS}): ours = getTokenizer(name, {vocabulary}) given the bytes of the binary vocabulary the ` +
      `package ships (the file already read; without them getTokenizer would share a tokenizer still alive), or tokenizerFromVocabulary() parsing the .tiktoken file; native = embedlab_tokenize's load time ` +
      `(binary / .tiktoken, wall, median of ${MIN_RUNS}); peers = construction from their already-imported rank data (tiktoken: ` +
      'get_encoding; js-tiktoken: new Tiktoken(ranks); gpt-tokenizer: GptEncoding.getEncodingApi; @huggingface/tokenizers: new ' +
      'Tokenizer(parsed tokenizer.json)), except ai-tokenizer, whose encoding module builds its maps as it is evaluated: a fresh ' +
      'evaluation of that module (imported under a new query string) plus new Tokenizer. No goal is set for init.',
    '',
    ...header(
      ['vocabulary'],
      ['ours getTokenizer', 'ours from .tiktoken', 'ours native binary / .tiktoken'],
      'fastest peer / ours (getTokenizer / .tiktoken)',
    ),
    ...rows,
  ];
}

export function tokenizerTables({ rows, decodeRows, initRows, coldRows, long, training, corpora, tool, seconds }) {
  const bytesOf = (label) => rows.find((r) => r.label === label).bytes;
  const encode = speedTable(rows, 'encode', ['simd', 'fallback', 'native']);
  const count = speedTable(rows, 'count', ['simd']);
  const decode = decodeTable(decodeRows);
  const encodeWarm = speedTable(rows, 'encode', ['simd', 'fallback', 'native'], true);
  const countWarm = speedTable(rows, 'count', ['simd'], true);
  const misses = [...encode.misses, ...count.misses, ...decode.misses, ...encodeWarm.misses, ...countWarm.misses];
  const allAgree = rows.every((r) =>
    Object.values(r.differs).every((byPeer) => Object.values(byPeer).every((n) => n === 0)),
  );

  const coldTable = coldRows.map((r) => {
    const bestPeer = Math.min(...PEERS.filter((p) => r[p] !== undefined).map((p) => r[p]));
    if (!(r.ours < bestPeer)) {
      misses.push(`cold start ${r.name}: ours ${ms(r.ours)} ms, fastest peer ${ms(bestPeer)} ms`);
    }
    const peers = PEERS.map((p) => (r[p] === undefined ? 'no such encoding' : ms(r[p])));
    const ratios = `**${formatRatio(bestPeer / r.ours)}** / ${formatRatio(bestPeer / r.oursFull)}`;
    return `| ${r.name} | ${ms(r.ours)} | ${ms(r.oursFull)} | ${peers.join(' | ')} | ${ratios} |`;
  });
  misses.push(...long.misses, ...training.misses);

  const lines = [
    `Tokenizer, one node process (${process.version}); corpora from tests/reference/tokenizer_corpora.mjs: ` +
      `English ${(bytesOf('English') / 1e6).toFixed(2)} MB (${corpora.English.length} texts: licences + man pages), ` +
      `multilingual ${(bytesOf('multilingual') / 1e6).toFixed(2)} MB (${corpora.multilingual.length} translated man pages), ` +
      `encoded text by text with each library's default encode(). Process CPU time, contenders run round-robin, median of ` +
      `${ROUNDS} rounds; native: embedlab_tokenize in its own process, CPU time of one pass from --repeat 21 minus --repeat 1 ` +
      `(bash times), median of 3 (${tool ? tool.replace(/.*\/build\//, 'build/') : 'not built'}). Cold caches: the piece ` +
      `caches that ours, gpt-tokenizer, ai-tokenizer and @huggingface/tokenizers keep between calls are cleared before every ` +
      `run (native: --clear-cache before each pass), so each pass over a corpus starts with none. @huggingface/tokenizers loads only tokenizer.json, and no OpenAI encoding ships in that form without a ` +
      `download: the benchmark generates one from the .tiktoken file (tests/bench/hf_tokenizer_json.mjs, as transformers' ` +
      `TikTokenConverter does). Before timing, every peer's ids, counts and decoded texts are compared with ours on every text: ` +
      `${allAgree ? 'all agree on every row' : 'a cell marked ≠ gives the texts on which that peer differs'}. ` +
      `Ratio = ours wasm SIMD128 speed / the fastest peer's (goal ≥ 3×).`,
    '',
    ...header(
      ['vocabulary', 'corpus'],
      ['ours wasm SIMD128 MB/s', 'ours wasm fallback', 'ours native'],
      'ours SIMD / fastest peer',
    ),
    ...encode.lines,
    '',
    "Count, MB/s, same corpora and rules: ours count(); gpt-tokenizer's countTokens, ai-tokenizer's count, " +
      "@huggingface/tokenizers' tokenize().length; tiktoken and js-tiktoken have no count, so encode().length (goal ≥ 3×).",
    '',
    ...header(['vocabulary', 'corpus'], ['ours wasm SIMD128 MB/s'], 'ours SIMD / fastest peer'),
    ...count.lines,
    '',
    ...decode.lines,
    '',
    'Warm caches: the same encode and count, but no cache is cleared between runs (ours, gpt-tokenizer, ai-tokenizer and ' +
      '@huggingface/tokenizers keep theirs for the life of the object; tiktoken and js-tiktoken keep none), and every ' +
      'contender has already encoded each text once, as in a long-running process that sees similar text again; native: the ' +
      'tool without --clear-cache. MB/s, CPU time, round-robin, median of ' +
      `${ROUNDS} rounds (goal ≥ 3× for both).`,
    '',
    ...header(
      ['vocabulary', 'corpus'],
      ['ours wasm SIMD128 MB/s', 'ours wasm fallback', 'ours native'],
      'ours SIMD / fastest peer',
    ),
    ...encodeWarm.lines,
    '',
    'Count with warm caches, MB/s, same rules.',
    '',
    ...header(['vocabulary', 'corpus'], ['ours wasm SIMD128 MB/s'], 'ours SIMD / fastest peer'),
    ...countWarm.lines,
    '',
    ...initTableLines(initRows),
    '',
    `Cold start, wall ms in a fresh node process (median of ${MIN_RUNS}, round-robin): from the first import to the first ` +
      "encode; ours = the package's tokenizer entry embedlab/tokenizer (its SIMD128 module instantiated) and getTokenizer() " +
      '(the binary vocabulary shipped in the package, read from disk), and the same through the whole library (embedlab: ' +
      'createEmbedLab, then lab.getTokenizer); peers = their module import (rank data included) and construction; ' +
      "@huggingface/tokenizers' includes reading and parsing the generated tokenizer.json (goal: the tokenizer entry below " +
      'every peer).',
    '',
    ...header(
      ['vocabulary'],
      ['ours embedlab/tokenizer', 'ours embedlab (whole library)'],
      'fastest peer / ours (tokenizer entry / whole library)',
    ),
    ...coldTable,
    '',
    ...long.lines,
    '',
    ...training.lines,
    '',
    misses.length
      ? `Below a goal / not linear: ${misses.join('; ')}.`
      : 'Every row meets its goal; long inputs are linear.',
    '',
    `(${seconds.toFixed(0)} s)`,
  ];
  return lines.join('\n');
}
