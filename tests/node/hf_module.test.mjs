// The Hugging Face module (embedlab-hf-*) is started on demand: not by createEmbedLab / createTokenizers, nor by a call
// refused for its arguments, nor by loading a tokenizer of the package's own format; once per instance at its first
// Hugging Face tokenizer, shared by all of them, of the instance's flavour unless options.hfWasm gives one; a failed
// start is reported naming options.hfWasm and tried again by the next call.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import createEmbedLab, { HfTokenizer } from '../../dist/index.js';
import { createTokenizers } from '../../dist/tokenizer.js';

const dist = new URL('../../dist/', import.meta.url);
const wasmBytes = (name) => readFileSync(new URL(`${name}.wasm`, dist));
const MISSING = new URL('no-such-dir/embedlab-hf-simd.wasm', dist);

// "ab ab" -> [2, 4] (the file of hf_api.test.mjs, smaller).
const TINY = {
  model: { type: 'BPE', vocab: { a: 0, b: 1, ab: 2, Ġ: 3, Ġab: 4 }, merges: ['a b', 'Ġ ab'] },
  pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
};

test('nothing loads the module before the first Hugging Face tokenizer; that one reports options.hfWasm', async () => {
  // A path that does not exist: any attempt to start the module fails, naming it.
  const lab = await createEmbedLab({ hfWasm: MISSING });
  await assert.rejects(lab.tokenizerFromHuggingFace(42), { name: 'TypeError', message: /^json must be/ });
  await assert.rejects(lab.tokenizerFromHuggingFace(TINY, { nmae: 'x' }), { name: 'TypeError', message: /nmae/ });
  const trained = await lab.trainTokenizer('the dog bites the man. '.repeat(20), { vocabSize: 270 });
  for (const binary of [false, true]) {
    const loaded = await lab.loadTokenizer(trained.save({ binary }));
    assert.deepEqual(loaded.encode('the dog'), trained.encode('the dog'));
    assert.ok(!(loaded instanceof HfTokenizer));
    loaded.dispose();
  }
  trained.dispose();
  for (let attempt = 0; attempt < 2; attempt++) {
    // The same error each time: a failed start is not kept.
    await assert.rejects(lab.tokenizerFromHuggingFace(TINY), (error) => {
      assert.match(error.message, /^options\.hfWasm: could not load the wasm module from file:.*no-such-dir/);
      return true;
    });
  }
});

test('one module per instance, shared by its Hugging Face tokenizers, of the instance flavour', async () => {
  for (const simd of [true, false]) {
    const lab = await createEmbedLab({ simd });
    const first = await lab.tokenizerFromHuggingFace(TINY);
    const second = await lab.tokenizerFromHuggingFace(TINY, { name: 'second' });
    const loaded = await lab.tokenizerFromHuggingFace(first.save());
    assert.ok(loaded instanceof HfTokenizer);
    const hfModule = first.lab; // internal: the instance a handle belongs to
    assert.notEqual(hfModule, lab);
    assert.equal(second.lab, hfModule);
    assert.equal(loaded.lab, hfModule);
    assert.equal(hfModule.flavour, lab.flavour);
    assert.equal(hfModule.simdTarget, simd ? 'WASM' : 'EMU128');
    assert.equal(hfModule.version, lab.version);
    const other = await (await createEmbedLab({ simd })).tokenizerFromHuggingFace(TINY);
    assert.notEqual(other.lab, hfModule, 'another lab starts its own');
    for (const tokenizer of [first, second, loaded, other]) {
      assert.deepEqual(tokenizer.encode('ab ab'), Uint32Array.from([2, 4]));
      tokenizer.dispose();
    }
  }
});

test('options.hfWasm: a module of either flavour, its bytes or its path, in both entries; others refused', async () => {
  const fallbackModule = new WebAssembly.Module(wasmBytes('embedlab-hf-fallback'));
  const given = [
    [fallbackModule, 'fallback'],
    [wasmBytes('embedlab-hf-simd'), 'simd'],
    [new URL('embedlab-hf-fallback.wasm', dist), 'fallback'],
  ];
  for (const [hfWasm, flavour] of given) {
    for (const create of [createEmbedLab, createTokenizers]) {
      const instance = await create({ simd: true, hfWasm });
      const tokenizer = await instance.tokenizerFromHuggingFace(TINY);
      assert.equal(tokenizer.lab.flavour, flavour, `${create.name}: the flavour of the module given`);
      assert.deepEqual(tokenizer.encode('ab ab'), Uint32Array.from([2, 4]));
      tokenizer.dispose();
    }
  }
  await assert.rejects(createEmbedLab({ hfWasm: 42 }), { name: 'TypeError', message: /^options\.hfWasm must be a/ });
  await assert.rejects(createTokenizers({ hfWasm: {} }), { name: 'TypeError', message: /^options\.hfWasm must be a/ });
  const wrong = await createEmbedLab({ hfWasm: wasmBytes('embedlab-tokenizer-simd') });
  await assert.rejects(wrong.tokenizerFromHuggingFace(TINY), {
    message:
      'options.hfWasm is embedlab-tokenizer-simd.wasm, the module of another entry: pass embedlab-hf-simd.wasm or ' +
      'embedlab-hf-fallback.wasm',
  });
  // The lab's own module is still there for everything else.
  assert.deepEqual((await wrong.getTokenizer('cl100k_base')).encode('hello world'), Uint32Array.from([15339, 1917]));
});
