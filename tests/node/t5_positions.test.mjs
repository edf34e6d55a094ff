// T5's relative position bias through the package: lab.relativePositionBuckets (SIMD and fallback modules)
// against transformers' _relative_position_bucket run in PyTorch (tests/reference/data/t5_buckets.safetensors,
// written by tests/reference/t5_relative_bias.py), and createModel({positions: 't5'}): options, config,
// checkpoint metadata and tensor, loadModel, bad input. The model's PyTorch parity is in the Catch2 tests
// (model_parity_test.cc) and tests/node/torch_export.test.mjs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';

import createEmbedLab from '../../dist/index.js';

// {metadata, header, tensors: {name: Int32Array | Float32Array}} of a safetensors file's bytes.
function readSafetensors(bytes) {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = Number(view.readBigUInt64LE(0));
  const header = JSON.parse(view.subarray(8, 8 + length).toString('utf8'));
  const tensors = {};
  for (const [name, entry] of Object.entries(header)) {
    if (name === '__metadata__') {
      continue;
    }
    const [begin, end] = entry.data_offsets.map((offset) => view.byteOffset + 8 + length + offset);
    const data = view.buffer.slice(begin, end);
    tensors[name] = entry.dtype === 'I32' ? new Int32Array(data) : new Float32Array(data);
  }
  return { metadata: header.__metadata__ ?? {}, header, tensors };
}

const reference = readSafetensors(readFileSync(new URL('../reference/data/t5_buckets.safetensors', import.meta.url)));

for (const simd of [true, false]) {
  describe(`relativePositionBuckets (${simd ? 'SIMD128' : 'fallback'})`, () => {
    let lab;
    before(async () => {
      lab = await createEmbedLab({ simd });
    });

    test("equals transformers' bucket of j − i for every (i, j) of 26 settings, causal and bidirectional", () => {
      const offsets = Number(reference.metadata.offsets);
      const names = JSON.parse(reference.metadata.cases);
      assert.equal(names.length, 26);
      const length = 300; // offsets −299…299: past every max_distance of the grid but 1000 and 4096
      for (const name of names) {
        const [way, numBuckets, maxDistance] = name.split('/');
        const bidirectional = way === 'bidirectional';
        const buckets = lab.relativePositionBuckets({
          length,
          numBuckets: Number(numBuckets),
          maxDistance: Number(maxDistance),
          bidirectional,
        });
        assert.ok(buckets instanceof Int32Array && buckets.length === length * length, name);
        const expected = reference.tensors[name];
        for (let i = 0; i < length; i++) {
          for (let j = 0; j < length; j++) {
            if (buckets[i * length + j] !== expected[j - i + offsets]) {
              assert.fail(`${name} (${i}, ${j}): ${buckets[i * length + j]} vs ${expected[j - i + offsets]}`);
            }
          }
        }
      }
    });

    test("defaults are T5's (32 buckets to 128) and causal, as the tiny GPT", () => {
      const causal = lab.relativePositionBuckets({ length: 200 });
      assert.deepEqual(
        [0, 1, 15, 16, 32, 64, 127, 199].map((d) => causal[199 * 200 + 199 - d]),
        [0, 1, 15, 16, 21, 26, 31, 31], // 16 + trunc(16 log(d/16) / log 8) past the 16 exact offsets
      );
      assert.equal(causal[1], 0); // a key after the query: bucket 0 (the causal mask hides it)
      assert.deepEqual(
        Array.from(lab.relativePositionBuckets({ length: 3, bidirectional: true })),
        [0, 17, 18, 1, 0, 17, 2, 1, 0],
      );
    });

    test('bad options name the argument and its range', () => {
      const buckets = (options) => () => lab.relativePositionBuckets(options);
      // JS refuses a missing or non-integer length; its range is the core's (model/relative_position_bias.h).
      assert.throws(buckets({}), { name: 'TypeError', message: 'length must be an integer, got undefined' });
      assert.throws(buckets({ length: 1.5 }), { name: 'RangeError', message: 'length must be an integer, got 1.5' });
      assert.throws(buckets({ length: 4097 }), {
        name: 'RangeError',
        message: 'length must be an integer in [1, 4096], got 4097',
      });
      assert.throws(buckets({ length: 4, numBuckets: 1 }), {
        name: 'RangeError',
        message: 'numBuckets (causal) must be an integer in [2, 4096], got 1',
      });
      assert.throws(buckets({ length: 4, numBuckets: 3, bidirectional: true }), {
        name: 'RangeError',
        message: 'numBuckets (bidirectional) must be an integer in [4, 4096], got 3',
      });
      assert.throws(buckets({ length: 4, maxDistance: 16 }), {
        name: 'RangeError',
        message:
          'maxDistance must be an integer in [17, 1073741824] (above the 16 exact buckets of 32 causal buckets), got 16',
      });
      assert.throws(buckets({ length: 4, maxDistance: '128' }), TypeError);
      assert.throws(buckets({ length: 4, bidirectional: 1 }), { name: 'TypeError', message: /bidirectional/ });
      assert.throws(buckets({ length: 4, numBucket: 8 }), { name: 'TypeError', message: /numBuckets/ });
    });
  });
}

describe("createModel({positions: 't5'})", () => {
  let lab;
  before(async () => {
    lab = await createEmbedLab();
  });
  const base = { vocabSize: 17, contextLength: 8, channels: 12, layers: 2, heads: 3, positions: 't5', seed: 3 };

  test('config, checkpoint metadata and tensor, and loadModel round trip', () => {
    assert.ok(lab.positionSchemes.includes('t5'));
    const model = lab.createModel({ ...base, t5NumBuckets: 10, t5MaxDistance: 20 });
    assert.equal(model.config.positions, 't5');
    assert.equal(model.config.t5NumBuckets, 10);
    assert.equal(model.config.t5MaxDistance, 20);
    assert.equal(model.positionEmbeddings(), null); // nothing is added to the input
    const batch = { ids: [Array.from({ length: 30 }, (_, i) => (i * 5) % 17)] }; // past contextLength: any length
    batch.targets = [batch.ids[0].map((id) => (id + 1) % 17)];
    model.trainStep(batch);
    const bytes = model.save();
    const file = readSafetensors(bytes);
    assert.equal(file.metadata.relative_attention_num_buckets, '10');
    assert.equal(file.metadata.relative_attention_max_distance, '20');
    assert.deepEqual(file.header['h.0.attn.relative_attention_bias.weight'].shape, [10, 3]);
    assert.ok(!('h.1.attn.relative_attention_bias.weight' in file.header)); // one table for every layer, as T5
    const loaded = lab.loadModel(bytes);
    assert.equal(loaded.config.t5NumBuckets, 10);
    assert.equal(loaded.config.t5MaxDistance, 20);
    assert.deepEqual(loaded.logits(batch), model.logits(batch));
    loaded.dispose();
    model.dispose();
    const defaults = lab.createModel(base);
    assert.deepEqual([defaults.config.t5NumBuckets, defaults.config.t5MaxDistance], [32, 128]);
    defaults.dispose();
  });

  test('t5 options: other schemes refuse them, bad values name the option', () => {
    assert.throws(() => lab.createModel({ ...base, positions: 'rope', t5NumBuckets: 8 }), {
      name: 'TypeError',
      message: 'config.t5NumBuckets needs config.positions \'t5\', got config.positions the string "rope"',
    });
    assert.throws(() => lab.createModel({ ...base, t5NumBuckets: 8, t5MaxDistance: 4 }), {
      name: 'RangeError',
      message:
        'config.t5MaxDistance must be an integer in [5, 1073741824] (above the 4 exact buckets of 8 causal buckets), got 4',
    });
    assert.throws(() => lab.createModel({ ...base, causal: false, t5NumBuckets: 3 }), {
      name: 'RangeError',
      message: 'config.t5NumBuckets (bidirectional) must be an integer in [4, 4096], got 3',
    });
    assert.throws(() => lab.createModel({ ...base, t5NumBuckets: 2.5 }), RangeError);
    assert.throws(() => lab.createModel({ ...base, t5Buckets: 8 }), { name: 'TypeError', message: /t5NumBuckets/ });
  });
});
