// A Hugging Face tokenizer's piece cache from JS: cacheSize counts the pieces its BPE model has kept, clearCache()
// empties it and frees its memory, and the ids are Tokenizers.js' (the reference) with the cache full, emptied and
// refilled, with spans and without.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import createEmbedLab from '../../dist/index.js';
import { brownExcerpt, firstDifference, loadModel, referenceIds } from './hf_support.mjs';

const lab = await createEmbedLab();
const text = brownExcerpt(20_000);

for (const model of ['llama3', 'gemma3']) {
  test(`${model}: cacheSize and clearCache() are the BPE model's piece cache`, async () => {
    const { ours, reference } = await loadModel(lab, model);
    try {
      const expected = referenceIds(reference, text, true);
      assert.deepEqual(ours.cacheSize, { pieces: 0, bytes: 0 });
      const first = ours.encode(text);
      const filled = ours.cacheSize;
      assert.ok(filled.pieces > 100, `pieces after one encode: ${filled.pieces}`);
      assert.ok(filled.bytes > 0 && filled.bytes <= 4 * 1024 * 1024, `bytes: ${filled.bytes}`);
      const warm = ours.encode(text);
      const spans = ours.tokens(text).map((t) => t.id);
      ours.clearCache();
      assert.deepEqual(ours.cacheSize, { pieces: 0, bytes: 0 });
      const cold = ours.encode(text);
      for (const ids of [first, warm, Uint32Array.from(spans), cold]) {
        assert.ok(
          ids.length === expected.length && ids.every((v, i) => v === expected[i]),
          firstDifference(ids, expected),
        );
      }
      assert.equal(ours.cacheSize.pieces, filled.pieces);
    } finally {
      ours.dispose();
    }
  });
}
