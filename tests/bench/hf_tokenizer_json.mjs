// A Hugging Face tokenizer.json for an OpenAI encoding, so that @huggingface/tokenizers (which loads only
// that format and ships no vocabulary) can be benchmarked on the same vocabularies without a download.
// Built from the .tiktoken file as transformers' TikTokenConverter does: GPT-2's byte-to-unicode alphabet,
// vocab = rank, merges = every split of a token into two tokens, ordered by the rank of the merged token
// (so BPE by merge priority merges as tiktoken's lowest rank first); ignore_merges looks a whole piece up
// first as tiktoken does; the pre-tokenizer is the encoding's regex (Split, Isolated) then ByteLevel
// without its own regex. The benchmark checks the ids against ours before timing anything.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';

// GPT-2's bytes_to_unicode: printable Latin-1 bytes map to themselves, the others to U+0100 onwards.
function byteAlphabet() {
  const table = new Array(256);
  let next = 256;
  for (let b = 0; b < 256; b++) {
    const printable = (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
    table[b] = String.fromCodePoint(printable ? b : next++);
  }
  return table;
}

/** tokenizer.json (as an object) for `name`, from its .tiktoken file and js-tiktoken's pattern and specials. */
export function hfTokenizerJson(tiktokenText, patStr, specialTokens) {
  const alphabet = byteAlphabet();
  const ranks = new Map(); // latin-1 string of the token's bytes -> rank
  const vocab = {};
  for (const line of tiktokenText.split('\n')) {
    if (!line) {
      continue;
    }
    const [base64, rank] = line.split(' ');
    const bytes = Buffer.from(base64, 'base64');
    ranks.set(bytes.toString('latin1'), Number(rank));
    vocab[Array.from(bytes, (b) => alphabet[b]).join('')] = Number(rank);
  }
  const toUnicode = (latin1) => Array.from(latin1, (c) => alphabet[c.charCodeAt(0)]).join('');
  const merges = [];
  for (const [token, rank] of ranks) {
    const splits = [];
    for (let i = 1; i < token.length; i++) {
      const left = token.slice(0, i);
      const right = token.slice(i);
      if (ranks.has(left) && ranks.has(right)) {
        splits.push([ranks.get(left), ranks.get(right), left, right]);
      }
    }
    splits.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    for (const [, , left, right] of splits) {
      merges.push([rank, toUnicode(left), toUnicode(right)]);
    }
  }
  merges.sort((a, b) => a[0] - b[0]); // stable: the splits of one token keep their order
  // js-tiktoken's patterns use capturing groups, which a split would return as extra pieces.
  const pattern = patStr.replace(/\((?!\?)/g, '(?:');
  return {
    version: '1.0',
    added_tokens: Object.entries(specialTokens).map(([content, id]) => ({
      id,
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: null,
    pre_tokenizer: {
      type: 'Sequence',
      pretokenizers: [
        { type: 'Split', pattern: { Regex: pattern }, behavior: 'Isolated', invert: false },
        { type: 'ByteLevel', add_prefix_space: false, trim_offsets: false, use_regex: false },
      ],
    },
    post_processor: null,
    decoder: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: false, use_regex: false },
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: null,
      end_of_word_suffix: null,
      fuse_unk: false,
      byte_fallback: false,
      ignore_merges: true,
      vocab,
      merges: merges.map(([, left, right]) => [left, right]),
    },
  };
}

/** The tokenizer.json text for `name`, generated once into `dir` and read from there afterwards. */
export async function hfTokenizerFile(name, tiktokenPath, dir) {
  const file = `${dir}/${name}.tokenizer.json`;
  if (!existsSync(file)) {
    const { pat_str: patStr, special_tokens: specials } = (await import(`js-tiktoken/ranks/${name}`)).default;
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, JSON.stringify(hfTokenizerJson(readFileSync(tiktokenPath, 'utf8'), patStr, specials)));
  }
  return file;
}

/** tokenizer_config.json's fields that matter here: decode must not "clean up" spaces before punctuation. */
export const hfTokenizerConfig = { clean_up_tokenization_spaces: false };
