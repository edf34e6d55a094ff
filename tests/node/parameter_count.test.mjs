// lab.transformerParameterCount (SIMD and fallback modules) against the totals the models' releases report
// (Hugging Face's num_parameters() of gpt2 and gpt2-xl; the safetensors totals of Meta-Llama-3-8B and -70B), from
// the configurations in their config.json. Bad configurations are refused with the argument's name.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import createEmbedLab from '../../dist/index.js';

const gpt2 = (channels, layers, heads) => ({ vocabSize: 50257, channels, layers, heads, positionRows: 1024 });
const llama3 = (channels, layers, heads, ffnHidden) => ({
  vocabSize: 128256,
  channels,
  layers,
  heads,
  kvHeads: 8,
  ffnHidden,
  gatedMlp: true,
  tiedOutput: false,
  biases: false,
  norm: 'rmsnorm',
});

const PUBLISHED = [
  ['GPT-2 small', gpt2(768, 12, 12), 124439808],
  ['GPT-2 XL', gpt2(1600, 48, 25), 1557611200],
  ['Llama 3 8B', llama3(4096, 32, 32, 14336), 8030261248],
  ['Llama 3 70B', llama3(8192, 80, 64, 28672), 70553706496],
];

for (const simd of [true, false]) {
  describe(`transformerParameterCount (${simd ? 'SIMD' : 'fallback'} module)`, () => {
    let lab;
    before(async () => {
      lab = await createEmbedLab({ simd });
    });

    for (const [name, config, total] of PUBLISHED) {
      test(`${name}: ${total} parameters, the published total`, () => {
        const count = lab.transformerParameterCount(config);
        assert.equal(count.total, total);
        const parts = ['tokenEmbedding', 'outputHead', 'positionTable', 'attention', 'mlp', 'norms'];
        assert.equal(
          parts.reduce((sum, key) => sum + count[key], 0),
          total,
        );
        assert.equal(count.tokenEmbedding, config.vocabSize * config.channels);
        assert.equal(count.tokenTables, count.tokenEmbedding + count.outputHead);
        assert.equal(count.tokenTableShare, count.tokenTables / total);
        assert.deepEqual(count.totalBytes, { float32: 4 * total, bfloat16: 2 * total });
        assert.deepEqual(count.tokenTableBytes, { float32: 4 * count.tokenTables, bfloat16: 2 * count.tokenTables });
      });
    }

    test('tying the head removes one V x d table; mlpRatio 4 is ffnHidden 4d', () => {
      const untied = lab.transformerParameterCount({ ...gpt2(768, 12, 12), tiedOutput: false });
      assert.equal(untied.total, 124439808 + 50257 * 768);
      assert.equal(untied.outputHead, 50257 * 768);
      const tied = lab.transformerParameterCount({ ...llama3(4096, 32, 32, 14336), tiedOutput: true });
      assert.equal(tied.total, 8030261248 - 128256 * 4096);
      assert.equal(
        lab.transformerParameterCount({ ...gpt2(768, 12, 12), ffnHidden: 3072 }).total,
        lab.transformerParameterCount({ ...gpt2(768, 12, 12), mlpRatio: 4 }).total,
      );
    });

    test('bad configurations are refused by name', () => {
      assert.throws(() => lab.transformerParameterCount(), /config must be an options object/);
      assert.throws(() => lab.transformerParameterCount({ ...gpt2(768, 12, 7) }), /heads \(7\) must divide channels/);
      assert.throws(() => lab.transformerParameterCount({ ...llama3(4096, 32, 32, 14336), kvHeads: 5 }), /kvHeads/);
      assert.throws(() => lab.transformerParameterCount({ ...gpt2(768, 12, 12), vocabSize: 0 }), /vocabSize/);
      assert.throws(() => lab.transformerParameterCount({ ...gpt2(768, 12, 12), norm: 'batchnorm' }), /norm must be/);
      assert.throws(
        () => lab.transformerParameterCount({ ...gpt2(768, 12, 12), ffnHidden: 3072, mlpRatio: 4 }),
        /ffnHidden or mlpRatio/,
      );
      assert.throws(() => lab.transformerParameterCount({ ...gpt2(768, 12, 12), mlpRatio: 1.0001 }), /mlpRatio/);
      assert.throws(() => lab.transformerParameterCount({ ...gpt2(768, 12, 12), tiedOuput: true }), /tiedOutput/);
      assert.equal(lab.transformerParameterCount(gpt2(768, 12, 12)).total, 124439808); // still works
    });
  });
}
