// createModel's embeddingScale: x_t = s·wte[id] + position (Vaswani et al. 2017, §3.4 use s = √d_model),
// checked against double-precision sums of the model's own tables; the tied output head keeps wte unscaled;
// the scale survives a checkpoint exactly and an older checkpoint without it loads with 1.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import createEmbedLab from '../../dist/index.js';
import { dot, row, sinusoidal } from './reference.mjs';

const C = 16;
const IDS = [3, 17, 3, 30, 0, 9];
const config = (positions, embeddingScale) => ({
  vocabSize: 32,
  contextLength: 8,
  channels: C,
  layers: 1,
  heads: 2,
  positions,
  embeddingScale,
  seed: 5,
});

let lab;
const handles = [];
before(async () => {
  lab = await createEmbedLab();
});
after(() => handles.forEach((handle) => handle.dispose()));

function create(options) {
  const model = lab.createModel(options);
  handles.push(model);
  return model;
}

// Largest |actual - expected| over all entries.
function worstError(actual, expected) {
  let worst = 0;
  for (let i = 0; i < expected.length; i++) {
    worst = Math.max(worst, Math.abs(actual[i] - expected[i]));
  }
  return worst;
}

test('the default is 1 and is echoed in model.config; a given scale is echoed as given', () => {
  assert.equal(create(config('learned')).config.embeddingScale, 1);
  assert.equal(create(config('sinusoidal', Math.sqrt(24))).config.embeddingScale, Math.sqrt(24));
});

for (const positions of ['sinusoidal', 'learned', 'none']) {
  test(`${positions}: the input is s·wte[id] + position, s = √C and s = 0.5, against a double-precision sum`, () => {
    for (const scale of [Math.sqrt(C), 0.5]) {
      const model = create(config(positions, scale));
      const wte = model.tokenEmbeddings();
      const wpe = positions === 'learned' ? model.positionEmbeddings(IDS.length) : null;
      const expected = new Float64Array(IDS.length * C);
      IDS.forEach((id, t) => {
        const token = row(wte, id, C);
        for (let i = 0; i < C; i++) {
          let position = 0;
          if (positions === 'sinusoidal') {
            position = sinusoidal(t, i, C);
          }
          if (positions === 'learned') {
            position = wpe[t * C + i];
          }
          expected[t * C + i] = Math.fround(scale) * token[i] + position;
        }
      });
      const input = model.hiddenStates(IDS)[0];
      // float32 sinusoids (~2.4e-7 from the kernel's Sin) plus one rounding of a sum of size ~1.
      assert.ok(worstError(input, expected) <= 2e-6, `${positions}, s = ${scale}: ${worstError(input, expected)}`);
    }
  });
}

test('the tied output head uses wte unscaled: logits = LayerNorm(last hidden state) · wte[v]', () => {
  const model = create(config('sinusoidal', Math.sqrt(C)));
  const wte = model.tokenEmbeddings();
  const states = model.hiddenStates(IDS);
  const last = states[states.length - 1];
  const logits = model.logits({ ids: [IDS] });
  // At initialization ln_f has weight 1 and bias 0, so the head sees the plain normalized vector.
  const expected = new Float64Array(IDS.length * 32);
  for (let t = 0; t < IDS.length; t++) {
    const x = row(last, t, C);
    const mean = x.reduce((sum, value) => sum + value, 0) / C;
    const variance = x.reduce((sum, value) => sum + (value - mean) ** 2, 0) / C;
    const normalized = Array.from(x, (value) => (value - mean) / Math.sqrt(variance + 1e-5));
    for (let v = 0; v < 32; v++) {
      expected[t * 32 + v] = dot(normalized, row(wte, v, C));
    }
  }
  assert.ok(worstError(logits, expected) <= 1e-5, `max error ${worstError(logits, expected)}`);
});

test('a checkpoint keeps the scale exactly and the model resumes bit for bit', () => {
  const scale = Math.sqrt(24);
  const batch = { ids: [IDS], targets: [IDS.map((id) => (id + 1) % 32)] };
  const model = create({ ...config('sinusoidal', scale), channels: 24, heads: 3 });
  model.trainStep(batch);
  const loaded = lab.loadModel(model.save());
  handles.push(loaded);
  assert.equal(loaded.config.embeddingScale, scale);
  assert.deepEqual(loaded.hiddenStates(IDS)[0], model.hiddenStates(IDS)[0]);
  assert.equal(loaded.trainStep(batch).loss, model.trainStep(batch).loss);
});

// The safetensors bytes with the metadata rewritten by edit(metadata); tensors and their offsets unchanged.
function withMetadata(bytes, edit) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = Number(view.getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength)));
  edit(header.__metadata__);
  let text = JSON.stringify(header);
  text += ' '.repeat((8 - (text.length % 8)) % 8);
  const encoded = new TextEncoder().encode(text);
  const out = new Uint8Array(8 + encoded.length + bytes.length - 8 - headerLength);
  new DataView(out.buffer).setBigUint64(0, BigInt(encoded.length), true);
  out.set(encoded, 8);
  out.set(bytes.subarray(8 + headerLength), 8 + encoded.length);
  return out;
}

test('a checkpoint written before embeddingScale existed loads with 1', () => {
  const model = create(config('sinusoidal', 4));
  const saved = model.save();
  const old = withMetadata(saved, (metadata) => {
    assert.equal(metadata.embedding_scale, '4');
    delete metadata.embedding_scale;
  });
  const loaded = lab.loadModel(old);
  handles.push(loaded);
  assert.equal(loaded.config.embeddingScale, 1);
  const wte = loaded.tokenEmbeddings();
  const input = loaded.hiddenStates([7])[0];
  assert.ok(
    worstError(
      input,
      Array.from(row(wte, 7, C), (w, i) => w + sinusoidal(0, i, C)),
    ) <= 1e-6,
  );
});

test('bad embeddingScale: an Error naming it and the range (0, 1024], from JS and from a checkpoint', () => {
  for (const bad of [0, -1, 1025, NaN, Infinity]) {
    assert.throws(() => lab.createModel(config('learned', bad)), {
      name: 'RangeError',
      message: /^config\.embeddingScale must be a finite number in \(0, 1024\]/,
    });
  }
  for (const bad of ['2', null, true]) {
    assert.throws(() => lab.createModel(config('learned', bad)), {
      name: 'TypeError',
      message: /^config\.embeddingScale must be a number, got/,
    });
  }
  const saved = create(config('learned')).save();
  for (const [text, message] of [
    ['0', /embeddingScale must be a finite number in \(0, 1024\], got 0/],
    ['2000', /embeddingScale must be a finite number in \(0, 1024\], got 2000/],
    ['nan', /embeddingScale must be a finite number in \(0, 1024\], got nan/i],
    ['two', /checkpoint metadata "embedding_scale" must be a number, got "two"/],
  ]) {
    const bytes = withMetadata(saved, (metadata) => {
      metadata.embedding_scale = text;
    });
    assert.throws(() => lab.loadModel(bytes), { message });
  }
});
