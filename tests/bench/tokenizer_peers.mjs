// The npm tokenizers the benchmark measures ours against, each behind one interface, so that every table
// runs the same peers the same way:
//   create() -> instance; encode(p, text) -> ids; count(p, text) -> number; decode(p, ids) -> string, where
//   ids come as the peer takes them (arrays: true for plain arrays; typedIds: false when it refuses a typed array);
//   clear(p): empties a merge cache that
//   outlives a call (run before every timed run, as ours keeps none between calls); free(p);
//   init(): one construction from data already loaded, for the init table; cold(name): a node script
//   (ES module text) that imports the peer and encodes once, for the cold-start table.
// A peer lacking an encoding (ai-tokenizer has no r50k_base) is null.
import { readFileSync } from 'node:fs';

import { Tokenizer as HfTokenizer } from '@huggingface/tokenizers';
import { Tokenizer as AiTokenizer } from 'ai-tokenizer';
import { GptEncoding } from 'gpt-tokenizer/GptEncoding';
import { Tiktoken as JsTiktoken } from 'js-tiktoken/lite';
import { get_encoding } from 'tiktoken';

import { gptTokenizerDataDir } from '../reference/tokenizer_corpora.mjs';
import { hfTokenizerConfig, hfTokenizerFile } from './hf_tokenizer_json.mjs';

export const PEER_NAMES = {
  tiktoken: 'tiktoken',
  jsTiktoken: 'js-tiktoken',
  gptTokenizer: 'gpt-tokenizer',
  aiTokenizer: 'ai-tokenizer',
  hf: '@huggingface/tokenizers',
};
const AI_TOKENIZER_ENCODINGS = ['p50k_base', 'cl100k_base', 'o200k_base'];

const utf8 = new TextDecoder();
const prelude = 'const t0 = performance.now();';
const report = 'process.stdout.write(String(performance.now() - t0));';

// ai-tokenizer builds its rank maps while its encoding module is evaluated: a fresh construction is a
// fresh evaluation of that module (its chunk file, imported under a new query string each time).
let aiImports = 0;
function aiEncodingChunk(name) {
  const entry = new URL(import.meta.resolve(`ai-tokenizer/encoding/${name}`));
  const chunk = /from "\.\/([^"]+)"/.exec(readFileSync(entry, 'utf8'))[1];
  return new URL(chunk, entry).href;
}

/** {key: peer or null} for the encoding `name`; hfDir holds the generated tokenizer.json files. */
export async function loadPeers(name, hfDir) {
  const bpe = (await import(`gpt-tokenizer/bpeRanks/${name}`)).default;
  const jsRanks = (await import(`js-tiktoken/ranks/${name}`)).default;
  const hfFile = await hfTokenizerFile(name, `${gptTokenizerDataDir}/${name}.tiktoken`, hfDir);
  const hfJson = JSON.parse(readFileSync(hfFile, 'utf8'));
  const hasAi = AI_TOKENIZER_ENCODINGS.includes(name);
  const aiEncoding = hasAi ? await import(`ai-tokenizer/encoding/${name}`) : null;
  const aiChunk = hasAi ? aiEncodingChunk(name) : null;
  const noCache = () => {};
  return {
    tiktoken: {
      create: () => get_encoding(name),
      encode: (p, text) => p.encode(text),
      count: (p, text) => p.encode(text).length, // no count() of its own
      decode: (p, ids) => utf8.decode(p.decode(ids)),
      clear: noCache,
      free: (p) => p.free(),
      init: () => get_encoding(name).free(),
      cold: `${prelude} (await import('tiktoken')).get_encoding('${name}').encode('hello world'); ${report}`,
    },
    jsTiktoken: {
      create: () => new JsTiktoken(jsRanks),
      encode: (p, text) => p.encode(text),
      count: (p, text) => p.encode(text).length,
      decode: (p, ids) => p.decode(ids),
      arrays: true,
      clear: noCache,
      free: noCache,
      init: () => new JsTiktoken(jsRanks),
      cold:
        `${prelude} const { Tiktoken } = await import('js-tiktoken/lite'); ` +
        `new Tiktoken((await import('js-tiktoken/ranks/${name}')).default).encode('hello world'); ${report}`,
    },
    gptTokenizer: {
      create: () => GptEncoding.getEncodingApi(name, () => bpe),
      encode: (p, text) => p.encode(text),
      count: (p, text) => p.countTokens(text),
      decode: (p, ids) => p.decode(ids),
      arrays: true,
      clear: (p) => p.clearMergeCache(),
      free: noCache,
      init: () => GptEncoding.getEncodingApi(name, () => bpe),
      cold: `${prelude} (await import('gpt-tokenizer/encoding/${name}')).encode('hello world'); ${report}`,
    },
    aiTokenizer: hasAi && {
      create: () => new AiTokenizer(aiEncoding),
      encode: (p, text) => p.encode(text),
      count: (p, text) => p.count(text),
      decode: (p, ids) => p.decode(ids),
      arrays: true,
      clear: (p) => p.mergeCache.clear(),
      free: noCache,
      init: async () => new AiTokenizer(await import(`${aiChunk}?fresh=${++aiImports}`)),
      cold:
        `${prelude} const { Tokenizer } = await import('ai-tokenizer'); ` +
        `new Tokenizer(await import('ai-tokenizer/encoding/${name}')).encode('hello world'); ${report}`,
    },
    hf: {
      create: () => new HfTokenizer(hfJson, hfTokenizerConfig),
      encode: (p, text) => p.encode(text, { add_special_tokens: false }).ids,
      count: (p, text) => p.tokenize(text).length,
      decode: (p, ids) => (ids.length ? p.decode(ids) : ''), // it refuses an empty list
      arrays: true,
      typedIds: false,
      clear: (p) => p.model.clear_cache(),
      free: noCache,
      init: () => new HfTokenizer(hfJson, hfTokenizerConfig),
      cold:
        `${prelude} const { Tokenizer } = await import('@huggingface/tokenizers'); ` +
        `const json = JSON.parse((await import('node:fs')).readFileSync(${JSON.stringify(hfFile)}, 'utf8')); ` +
        `new Tokenizer(json, ${JSON.stringify(hfTokenizerConfig)}).encode('hello world'); ${report}`,
    },
  };
}

/** Texts of `texts` whose ids from peer differ from `expected` (ours), as a count. */
export function mismatches(texts, expected, ids) {
  let count = 0;
  texts.forEach((_, i) => {
    const a = expected[i];
    const b = ids[i];
    if (a.length !== b.length || a.some((v, j) => v !== b[j])) {
      count++;
    }
  });
  return count;
}
