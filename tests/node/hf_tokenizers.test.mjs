// Hugging Face tokenizer.json files (Llama 3, Llama 3.1, Qwen 3, DeepSeek V3, Gemma 3, Llama 2) against the reference,
// @huggingface/tokenizers (Tokenizers.js): ids with and without the template's special tokens, counts, the
// vocabulary's token strings and the decoded text (with and without clean-up, skipping special tokens), on a Brown
// corpus excerpt, texts in many scripts, code, whitespace runs, digits, emoji, each file's added tokens inside text,
// and lone surrogates (read as U+FFFD by us and by the Rust crate, whose strings are UTF-8; Tokenizers.js is given
// the same well-formed text).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import createEmbedLab from '../../dist/index.js';
import {
  addedTokenTexts,
  brownExcerpt,
  firstDifference,
  HF_MODELS,
  LONE_SURROGATE_TEXTS,
  loadModel,
  referenceIds,
  SAMPLE_TEXTS,
} from './hf_support.mjs';

const lab = await createEmbedLab();
const CORPUS_BYTES = 200_000;
const brown = brownExcerpt(CORPUS_BYTES);

/** Ids, count, token strings and decoded text of `text` against the reference. */
function checkText(ours, reference, label, text) {
  const wellFormed = text.toWellFormed();
  for (const addSpecialTokens of [false, true]) {
    const expected = reference.encode(wellFormed, { add_special_tokens: addSpecialTokens });
    const ids = ours.encode(text, { addSpecialTokens });
    assert.deepEqual(
      ids,
      Uint32Array.from(expected.ids),
      `${label}, addSpecialTokens ${addSpecialTokens}: ids differ ${firstDifference(ids, expected.ids)}`,
    );
    assert.equal(ours.count(text, { addSpecialTokens }), ids.length, `${label}: count`);
    const strings = ours.tokens(text, { addSpecialTokens }).map((token) => token.token);
    assert.deepEqual(strings, expected.tokens, `${label}, addSpecialTokens ${addSpecialTokens}: token strings`);
    if (ids.length === 0) {
      continue; // Tokenizers.js' decode refuses an empty array
    }
    const idList = Array.from(ids);
    for (const cleanUp of [false, true]) {
      assert.equal(
        ours.decode(ids, { cleanUpTokenizationSpaces: cleanUp }),
        reference.decode(idList, { clean_up_tokenization_spaces: cleanUp }),
        `${label}: decode with clean-up ${cleanUp}`,
      );
    }
    assert.equal(ours.decode(ids), reference.decode(idList), `${label}: decode with the config's clean-up`);
    assert.equal(
      ours.decode(ids, { skipSpecialTokens: true }),
      reference.decode(idList, { skip_special_tokens: true }),
      `${label}: decode skipping special tokens`,
    );
  }
}

for (const model of HF_MODELS) {
  test(`${model}: ids, counts, token strings and decoded text equal Tokenizers.js'`, async (t) => {
    const { ours, reference, files } = await loadModel(lab, model);
    try {
      assert.equal(ours.name, model);
      await t.test('Brown corpus excerpt', () => {
        const expected = referenceIds(reference, brown, false);
        const ids = ours.encode(brown, { addSpecialTokens: false });
        assert.deepEqual(ids, expected, `ids differ ${firstDifference(ids, expected)}`);
        assert.equal(ours.count(brown, { addSpecialTokens: false }), expected.length);
        assert.equal(
          ours.decode(ids, { cleanUpTokenizationSpaces: false }),
          reference.decode(Array.from(ids), { clean_up_tokenization_spaces: false }),
        );
        // With the template: its tokens around those of the text (these files' templates add a prefix only).
        const template = reference.encode('', { add_special_tokens: true }).ids;
        assert.deepEqual(ours.encode(brown), Uint32Array.from([...template, ...expected]), 'with the template tokens');
      });
      await t.test('texts in many scripts, code, whitespace, digits, emoji', () => {
        for (const [name, text] of Object.entries(SAMPLE_TEXTS)) {
          checkText(ours, reference, name, text);
        }
        checkText(ours, reference, 'every sample at once', Object.values(SAMPLE_TEXTS).join('\n'));
      });
      await t.test("the file's added tokens inside text", () => {
        for (const [i, text] of addedTokenTexts(files.json).entries()) {
          checkText(ours, reference, `added-token text ${i} ${JSON.stringify(text)}`, text);
        }
      });
      await t.test('lone surrogates read as U+FFFD', () => {
        for (const text of LONE_SURROGATE_TEXTS) {
          checkText(ours, reference, JSON.stringify(text), text);
          assert.deepEqual(ours.encode(text), ours.encode(text.toWellFormed()));
        }
      });
      await t.test('splitSpecialTokens reads special added tokens as text', () => {
        // The reference has no split_special_tokens: the same file without its special added tokens is one.
        const withoutSpecial = {
          ...files.json,
          added_tokens: files.json.added_tokens.filter((token) => !token.special),
        };
        const plain = new reference.constructor(withoutSpecial, files.config);
        for (const text of addedTokenTexts(files.json)) {
          const expected = Uint32Array.from(plain.encode(text, { add_special_tokens: false }).ids);
          assert.deepEqual(
            ours.encode(text, { addSpecialTokens: false, splitSpecialTokens: true }),
            expected,
            JSON.stringify(text),
          );
          assert.deepEqual(ours.encodeOrdinary(text), expected, JSON.stringify(text));
        }
      });
    } finally {
      ours.dispose();
    }
  });
}
