// transformers.js (@lenml/tokenizers, its tokenizers alone) against Tokenizers.js (@huggingface/tokenizers) on a
// sample: the texts in many scripts, each file's added-token texts and 500 random strings per file. Where they
// disagree, we follow the Rust crate, with Tokenizers.js. Found so far, and asserted here, one construct:
//   U+0085 (NEXT LINE) in the split regexes' \s. Rust's regex crate reads \s as Unicode White_Space, which holds
//   U+0085, and so does Tokenizers.js; transformers.js hands the pattern to JS RegExp, whose \s leaves U+0085 out.
//   " \u0085し" with Llama 3: Rust and Tokenizers.js split " " | "\u0085し" -> [220, 116360, 15024]; transformers.js
//   reads " \u0085" as a space before punctuation -> [2188, 227, 15024]. It touches Llama 3, Llama 3.1, Qwen 3 and
//   DeepSeek V3 (the byte-level files with \s in their regex); Gemma 3 and Llama 2 agree everywhere.
// Every other text agrees, and our ids equal Tokenizers.js' on all of them.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { TokenizerLoader } from '@lenml/tokenizers';

import createEmbedLab from '../../dist/index.js';
import { addedTokenTexts, HF_MODELS, loadModel, randomStrings, referenceIds, SAMPLE_TEXTS } from './hf_support.mjs';

const lab = await createEmbedLab();
const NEXT_LINE = '\u0085';

for (const [index, model] of HF_MODELS.entries()) {
  test(`${model}: transformers.js agrees with Tokenizers.js but for U+0085 in \\s, where we follow Tokenizers.js and Rust`, async () => {
    const { ours, reference, files } = await loadModel(lab, model);
    const transformers = TokenizerLoader.fromPreTrained({ tokenizerJSON: files.json, tokenizerConfig: files.config });
    try {
      const added = files.json.added_tokens.slice(0, 50).map((token) => token.content);
      const texts = [
        ...Object.values(SAMPLE_TEXTS),
        ...addedTokenTexts(files.json),
        ...randomStrings(500, 7000 + index, added).map((text) => text.toWellFormed()),
        ` ${NEXT_LINE}し`,
      ];
      let disagreements = 0;
      for (const text of texts) {
        for (const addSpecialTokens of [false, true]) {
          const expected = referenceIds(reference, text, addSpecialTokens);
          const theirs = Uint32Array.from(transformers.encode(text, { add_special_tokens: addSpecialTokens }));
          assert.deepEqual(ours.encode(text, { addSpecialTokens }), expected, JSON.stringify(text));
          if (theirs.join() !== expected.join()) {
            disagreements++;
            assert.ok(text.includes(NEXT_LINE), `transformers.js differs on ${JSON.stringify(text)} (no U+0085 in it)`);
          }
        }
      }
      const splitsOnWhitespace = ['llama3', 'llama3_1', 'qwen3', 'deepseek_v3'].includes(model);
      assert.equal(disagreements > 0, splitsOnWhitespace, `${disagreements} texts where transformers.js differs`);
    } finally {
      ours.dispose();
    }
  });
}
