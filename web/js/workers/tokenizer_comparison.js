// Section 1's comparison worker: holds every vocabulary the comparison shows (OpenAI's, the Hugging Face ones the
// reader picked, the trained one) and counts the tokens of a few texts under each. Loading a vocabulary of 100 000 to
// 260 000 tokens takes longer than a frame, and so does reading a download of several MB in small parts; here neither
// blocks the page. Requests of workers/client.js.
import createEmbedLab from '../../embedlab/index.js';
import { fetchVocabulary } from './hf_vocabularies.js';
import { serveRequests } from './requests.js';

let labPromise = null;
const decoder = new TextDecoder('utf-8'); // U+FFFD for a token that ends inside a character
const vocabularies = new Map(); // key → {tokenizer, options, decodeOptions: what encode and decode take besides it}
const downloads = new Map(); // key → the bytes of a downloaded Hugging Face vocabulary, until `load` reads them

// A Hugging Face tokenizer may put a start-of-text token first (its tokenizer.json's post-processor template, as
// Gemma 3's <bos>): left out, so that every count is the text's alone, as OpenAI's tokenizers give it; `load` says
// which tokens the tokenizer puts first by default (its encoding of ''), for the row to name. A token is shown as its
// bytes, without transformers' clean-up of spaces (Llama 3's config asks for it: " ," would show as ",").
const HF_OPTIONS = { addSpecialTokens: false };
const HF_DECODE_OPTIONS = { cleanUpTokenizationSpaces: false };

const handlers = {
  /**
   * Fetches one listed Hugging Face vocabulary (`entry` of hf_vocabularies.js's list) for a later `load` of `key`,
   * reporting {done, total} as it arrives; it runs beside the queue, so counts go on while it downloads.
   */
  async download({ simd, key, entry }, progress) {
    labPromise ??= createEmbedLab({ simd }); // the module compiles while the file arrives
    downloads.set(key, await fetchVocabulary(entry, progress));
    return { key };
  },

  /**
   * Loads one vocabulary under `key`: {name} of the library's own (r50k_base, ...), {bytes} of a saved tokenizer
   * (the trained one, or a Hugging Face one with huggingFace: true), or {downloaded: true} for the Hugging Face one
   * `download` fetched, replacing the one under `key` (a new training).
   */
  async load({ simd, key, name, bytes: given, downloaded = false, huggingFace = downloaded }) {
    const bytes = downloaded ? downloads.get(key) : given;
    downloads.delete(key);
    if (downloaded && !bytes) {
      throw new Error(`${key}: not downloaded`);
    }
    const lab = await (labPromise ??= createEmbedLab({ simd }));
    const tokenizer = await (name
      ? lab.getTokenizer(name)
      : huggingFace
        ? lab.tokenizerFromHuggingFace(bytes)
        : lab.loadTokenizer(bytes));
    vocabularies.get(key)?.tokenizer.dispose();
    vocabularies.set(key, {
      tokenizer,
      options: huggingFace ? HF_OPTIONS : undefined,
      decodeOptions: huggingFace ? HF_DECODE_OPTIONS : undefined,
    });
    // What encode puts around a text by default, seen on the empty text: the start tokens the counts leave out.
    const start = Array.from(tokenizer.encode(''), (id) => ({
      id,
      text: decoder.decode(tokenizer.decodeBytes([id], huggingFace ? HF_DECODE_OPTIONS : undefined)),
    }));
    return { key, vocabSize: tokenizer.vocabSize, start };
  },

  /**
   * The tokens of `texts` under each loaded vocabulary of `keys`: {key: {vocabSize, counts, tokens}} with
   * counts[i] the count of texts[i], and tokens the first `shown` of texts[0] ({id, text}: the token's own bytes as
   * text, U+FFFD where it holds part of a character, as section 1's list shows them); or {key: {error}}.
   */
  count({ keys, texts, shown }) {
    const results = {};
    for (const key of keys.filter((k) => vocabularies.has(k))) {
      const { tokenizer, options, decodeOptions } = vocabularies.get(key);
      try {
        const ids = tokenizer.encode(texts[0], options);
        results[key] = {
          vocabSize: tokenizer.vocabSize,
          counts: [ids.length, ...texts.slice(1).map((text) => tokenizer.count(text, options))],
          tokens: Array.from(ids.subarray(0, shown), (id) => ({
            id,
            text: decoder.decode(tokenizer.decodeBytes([id], decodeOptions)),
          })),
        };
      } catch (error) {
        results[key] = { error: error?.message ?? String(error) };
      }
    }
    return results;
  },
};

serveRequests(handlers, { concurrent: ['download'] });
