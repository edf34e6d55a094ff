// tokenizerFromVocabulary: a tokenizer from vocabulary files the caller has (.tiktoken, npm tiktoken's JSON, GPT-2's
// encoder.json + vocab.bpe). Takes the instance's internals ({lab, raw, stage}, see runtime/wasm_instance.js); the
// bytes are parsed by the bounds-checked C++ readers.
import { describe, refusePathAsText, requireInteger, requireOptions } from '../runtime/checks.js';
import { ENCODING_NAMES, requirePattern } from './create.js';
import { Tokenizer } from './tokenizer.js';
import { VOCABULARY_FILES } from './vocabularies.js';
/** @import { LabInternals } from '../runtime/types.js' */
/** @import { VocabularyFields } from '../files/types.js' */
/** @import { Tokenizers } from './tokenizers.js' */

/**
 * @param {string} name
 * @param {unknown} value
 * @returns {Uint8Array}
 */
function bytesOf(name, value) {
  if (typeof value === 'string') {
    refusePathAsText(name, value);
    return new TextEncoder().encode(value);
  }
  if (value instanceof Uint8Array) {
    return value;
  }
  if (value instanceof ArrayBuffer) {
    return new Uint8Array(value);
  }
  throw new TypeError(`${name} must be a string or bytes, got ${describe(value)}`);
}

// {text: id} -> [{text, id}], as the raw module takes special tokens.
/**
 * @param {string} name
 * @param {unknown} map
 * @returns {{ text: string, id: number }[]}
 */
function specialsOf(name, map) {
  if (map === null || typeof map !== 'object') {
    throw new TypeError(`${name} must be an object {text: id}, got ${describe(map)}`);
  }
  return Object.entries(map).map(([text, id]) => ({
    text,
    id: requireInteger(`${name}[${JSON.stringify(text)}]`, id, 0, 0xfffffffe),
  }));
}

/**
 * @param {LabInternals<Tokenizers>} internals
 * @param {VocabularyFields} files
 * @returns {Tokenizer}
 */
export function tokenizerFromVocabulary({ lab, raw, stage }, files) {
  const options = requireOptions('files', files, [
    'tiktoken',
    'encoding',
    'pattern',
    'specialTokens',
    'name',
    'tiktokenJson',
    'encoderJson',
    'vocabBpe',
  ]);
  /** @type {(kind: string, split: number, pattern: string, specials: { text: string, id: number }[], name: string) => Tokenizer} */
  const build = (kind, split, pattern, specials, name) =>
    new Tokenizer(
      lab,
      lab.call(() => raw.tokenizerFromVocabulary(kind, split, pattern, specials, name)),
      raw,
    );
  if (options.tiktoken !== undefined) {
    const bytes = bytesOf('files.tiktoken', options.tiktoken);
    if (options.encoding !== undefined) {
      if (typeof options.encoding !== 'string' || !Object.hasOwn(VOCABULARY_FILES, options.encoding)) {
        throw new TypeError(
          `files.encoding must be one of ${ENCODING_NAMES.join(', ')}; got ${describe(options.encoding)}`,
        );
      }
      stage(bytes);
      return new Tokenizer(
        lab,
        lab.call(() => raw.tokenizerForEncoding(options.encoding)),
        raw,
      );
    }
    const { pattern = 'o200k', specialTokens = {}, name = 'custom' } = options;
    requirePattern('files.pattern', pattern, lab.patternNames);
    const specials = specialsOf('files.specialTokens', specialTokens);
    stage(bytes);
    return build('tiktoken', 0, pattern, specials, String(name));
  }
  if (options.tiktokenJson !== undefined) {
    const json = typeof options.tiktokenJson === 'string' ? JSON.parse(options.tiktokenJson) : options.tiktokenJson;
    if (
      json === null ||
      typeof json !== 'object' ||
      typeof json.bpe_ranks !== 'string' ||
      typeof json.pat_str !== 'string'
    ) {
      throw new TypeError(
        "files.tiktokenJson must be npm tiktoken's encoder JSON with pat_str, special_tokens and bpe_ranks",
      );
    }
    const pattern = raw.patternOfRegex(json.pat_str);
    if (pattern === '') {
      const names = lab.patternNames;
      throw new RangeError(
        `files.tiktokenJson.pat_str must be the ${names.slice(0, -1).join(', ')} or ${names.at(-1)} pattern (the pre-tokenizers this library implements), got ${describe(json.pat_str)}`,
      );
    }
    const specials = specialsOf('files.tiktokenJson.special_tokens', json.special_tokens ?? {});
    stage(new TextEncoder().encode(json.bpe_ranks));
    return build('npm-ranks', 0, pattern, specials, 'tiktoken-json');
  }
  if (options.encoderJson !== undefined || options.vocabBpe !== undefined) {
    const encoder = bytesOf('files.encoderJson', options.encoderJson);
    const merges = bytesOf('files.vocabBpe', options.vocabBpe);
    const both = new Uint8Array(encoder.length + merges.length);
    both.set(encoder);
    both.set(merges, encoder.length);
    stage(both);
    return build('gpt2', encoder.length, 'gpt2', [{ text: '<|endoftext|>', id: 50256 }], 'gpt2');
  }
  throw new TypeError('files must have tiktoken, tiktokenJson, or encoderJson and vocabBpe');
}
