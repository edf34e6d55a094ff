// Making tokenizers, the methods of Tokenizers (and so of EmbedLab): OpenAI's shipped vocabularies, BPE training
// in slices, and tokenizers saved with tokenizer.save(). Each function takes the instance's internals ({lab, raw,
// stage}, see runtime/wasm_instance.js).
import { describe, refusePathAsText, requireInteger, requireOptions, requireSignal } from '../runtime/checks.js';
import { SliceSizer, yieldToEventLoop } from '../runtime/scheduling.js';
import { isHfBinary } from './from_hugging_face.js';
import { requireSpecialTokenExtension } from './special_tokens.js';
import { Tokenizer } from './tokenizer.js';
import { readVocabulary, VOCABULARY_FILES } from './vocabularies.js';
/** @import { LabInternals } from '../runtime/types.js' */
/** @import { Tokenizers } from './tokenizers.js' */
/** @import { EncodingName, GetTokenizerOptions, TrainTokenizerOptions } from './types.js' */

/** Encoding names accepted by getTokenizer(). */
/** @type {readonly EncodingName[]} */
export const ENCODING_NAMES = Object.freeze(/** @type {EncodingName[]} */ (Object.keys(VOCABULARY_FILES)));

/**
 * Throws a TypeError unless `pattern` is one of `patterns` (lab.patternNames).
 * @param {string} name
 * @param {string} pattern
 * @param {readonly string[]} patterns
 * @returns {string}
 */
export function requirePattern(name, pattern, patterns) {
  if (!patterns.includes(pattern)) {
    const quoted = patterns.map((known) => `'${known}'`);
    const list = `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
    throw new TypeError(`${name} must be ${list}, got ${describe(pattern)}`);
  }
  return pattern;
}

/**
 * @param {LabInternals<Tokenizers>} internals
 * @param {EncodingName} name
 * @param {GetTokenizerOptions} [options]
 * @returns {Promise<Tokenizer>}
 */
export async function getTokenizer({ lab, raw, stage }, name, options) {
  // Own keys only: 'toString' or '__proto__' must not reach the file system through Object.prototype.
  const file = typeof name === 'string' && Object.hasOwn(VOCABULARY_FILES, name) ? VOCABULARY_FILES[name] : undefined;
  if (file === undefined) {
    throw new TypeError(`name must be one of ${ENCODING_NAMES.join(', ')}; got ${describe(name)}`);
  }
  const { vocabulary, specialTokens } = requireOptions('options', options, ['vocabulary', 'specialTokens']);
  if (specialTokens !== undefined) {
    requireSpecialTokenExtension(specialTokens, [], lab.limits.maxVocabSize); // its shape, before any loading
  }
  // Bytes from the caller (runtimes without a file system or fetch, e.g. Cloudflare Workers) skip the read;
  // the C++ side checks they are this encoding's (token count and the rank of " the").
  const bytes = vocabulary === undefined ? await readVocabulary(file) : vocabularyBytes(vocabulary, name);
  // Handles on the package's own vocabularies share one native tokenizer per name and extra special tokens
  // while any of them lives; the caller's bytes are not the package's file, so they always build their own.
  const key = vocabulary === undefined ? sharingKey(name, specialTokens) : '';
  const shared = key === '' ? null : lab.call(() => raw.sharedTokenizer(key));
  if (shared !== null) {
    return new Tokenizer(lab, shared, raw);
  }
  // An extension starts from the live plain tokenizer when there is one, else from a new one.
  let handle = key === '' ? null : lab.call(() => raw.sharedTokenizer(sharingKey(name)));
  if (handle === null) {
    stage(bytes);
    handle = lab.call(() => raw.tokenizerForEncoding(name));
  }
  if (specialTokens !== undefined) {
    const base = handle;
    try {
      const added = requireSpecialTokenExtension(specialTokens, base.specialTokens(), lab.limits.maxVocabSize);
      if (added.length > 0) {
        handle = lab.call(() => raw.extendTokenizer(base, added)); // with its own copy of the vocabulary
      }
    } catch (error) {
      base.delete();
      throw error;
    }
    if (handle !== base) {
      base.delete();
    }
  }
  if (key !== '') {
    raw.shareTokenizer(handle, key);
  }
  return new Tokenizer(lab, handle, raw);
}

/**
 * @param {string} name
 * @param {Record<string, number>} [specialTokens]
 * @returns {string}
 */
function sharingKey(name, specialTokens = {}) {
  return JSON.stringify([name, Object.entries(specialTokens).sort()]);
}

function vocabularyBytes(vocabulary, name) {
  if (vocabulary instanceof Uint8Array) {
    return vocabulary;
  }
  if (vocabulary instanceof ArrayBuffer) {
    return new Uint8Array(vocabulary);
  }
  throw new TypeError(
    `options.vocabulary must be the bytes (Uint8Array or ArrayBuffer) of ${name}'s vocabulary (vocab/${VOCABULARY_FILES[name]}.emblvoc or its .tiktoken file), got ${describe(vocabulary)}`,
  );
}

/**
 * @param {LabInternals<Tokenizers>} internals
 * @param {string | Uint8Array} corpus
 * @param {TrainTokenizerOptions} options
 * @returns {Promise<Tokenizer>}
 */
export async function trainTokenizer({ lab, raw, stage }, corpus, options) {
  const {
    vocabSize,
    pattern = 'o200k',
    specialTokens = [],
    name = 'trained',
    onProgress,
    progressInterval = Infinity,
    signal,
  } = requireOptions('options', options, [
    'vocabSize',
    'pattern',
    'specialTokens',
    'name',
    'onProgress',
    'progressInterval',
    'signal',
  ]);
  if (typeof corpus === 'string') {
    refusePathAsText('corpus', corpus); // one short line that is a path would train on the path's letters
  }
  const bytes = typeof corpus === 'string' ? new TextEncoder().encode(corpus) : corpus;
  if (!(bytes instanceof Uint8Array)) {
    throw new TypeError(`corpus must be a string or a Uint8Array, got ${describe(corpus)}`);
  }
  requireInteger('vocabSize', vocabSize, 256, lab.limits.maxVocabSize);
  requirePattern('pattern', pattern, lab.patternNames);
  if (!Array.isArray(specialTokens) || specialTokens.some((token) => typeof token !== 'string' || token === '')) {
    throw new TypeError(`specialTokens must be an array of non-empty strings, got ${describe(specialTokens)}`);
  }
  if (typeof name !== 'string') {
    throw new TypeError(`name must be a string, got ${describe(name)}`);
  }
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw new TypeError(`onProgress must be a function, got ${describe(onProgress)}`);
  }
  if (progressInterval !== Infinity) {
    requireInteger('progressInterval', progressInterval, 1, lab.limits.maxVocabSize);
  }
  // One rule for every moment of an abort: training stops at the next slice boundary and resolves with the merges
  // made so far (none when the signal was aborted before the call), as onProgress returning false does.
  requireSignal('signal', signal);
  stage(bytes);
  const trainer = lab.call(() => raw.createBpeTrainer(vocabSize, pattern, specialTokens));
  try {
    const sizer = new SliceSizer(16, progressInterval);
    while (!trainer.done() && !signal?.aborted) {
      const started = performance.now();
      lab.call(() => trainer.step(sizer.count));
      sizer.update(performance.now() - started);
      if (onProgress !== undefined) {
        const last = trainer.lastMerge();
        const report = {
          merges: trainer.mergesDone(),
          wanted: trainer.mergesWanted(),
          token: last?.token ?? new Uint8Array(),
          count: last?.count ?? 0,
        };
        if (onProgress(report) === false) {
          break;
        }
      }
      await yieldToEventLoop();
    }
    return new Tokenizer(
      lab,
      lab.call(() => trainer.finish(name)),
      raw,
    );
  } finally {
    trainer.delete();
  }
}

/**
 * Bytes of a tokenizer file in any accepted form, as a Uint8Array.
 * @param {Uint8Array | ArrayBuffer | string} bytes
 * @returns {Uint8Array}
 */
function tokenizerFileBytes(bytes) {
  if (typeof bytes === 'string') {
    refusePathAsText('bytes', bytes);
    return new TextEncoder().encode(bytes);
  }
  if (bytes instanceof ArrayBuffer) {
    return new Uint8Array(bytes);
  }
  if (!(bytes instanceof Uint8Array)) {
    throw new TypeError(`bytes must be a Uint8Array from tokenizer.save(), got ${describe(bytes)}`);
  }
  return bytes;
}

/**
 * A file of Tokenizer.save(), synchronously on the instance's own module. The binary form of HfTokenizer.save()
 * needs the Hugging Face module, which may have to load: it is refused here with a pointer to the async calls.
 * @param {LabInternals<Tokenizers>} internals
 * @param {Uint8Array | ArrayBuffer | string} bytes
 * @returns {Tokenizer}
 */
export function loadTokenizer({ lab, raw, stage }, bytes) {
  const file = tokenizerFileBytes(bytes);
  if (isHfBinary(file)) {
    throw new TypeError(
      "bytes are a Hugging Face tokenizer's binary form (HfTokenizer.save()): load it with " +
        'await lab.tokenizerFromHuggingFace(bytes), which starts the Hugging Face module',
    );
  }
  stage(file);
  return new Tokenizer(
    lab,
    lab.call(() => raw.loadTokenizer()),
    raw,
  );
}
