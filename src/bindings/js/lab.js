// The idiomatic API over the raw Embind module: option objects, checked arguments, real JS errors.
import {
  describe,
  requireBoolean,
  requireIds,
  requireInteger,
  requireNumber,
  requireOptions,
  requireVector,
} from './checks.js';
import { PositionalEncoding, SelfAttention, TokenEmbedding } from './handles.js';
import { WordVectors } from './glove.js';
import { Model, normalizeModelConfig } from './model.js';
import { openSafetensors } from './safetensors.js';
import { SliceSizer, yieldToEventLoop } from './scheduling.js';
import { Tokenizer } from './tokenizer.js';
import { PATTERN_OF_REGEX, readVocabulary, VOCABULARY_FILES } from './vocabularies.js';

const ERROR_TYPES = { RangeError, TypeError, Error };
const SEED_MAX = 2 ** 53;

export class EmbedLab {
  #raw;

  constructor(raw, flavour) {
    this.#raw = raw;
    /** Package version. */
    this.version = raw.version();
    /** Highway target the kernels run on: "WASM" (SIMD128) or "EMU128" (no SIMD). */
    this.simdTarget = raw.simdTarget();
    /** Which module was loaded: "simd" or "fallback". */
    this.flavour = flavour;
    /** Caps on sizes, the same the C++ core enforces. */
    this.limits = Object.freeze({ maxDim: 16384, maxVocabSize: 2 ** 21, maxSequenceLength: 65536 });
    this.kernels = Object.freeze(this.#makeKernels());
  }

  /** Wasm memory: {heapBytes: size of the wasm memory, allocatedBytes: bytes malloc has handed out}. */
  memory() {
    return { heapBytes: this.#raw.HEAPU8.length, allocatedBytes: this.#raw.allocatedBytes() };
  }

  /** Runs a raw call and turns a recorded C++ error into a thrown JS error. */
  call(body) {
    const result = body();
    if (this.#raw.hasError()) {
      const { kind, message } = this.#raw.takeError();
      throw new (ERROR_TYPES[kind] ?? Error)(message);
    }
    return result;
  }

  /** Encoding names accepted by getTokenizer(). */
  get tokenizerNames() {
    return Object.keys(VOCABULARY_FILES);
  }

  /** Loads one of OpenAI's vocabularies: 'gpt2' | 'r50k_base' | 'p50k_base' | 'p50k_edit' | 'cl100k_base' | 'o200k_base'. */
  async getTokenizer(name) {
    const file = VOCABULARY_FILES[name];
    if (typeof name !== 'string' || file === undefined) {
      throw new TypeError(`name must be one of ${this.tokenizerNames.join(', ')}; got ${describe(name)}`);
    }
    this.#stage(await readVocabulary(file));
    return new Tokenizer(
      this,
      this.call(() => this.#raw.tokenizerForEncoding(name)),
      this.#raw,
    );
  }

  /**
   * Trains a byte-level BPE vocabulary on `corpus` (string or bytes): {vocabSize (256 single bytes
   * included), pattern = 'o200k' | 'cl100k' | 'gpt2', specialTokens = [], name = 'trained', onProgress,
   * progressInterval, signal}. Trains in slices of ~16 ms, yielding to the event loop in between, so pages
   * stay responsive; onProgress({merges, wanted, token, count}) runs after each slice (at most
   * progressInterval merges) and may return false, like aborting options.signal, to stop early with the
   * merges made so far.
   */
  async trainTokenizer(corpus, options) {
    const {
      vocabSize,
      pattern = 'o200k',
      specialTokens = [],
      name = 'trained',
      onProgress,
      progressInterval = Infinity,
      signal,
    } = requireOptions('options', options);
    const bytes = typeof corpus === 'string' ? new TextEncoder().encode(corpus) : corpus;
    if (!(bytes instanceof Uint8Array)) {
      throw new TypeError(`corpus must be a string or a Uint8Array, got ${describe(corpus)}`);
    }
    requireInteger('vocabSize', vocabSize, 256, 2 ** 21);
    if (!['gpt2', 'cl100k', 'o200k'].includes(pattern)) {
      throw new TypeError(`pattern must be 'gpt2', 'cl100k' or 'o200k', got ${describe(pattern)}`);
    }
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
      requireInteger('progressInterval', progressInterval, 1, 2 ** 21);
    }
    if (signal?.aborted) {
      throw signal.reason ?? new Error('training was aborted before it started');
    }
    this.#stage(bytes);
    const trainer = this.call(() => this.#raw.createBpeTrainer(vocabSize, pattern, specialTokens));
    try {
      const sizer = new SliceSizer(16, progressInterval);
      while (!trainer.done() && !signal?.aborted) {
        const started = performance.now();
        this.call(() => trainer.step(sizer.count));
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
        this,
        this.call(() => trainer.finish(name)),
        this.#raw,
      );
    } finally {
      trainer.delete();
    }
  }

  /**
   * A tokenizer from vocabulary files you have: {tiktoken, encoding} (a .tiktoken file with a named
   * encoding's pattern and special tokens) or {tiktoken, pattern, specialTokens, name}; {tiktokenJson}
   * (npm tiktoken's encoder JSON: pat_str, special_tokens, bpe_ranks); {encoderJson, vocabBpe} (GPT-2's
   * files). Files are strings or bytes.
   */
  tokenizerFromVocabulary(files) {
    const options = requireOptions('files', files);
    const bytesOf = (name, value) => {
      if (typeof value === 'string') {
        return new TextEncoder().encode(value);
      }
      if (value instanceof Uint8Array) {
        return value;
      }
      if (value instanceof ArrayBuffer) {
        return new Uint8Array(value);
      }
      throw new TypeError(`${name} must be a string or bytes, got ${describe(value)}`);
    };
    const specialsOf = (name, map) => {
      if (map === null || typeof map !== 'object') {
        throw new TypeError(`${name} must be an object {text: id}, got ${describe(map)}`);
      }
      return Object.entries(map).map(([text, id]) => ({
        text,
        id: requireInteger(`${name}[${JSON.stringify(text)}]`, id, 0, 0xfffffffe),
      }));
    };
    const build = (kind, split, pattern, specials, name) =>
      new Tokenizer(
        this,
        this.call(() => this.#raw.tokenizerFromVocabulary(kind, split, pattern, specials, name)),
        this.#raw,
      );
    if (options.tiktoken !== undefined) {
      const bytes = bytesOf('files.tiktoken', options.tiktoken);
      if (options.encoding !== undefined) {
        if (VOCABULARY_FILES[options.encoding] === undefined) {
          throw new TypeError(
            `files.encoding must be one of ${this.tokenizerNames.join(', ')}; got ${describe(options.encoding)}`,
          );
        }
        this.#stage(bytes);
        return new Tokenizer(
          this,
          this.call(() => this.#raw.tokenizerForEncoding(options.encoding)),
          this.#raw,
        );
      }
      const { pattern = 'o200k', specialTokens = {}, name = 'custom' } = options;
      if (!['gpt2', 'cl100k', 'o200k'].includes(pattern)) {
        throw new TypeError(`files.pattern must be 'gpt2', 'cl100k' or 'o200k', got ${describe(pattern)}`);
      }
      const specials = specialsOf('files.specialTokens', specialTokens);
      this.#stage(bytes);
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
      const pattern = PATTERN_OF_REGEX[json.pat_str];
      if (pattern === undefined) {
        throw new RangeError(
          `files.tiktokenJson.pat_str must be the gpt2, cl100k or o200k pattern (the pre-tokenizers this library implements), got ${describe(json.pat_str)}`,
        );
      }
      const specials = specialsOf('files.tiktokenJson.special_tokens', json.special_tokens ?? {});
      this.#stage(new TextEncoder().encode(json.bpe_ranks));
      return build('npm-ranks', 0, pattern, specials, 'tiktoken-json');
    }
    if (options.encoderJson !== undefined || options.vocabBpe !== undefined) {
      const encoder = bytesOf('files.encoderJson', options.encoderJson);
      const merges = bytesOf('files.vocabBpe', options.vocabBpe);
      const both = new Uint8Array(encoder.length + merges.length);
      both.set(encoder);
      both.set(merges, encoder.length);
      this.#stage(both);
      return build('gpt2', encoder.length, 'gpt2', [{ text: '<|endoftext|>', id: 50256 }], 'gpt2');
    }
    throw new TypeError('files must have tiktoken, tiktokenJson, or encoderJson and vocabBpe');
  }

  /** A tokenizer saved with tokenizer.save() (text or binary form). */
  loadTokenizer(bytes) {
    if (typeof bytes === 'string') {
      bytes = new TextEncoder().encode(bytes);
    }
    if (bytes instanceof ArrayBuffer) {
      bytes = new Uint8Array(bytes);
    }
    if (!(bytes instanceof Uint8Array)) {
      throw new TypeError(`bytes must be a Uint8Array from tokenizer.save(), got ${describe(bytes)}`);
    }
    this.#stage(bytes);
    return new Tokenizer(
      this,
      this.call(() => this.#raw.loadTokenizer()),
      this.#raw,
    );
  }

  /**
   * A tiny GPT: {vocabSize, contextLength = 32, channels = 32, layers = 2, heads = 2, positions = 'learned'
   * | 'sinusoidal' | 'rope' | 'alibi' | 'none', ropeLayout, ropeBase, causal = true, seed = 0, optimizer}.
   */
  createModel(config) {
    const { model, optimizer } = normalizeModelConfig(config);
    return new Model(
      this,
      this.call(() => this.#raw.createModel(model, optimizer)),
    );
  }

  /** A model saved with model.save() (safetensors bytes), optimizer state included. */
  loadModel(bytes) {
    if (bytes instanceof ArrayBuffer) {
      bytes = new Uint8Array(bytes);
    }
    if (!(bytes instanceof Uint8Array)) {
      throw new TypeError(`bytes must be a Uint8Array from model.save(), got ${describe(bytes)}`);
    }
    this.#stage(bytes);
    return new Model(
      this,
      this.call(() => this.#raw.loadModel()),
    );
  }

  /**
   * Pretrained word vectors from a GloVe / word2vec text file (string, bytes, or a Blob/File): one
   * "word v1 ... vd" per line, an optional "count dim" header. Malformed files give an error naming the line.
   */
  async loadWordVectors(source) {
    let bytes;
    if (typeof source === 'string') {
      bytes = new TextEncoder().encode(source);
    } else if (source instanceof Uint8Array) {
      bytes = source;
    } else if (source instanceof ArrayBuffer) {
      bytes = new Uint8Array(source);
    } else if (source !== null && typeof source === 'object' && typeof source.arrayBuffer === 'function') {
      bytes = new Uint8Array(await source.arrayBuffer());
    } else {
      throw new TypeError(`source must be text, a Uint8Array, an ArrayBuffer or a Blob/File, got ${describe(source)}`);
    }
    this.#stage(bytes);
    const { words, dim, vectors } = this.call(() => this.#raw.parseGlove());
    return new WordVectors(this, words, dim, vectors);
  }

  /** Opens a safetensors file (Uint8Array, ArrayBuffer, Blob or File): names, shapes, and get(name). */
  readSafetensors(source) {
    return openSafetensors(this, this.#raw, source, (bytes) => this.#stage(bytes));
  }

  // Copies bytes into the wasm staging buffer that the next raw call reads.
  #stage(bytes) {
    const raw = this.#raw;
    const pointer = this.call(() => raw.stagingBuffer(bytes.length));
    raw.HEAPU8.set(bytes, pointer);
  }

  tokenEmbedding(options) {
    const { vocabSize, dim, seed = 0, stddev = 0.02 } = requireOptions('options', options);
    requireInteger('vocabSize', vocabSize, 1, this.limits.maxVocabSize);
    requireInteger('dim', dim, 1, this.limits.maxDim);
    requireInteger('seed', seed, 0, SEED_MAX);
    requireNumber('stddev', stddev, 0, 100);
    return new TokenEmbedding(
      this,
      this.call(() => this.#raw.createTokenEmbedding(vocabSize, dim, seed, stddev)),
    );
  }

  positionalEncoding(kind, options) {
    const { dim, maxLength = 1024, base = 10000, seed = 0, stddev = 0.02 } = requireOptions('options', options);
    requireInteger('dim', dim, 1, this.limits.maxDim);
    requireInteger('maxLength', maxLength, 1, this.limits.maxSequenceLength);
    let raw;
    if (kind === 'sinusoidal') {
      requireNumber('base', base, 1, 1e12);
      raw = this.call(() => this.#raw.createSinusoidalEncoding(dim, maxLength, base));
    } else if (kind === 'learned') {
      requireInteger('seed', seed, 0, SEED_MAX);
      requireNumber('stddev', stddev, 0, 100);
      raw = this.call(() => this.#raw.createLearnedEncoding(maxLength, dim, seed, stddev));
    } else if (kind === 'none') {
      raw = this.call(() => this.#raw.createNoPositionalEncoding(dim, maxLength));
    } else {
      throw new TypeError(`kind must be 'sinusoidal', 'learned' or 'none', got ${describe(kind)}`);
    }
    return new PositionalEncoding(this, raw);
  }

  selfAttention(options) {
    const { dim, seed = 0, causal = false } = requireOptions('options', options);
    requireInteger('dim', dim, 1, this.limits.maxDim);
    requireInteger('seed', seed, 0, SEED_MAX);
    requireBoolean('causal', causal);
    return new SelfAttention(
      this,
      this.call(() => this.#raw.createSelfAttention(dim, seed, causal)),
    );
  }

  compose(ids, options) {
    const { embedding, positional = null, offset = 0 } = requireOptions('options', options);
    requireIds('ids', ids, this.limits.maxSequenceLength);
    const rawEmbedding = this.#handle('embedding', embedding, TokenEmbedding);
    const rawPositional = positional === null ? null : this.#handle('positional', positional, PositionalEncoding);
    requireInteger('offset', offset, 0, this.limits.maxSequenceLength);
    return this.call(() => this.#raw.compose(ids, rawEmbedding, rawPositional, offset));
  }

  compare(idsA, idsB, options) {
    const { embedding, positional = null, attention = {} } = requireOptions('options', options);
    requireIds('idsA', idsA, this.limits.maxSequenceLength);
    requireIds('idsB', idsB, this.limits.maxSequenceLength);
    const rawEmbedding = this.#handle('embedding', embedding, TokenEmbedding);
    const rawPositional = positional === null ? null : this.#handle('positional', positional, PositionalEncoding);
    if (attention === null || attention === false) {
      return this.call(() => this.#raw.compare(idsA, idsB, rawEmbedding, rawPositional, null));
    }
    if (attention instanceof SelfAttention) {
      const rawAttention = this.#handle('attention', attention, SelfAttention);
      return this.call(() => this.#raw.compare(idsA, idsB, rawEmbedding, rawPositional, rawAttention));
    }
    const attentionOptions = attention === true ? {} : requireOptions('attention', attention);
    const temporary = this.selfAttention({ ...attentionOptions, dim: embedding.dim });
    try {
      return this.call(() => this.#raw.compare(idsA, idsB, rawEmbedding, rawPositional, temporary.raw()));
    } finally {
      temporary.dispose();
    }
  }

  #handle(name, value, type) {
    if (!(value instanceof type)) {
      throw new TypeError(`${name} must be a ${type.name} from this EmbedLab, got ${describe(value)}`);
    }
    if (value.lab !== this) {
      throw new TypeError(`${name} belongs to another EmbedLab instance`);
    }
    return value.raw(name);
  }

  #makeKernels() {
    const raw = this.#raw;
    const pair = (a, b) => {
      requireVector('a', a);
      requireVector('b', b, a.length);
    };
    return {
      dot: (a, b) => (pair(a, b), this.call(() => raw.dot(a, b))),
      norm: (a) => (requireVector('a', a), this.call(() => raw.norm(a))),
      cosine: (a, b) => (pair(a, b), this.call(() => raw.cosine(a, b))),
      add: (a, b) => (pair(a, b), this.call(() => raw.add(a, b))),
      scaledAdd: (alpha, x, y) => {
        requireNumber('alpha', alpha, -Number.MAX_VALUE, Number.MAX_VALUE);
        requireVector('x', x);
        requireVector('y', y, x.length);
        return this.call(() => raw.scaledAdd(alpha, x, y));
      },
      cosineMatrix: (a, b, dim) => {
        requireVector('a', a);
        requireVector('b', b);
        requireInteger('dim', dim, 1, this.limits.maxDim);
        return this.call(() => raw.cosineMatrix(a, b, dim));
      },
      sinCos: (angles) => (requireVector('angles', angles), this.call(() => raw.sinCos(angles))),
    };
  }
}
