// Which encoding an OpenAI model uses, as tiktoken answers it (tiktoken/model.py on main, and npm tiktoken's
// model_to_encoding.json, whose dated names the prefixes below also cover): an exact name first, then the first
// matching prefix, so a new dated release (gpt-4o-2099-01-01) needs no table update. js-tiktoken 1.0.21 maps
// davinci-002 and babbage-002 to p50k_base and r50k_base; tiktoken uses cl100k_base for both.
import { describe } from '../runtime/checks.js';
import { VOCABULARY_FILES } from './vocabularies.js';
/** @import { EncodingName } from './types.js' */

const O200K = 'o200k_base';
const CL100K = 'cl100k_base';
const P50K = 'p50k_base';
const R50K = 'r50k_base';

// Model -> encoding by exact name: tiktoken's MODEL_TO_ENCODING. npm tiktoken's longer list of dated names
// (gpt-4o-2024-05-13, o1-mini, ...) is covered by the prefix rules; tests/node/tokenizer_conveniences checks all.
/**
 * @internal
 * @type {Readonly<Record<string, EncodingName>>}
 */
export const MODEL_ENCODINGS = Object.freeze({
  // reasoning
  o1: O200K,
  o3: O200K,
  'o4-mini': O200K,
  // chat
  'gpt-5': O200K,
  'gpt-4.1': O200K,
  'gpt-4o': O200K,
  'gpt-4': CL100K,
  'gpt-3.5-turbo': CL100K,
  'gpt-3.5': CL100K, // common shorthand
  'gpt-35-turbo': CL100K, // Azure deployment name
  // base
  'davinci-002': CL100K,
  'babbage-002': CL100K,
  // embeddings
  'text-embedding-ada-002': CL100K,
  'text-embedding-3-small': CL100K,
  'text-embedding-3-large': CL100K,
  // deprecated: text
  'text-davinci-003': P50K,
  'text-davinci-002': P50K,
  'text-davinci-001': R50K,
  'text-curie-001': R50K,
  'text-babbage-001': R50K,
  'text-ada-001': R50K,
  davinci: R50K,
  curie: R50K,
  babbage: R50K,
  ada: R50K,
  // deprecated: code
  'code-davinci-002': P50K,
  'code-davinci-001': P50K,
  'code-cushman-002': P50K,
  'code-cushman-001': P50K,
  'davinci-codex': P50K,
  'cushman-codex': P50K,
  // deprecated: edit
  'text-davinci-edit-001': 'p50k_edit',
  'code-davinci-edit-001': 'p50k_edit',
  // deprecated: old embeddings
  'text-similarity-davinci-001': R50K,
  'text-similarity-curie-001': R50K,
  'text-similarity-babbage-001': R50K,
  'text-similarity-ada-001': R50K,
  'text-search-davinci-doc-001': R50K,
  'text-search-curie-doc-001': R50K,
  'text-search-babbage-doc-001': R50K,
  'text-search-ada-doc-001': R50K,
  'code-search-babbage-code-001': R50K,
  'code-search-ada-code-001': R50K,
  // their query and text sides, which tiktoken's table lacks (gpt-tokenizer lists them)
  'text-search-davinci-query-001': R50K,
  'text-search-curie-query-001': R50K,
  'text-search-babbage-query-001': R50K,
  'text-search-ada-query-001': R50K,
  'code-search-babbage-text-001': R50K,
  'code-search-ada-text-001': R50K,
  // open weights (gpt-oss-20b and gpt-oss-120b: the prefix rule)
  gpt2: 'gpt2',
  'gpt-2': 'gpt2',
});

// Prefix -> encoding, tried in this order (tiktoken's MODEL_PREFIX_TO_ENCODING): "ft:gpt-4o" before "ft:gpt-4".
/**
 * @internal
 * @type {readonly (readonly [string, EncodingName])[]}
 */
export const MODEL_PREFIX_ENCODINGS = Object.freeze([
  ['o1-', O200K],
  ['o3-', O200K],
  ['o4-mini-', O200K],
  ['gpt-5-', O200K],
  ['gpt-4.5-', O200K],
  ['gpt-4.1-', O200K],
  ['chatgpt-4o-', O200K],
  ['gpt-4o-', O200K], // gpt-4o-2024-05-13, gpt-4o-mini-...
  ['gpt-4-', CL100K], // gpt-4-0314, gpt-4-32k-...
  ['gpt-3.5-turbo-', CL100K],
  ['gpt-35-turbo-', CL100K],
  ['gpt-oss-', 'o200k_harmony'],
  // fine-tuned models: ft:<base model>:<org>:<suffix>:<id>
  ['ft:gpt-4o', O200K],
  ['ft:gpt-4', CL100K],
  ['ft:gpt-3.5-turbo', CL100K],
  ['ft:davinci-002', CL100K],
  ['ft:babbage-002', CL100K],
]);

/**
 * The encoding an OpenAI model uses, as tiktoken maps it ('gpt-4o' -> 'o200k_base', 'gpt-4' -> 'cl100k_base'): an
 * exact model name, else a known prefix (dated and fine-tuned names). Throws a RangeError for other names.
 * @param {string} model
 * @returns {EncodingName}
 */
export function encodingNameForModel(model) {
  if (typeof model !== 'string') {
    throw new TypeError(`model must be a model name string such as 'gpt-4o', got ${describe(model)}`);
  }
  if (Object.hasOwn(MODEL_ENCODINGS, model)) {
    return MODEL_ENCODINGS[model];
  }
  const rule = MODEL_PREFIX_ENCODINGS.find(([prefix]) => model.startsWith(prefix));
  if (rule !== undefined) {
    return rule[1];
  }
  const examples = Object.keys(MODEL_ENCODINGS).slice(0, 8).join(', ');
  throw new RangeError(
    `model: no known encoding for ${JSON.stringify(model)} (tiktoken's table: ${examples}, ... and names starting ` +
      `with ${MODEL_PREFIX_ENCODINGS.map(([prefix]) => `'${prefix}'`).join(', ')}); pass the encoding instead: ` +
      `lab.getTokenizer(name) with name one of ${Object.keys(VOCABULARY_FILES).join(', ')}`,
  );
}
