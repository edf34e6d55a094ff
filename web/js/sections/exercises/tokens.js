// Section 9, the exercises on tokens (sections 1 and 2). Each check returns {ok, message}: the message says what
// the library found for the learner's input, never the answer; `explain` is shown only after a success.

export const TOKEN_EXERCISES = [
  {
    id: 'split',
    title: 'A word in pieces',
    text: 'Find an English word that r50k_base (GPT-2) cuts into at least three tokens. Type it with its leading space, as it would appear mid-sentence.',
    inputs: [{ name: 'word', label: 'Word', value: ' cat' }],
    explain:
      'BPE keeps a word whole only if its merges were frequent in the training text; a rare word is spelled out in the frequent pieces it is made of.',
    async check(ctx, { word }) {
      if (!/^ ?[A-Za-z]+$/.test(word)) {
        return { ok: false, message: 'Use letters only, with an optional leading space.' };
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
    text: 'What is the id of the token “␣dog” (with its space) in r50k_base? Find it in section 1.',
    inputs: [{ name: 'id', label: 'Token id', value: '', type: 'number' }],
    explain:
      'An id is only a row number: section 2’s table gives “␣dog” that row. “dog” without the space is another token with another row.',
    async check(ctx, { id }) {
      const expected = (await ctx.loadTokenizer('r50k_base')).encode(' dog')[0];
      const ok = Number(id) === expected;
      return {
        ok,
        message: ok ? `“␣dog” → ${expected}.` : `No, ${id} is not it. Type “ dog” in section 1 with r50k_base.`,
      };
    },
  },
  {
    id: 'the',
    title: 'Train a merge',
    text: 'Train a vocabulary in section 1 in which “␣the” is a single token, choose “your trained vocabulary” there, then check. (Which vocabulary size is the smallest that does it?)',
    inputs: [],
    explain:
      '“␣the” is four bytes, so it takes three merges (for example “t”+“h”, then “th”+“e”, then “␣”+“the”); in English text these pairs are among the most frequent, so they come among the first merges.',
    async check(ctx) {
      if (ctx.tokenizerName !== 'trained') {
        return {
          ok: false,
          message: `Section 1 is set to ${ctx.tokenizerName}: train a vocabulary there and choose “your trained vocabulary”.`,
        };
      }
      const ids = ctx.tokenizer.encode(' the');
      return {
        ok: ids.length === 1,
        message: `“␣the” is ${ids.length} token${ids.length === 1 ? '' : 's'} (${Array.from(ids).join(', ')}) in your ${ctx.tokenizer.vocabSize}-token vocabulary.`,
      };
    },
  },
];
