// 10,000 seeded random strings per Hugging Face tokenizer.json file (runs of Latin, digits, whitespace, punctuation,
// accented Latin, Cyrillic, CJK, kana, Hangul, Arabic, Devanagari, Thai, Unicode spaces and marks, emoji and ZWJ, lone
// surrogates and the file's added tokens) against @huggingface/tokenizers: ids and counts of each, the decoded text of
// every fifth (the reference's decode costs as much as its encode; the decoders are also checked in
// hf_tokenizers.test.mjs).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import createEmbedLab from '../../dist/index.js';
import { firstDifference, HF_MODELS, loadModel, randomStrings, referenceIds } from './hf_support.mjs';

const lab = await createEmbedLab();
const STRINGS_PER_FILE = 10_000;

for (const [index, model] of HF_MODELS.entries()) {
  test(`${model}: ${STRINGS_PER_FILE} random strings encode and decode as in Tokenizers.js`, async () => {
    const { ours, reference, files } = await loadModel(lab, model);
    try {
      const added = files.json.added_tokens.slice(0, 50).map((token) => token.content);
      const strings = randomStrings(STRINGS_PER_FILE, 1000 + index, added);
      for (const [i, text] of strings.entries()) {
        const addSpecialTokens = i % 4 === 0;
        const expected = referenceIds(reference, text, addSpecialTokens);
        const ids = ours.encode(text, { addSpecialTokens });
        assert.deepEqual(ids, expected, `string ${i} ${JSON.stringify(text)}: ${firstDifference(ids, expected)}`);
        assert.equal(ours.count(text, { addSpecialTokens }), ids.length, `string ${i}: count`);
        if (ids.length > 0 && i % 5 === 0) {
          assert.equal(
            ours.decode(ids, { cleanUpTokenizationSpaces: false }),
            reference.decode(Array.from(ids), { clean_up_tokenization_spaces: false }),
            `string ${i} ${JSON.stringify(text)}: decode`,
          );
        }
      }
    } finally {
      ours.dispose();
    }
  });
}
