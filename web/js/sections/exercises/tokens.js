// Section 9, the exercises on tokens (sections 1 and 2). Each check returns {ok, message}: the message says what
// the library found for the learner's input, never the answer; `explain` is shown only after a success.

/** The token the 'id' exercise asks for: one r50k_base token whose id none of the page's default texts prints. */
export const LOOKED_UP = ' rotation';
const visible = (text) => text.replace(/ /g, '␣');
/** How r50k_base cuts a text, in words: “another token” or its pieces with their ids. */
const withoutSpace = (tok, text) => {
  const pieces = tok.tokens(text);
  return pieces.length === 1
    ? `“${text}” is another token, ${pieces[0].id}`
    : `“${text}” is not even one token but ${pieces.length}: ${pieces.map((t) => `“${t.text}” (${t.id})`).join(' + ')}`;
};

export const TOKEN_EXERCISES = [
  {
    id: 'split',
    title: 'A word in pieces',
    text: 'Find an English word that r50k_base (GPT-2) cuts into at least three tokens, and type it with one leading space, as it would appear mid-sentence. (The check counts the tokens of any letters after a space: it cannot tell a word from a made-up string, so the word is up to you.)',
    inputs: [{ name: 'word', label: 'Word', value: ' cat' }],
    explain:
      'BPE keeps a word whole only if its merges were frequent in the training text; a rare word is spelled out in the frequent pieces it is made of.',
    async check(ctx, { word }) {
      if (!/^ [A-Za-z]+$/.test(word)) {
        return { ok: false, message: 'Type one space, then letters only (A–Z, a–z).' };
      }
      const tok = await ctx.loadTokenizer('r50k_base');
      const pieces = tok.tokens(word).map((t) => `“${t.text}”`);
      return { ok: pieces.length >= 3, message: `${pieces.length} token(s): ${pieces.join(' + ')}.` };
    },
  },
  {
    id: 'cheaper',
    title: 'A newer vocabulary pays off',
    text: 'Find a text of at least 20 characters that o200k_base encodes in at most half as many tokens as r50k_base. (Hint: try a language other than English.)',
    inputs: [{ name: 'text', label: 'Text', value: 'The dog bites the man today.' }],
    explain:
      'r50k_base was trained on mostly English text: few words of other scripts became tokens, and many letters were never merged at all, so they cost up to one token per UTF-8 byte (two bytes per Cyrillic or Greek letter, three per Chinese character). o200k_base has four times as many tokens, many of them for other languages.',
    async check(ctx, { text }) {
      const length = [...text].length;
      if (length < 20) {
        return { ok: false, message: `Use at least 20 characters (this text has ${length}).` };
      }
      const a = (await ctx.loadTokenizer('r50k_base')).count(text);
      const b = (await ctx.loadTokenizer('o200k_base')).count(text);
      return {
        ok: 2 * b <= a,
        message: `r50k_base: ${a} tokens, o200k_base: ${b} tokens (ratio ${(b / a).toFixed(2)}).`,
      };
    },
  },
  {
    id: 'id',
    title: 'Look up an id',
    text: `What is the id of the token “${visible(LOOKED_UP)}” (with its space) in r50k_base? Look it up with section 1’s tokenizer.`,
    inputs: [{ name: 'id', label: 'Token id', value: '', type: 'number' }],
    explain: `An id is only a row number: section 2’s table gives “${visible(LOOKED_UP)}” that row. Ids depend on the leading space: the line above shows what “${LOOKED_UP.trim()}” without it becomes in r50k_base.`,
    async check(ctx, { id }) {
      const tok = await ctx.loadTokenizer('r50k_base');
      const ids = tok.encode(LOOKED_UP);
      if (ids.length !== 1) {
        throw new Error(`“${LOOKED_UP}” is ${ids.length} tokens in r50k_base, not one`);
      }
      const ok = Number(id) === ids[0];
      return {
        ok,
        message: ok
          ? `“${visible(LOOKED_UP)}” → ${ids[0]}. Without its space, ${withoutSpace(tok, LOOKED_UP.trim())}.`
          : `No, ${id} is not it. Type “${LOOKED_UP}” in section 1 with r50k_base.`,
      };
    },
  },
  {
    id: 'the',
    title: 'Train a merge',
    text: 'Train a vocabulary in section 1 in which “␣the” is a single token and choose “your trained vocabulary” there. Then: what is the smallest vocabulary size that makes “␣the” one token on the same text (section 1’s size starts at 257)?',
    inputs: [{ name: 'size', label: 'Smallest size', value: '', type: 'number' }],
    explain:
      '“␣the” is four bytes, so it takes three merges (for example “t”+“h”, then “th”+“e”, then “␣”+“the”). A trained BPE numbers its tokens in the order it made them, the 256 bytes first, and training for a smaller size makes the same merges up to where it stops: so “␣the” is one token exactly from a vocabulary of its id + 1 tokens on. In English text its pairs are among the most frequent, so it comes early.',
    async check(ctx, { size }) {
      if (ctx.tokenizerName !== 'trained') {
        return {
          ok: false,
          message: `Section 1 is set to ${ctx.tokenizerName}: train a vocabulary there and choose “your trained vocabulary”.`,
        };
      }
      const ids = ctx.tokenizer.encode(' the');
      const vocabulary = `your ${ctx.tokenizer.vocabSize}-token vocabulary`;
      if (ids.length !== 1) {
        return {
          ok: false,
          message: `“␣the” is ${ids.length} tokens (${Array.from(ids).join(', ')}) in ${vocabulary}.`,
        };
      }
      const smallest = ids[0] + 1;
      const n = Number(size);
      if (n === smallest) {
        return { ok: true, message: `“␣the” is token ${ids[0]} in ${vocabulary}: made by merge ${ids[0] - 255}.` };
      }
      // The id would give the size away: a wrong size is answered without it.
      return {
        ok: false,
        message: `“␣the” is one token in ${vocabulary}, but ${size} is not the smallest size that makes it one.`,
      };
    },
  },
];
