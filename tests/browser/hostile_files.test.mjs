// Hostile files through the page's own controls: safetensors files that are truncated, lie about their sizes, are
// not JSON, hold NaN or hold another model (section 2's model files, section 5's position tables). Each gets a
// message where the learner looks, the learner's model stays, and the section works again afterwards. The files are
// made here, byte by byte. (Hostile values and dying workers: hostile_values.test.mjs.)
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { modelConfig } from '../../web/js/training/training.js';
import { useSession } from './browser.mjs';
import { startHostilePage } from './hostile_support.mjs';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The header (parsed) and data section of safetensors bytes. */
function split(bytes) {
  const length = Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(0, true));
  return {
    header: JSON.parse(decoder.decode(bytes.subarray(8, 8 + length))),
    data: bytes.subarray(8 + length),
  };
}

/** safetensors bytes from header text and data; `claimed` replaces the true header length in the first 8 bytes. */
function join(headerText, data, claimed = undefined) {
  const header = encoder.encode(headerText);
  const out = new Uint8Array(8 + header.length + data.length);
  new DataView(out.buffer).setBigUint64(0, claimed ?? BigInt(header.length), true);
  out.set(header, 8);
  out.set(data, 8 + header.length);
  return out;
}

/** The same checkpoint with one tensor's header entry changed. */
function withTensor(bytes, name, change) {
  const { header, data } = split(bytes);
  return join(JSON.stringify({ ...header, [name]: { ...header[name], ...change } }), data);
}

/** The same checkpoint with every value of one float32 tensor set to `value`. */
function filled(bytes, name, value) {
  const { header, data } = split(bytes);
  const out = bytes.slice();
  const [begin, end] = header[name].data_offsets;
  const start = bytes.length - data.length + begin;
  const view = new DataView(out.buffer);
  for (let at = start; at < start + (end - begin); at += 4) {
    view.setFloat32(at, value, true);
  }
  return out;
}

const file = (name, bytes) => ({ name, mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) });
const state = (page, id) => page.getByTestId(id).getAttribute('data-state');

describe('hostile files through the page', { timeout: 600_000 }, () => {
  let lab, data, valid, page, problems, sectionModel, waitForState;
  useSession(
    startHostilePage,
    (session) => ({ lab, data, valid, page, problems, sectionModel, waitForState } = session),
  );

  test('section 2 refuses each hostile model file by name, keeps its model, then opens a valid one', async () => {
    const before = await sectionModel();
    const { header, data: tensors } = split(valid);
    const V = data.vocabSize;
    const other = (config) => {
      const model = lab.createModel({ ...modelConfig(data, 'learned'), ...config });
      const bytes = model.save();
      model.dispose();
      return bytes;
    };
    // (2^63 + 16V) × 2 = 2^64 + 32V: a shape whose product wraps, modulo 2^64, to the true element count V × 32.
    const wrapping = JSON.stringify(header).replace(`"shape":[${V},32]`, `"shape":[${2n ** 63n + BigInt(16 * V)},2]`);
    assert.notEqual(wrapping, JSON.stringify(header));
    const cases = [
      ['truncated.safetensors', valid.subarray(0, valid.length >> 1), /truncated or tampered file/],
      ['eight.safetensors', valid.subarray(0, 5), /at least the 8-byte header length, got 5 bytes/],
      [
        'lying-length.safetensors',
        join(JSON.stringify(header), tensors, 2n ** 40n),
        /header length 1099511627776 is not in \[2, 100 MiB\]/,
      ],
      [
        'past-end.safetensors',
        withTensor(valid, 'wte.weight', { data_offsets: [0, tensors.length + 4096] }),
        new RegExp(
          `spans data bytes \\[0, ${tensors.length + 4096}\\) but the data section has ${tensors.length} bytes`,
        ),
      ],
      ['overflow.safetensors', join(wrapping, tensors), /tensor "wte.weight" has an impossibly large shape/],
      [
        'not-json.safetensors',
        join('{"wte.weight": {"dtype": "F32", "shape": [2', tensors),
        /header is not valid JSON/,
      ],
      ['nan.safetensors', filled(valid, 'wte.weight', NaN), /wte.weight\[0\] is NaN; a checkpoint must hold finite/],
      [
        'wide.safetensors',
        other({ channels: 64 }),
        /holds a 2-layer GPT, 64 channels.*this section trains a 2-layer GPT, 32 channels/,
      ],
      ['rope.safetensors', other({ positions: 'rope' }), /rope positions.*this section trains .*learned positions/],
      [
        'gpt2.safetensors',
        join(
          JSON.stringify({ 'wpe.weight': { dtype: 'F32', shape: [2, 2], data_offsets: [0, 16] } }),
          new Uint8Array(16),
        ),
        /not a checkpoint of this page's tiny GPT .*1 tensors: wpe.weight/,
      ],
    ];
    assert.equal(Number(header['wte.weight'].shape[0]), V);
    for (const [name, bytes, reason] of cases) {
      await page.getByTestId('embeddings-torch-file').setInputFiles(file(name, bytes));
      await waitForState('embeddings-torch-status', 'error', 30_000);
      const error = await page.getByTestId('embeddings-torch-error').textContent();
      assert.ok(error.startsWith(`${name}: `), error);
      assert.match(error, reason, name);
      assert.equal(
        await page.getByTestId('embeddings-torch-status').textContent(),
        `${name} was not opened; the model above is unchanged.`,
      );
      // The section's model is the one it had: same step, same bytes, still offered to keep training.
      assert.equal(await state(page, 'embeddings-status'), 'done');
      assert.deepEqual(await sectionModel(), before, name);
      assert.equal(await page.getByTestId('embeddings-continue').isEnabled(), true);
      // Reset the status so that the next case waits for its own answer.
      await page.getByTestId('embeddings-torch-status').evaluate((el) => (el.dataset.state = 'waiting'));
    }
    // A valid file opens and training goes on from its step.
    await page.getByTestId('embeddings-torch-file').setInputFiles(file('valid.safetensors', valid));
    await waitForState('embeddings-torch-status', 'opened', 60_000);
    assert.equal(await page.getByTestId('embeddings-torch-error').textContent(), '');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="embeddings-status"]').dataset.steps === '303',
      null,
      { timeout: 240_000 },
    );
    assert.equal(await state(page, 'embeddings-status'), 'done');
  });

  test('section 5 refuses hostile position tables with the reason, then reads a valid one', async () => {
    const wpe = (shape) => {
      const count = shape.reduce((a, b) => a * b, 1);
      const values = new Float32Array(count).map((_, i) => Math.sin(i));
      return join(
        JSON.stringify({ 'wpe.weight': { dtype: 'F32', shape, data_offsets: [0, 4 * count] } }),
        new Uint8Array(values.buffer),
      );
    };
    const good = wpe([8, 6]);
    const cases = [
      ['truncated.safetensors', good.subarray(0, good.length - 7), /truncated or tampered file/],
      ['lying.safetensors', join('{}', new Uint8Array(8), 2n ** 40n), /header length 1099511627776/],
      ['not-json.safetensors', join('wpe.weight: [8, 6]', new Uint8Array(8)), /header is not valid JSON/],
      ['nan.safetensors', filled(good, 'wpe.weight', NaN), /wpe.weight holds NaN at position 0, channel 0/],
      ['infinite.safetensors', filled(good, 'wpe.weight', -Infinity), /holds -Infinity at position 0, channel 0/],
      ['flat.safetensors', wpe([48]), /wpe.weight has shape \[48\]; a position table is positions × channels/],
      ['empty.safetensors', new Uint8Array(0), /at least the 8-byte header length, got 0 bytes/],
      [
        'no-wpe.safetensors',
        join(
          JSON.stringify({ 'wte.weight': { dtype: 'F32', shape: [2, 2], data_offsets: [0, 16] } }),
          new Uint8Array(16),
        ),
        /no wpe tensor in this file \(it has 1 tensors: wte.weight…\)/,
      ],
    ];
    for (const [name, bytes, reason] of cases) {
      await page.getByTestId('learned-gpt2-file').setInputFiles(file(name, bytes));
      await waitForState('learned-gpt2-status', 'error', 30_000);
      const status = await page.getByTestId('learned-gpt2-status').textContent();
      assert.ok(status.startsWith(`Could not read the position table of ${name}: `), status);
      assert.match(status, reason, name);
      await page.getByTestId('learned-gpt2-status').evaluate((el) => (el.dataset.state = 'waiting'));
    }
    await page.getByTestId('learned-gpt2-file').setInputFiles(file('good.safetensors', good));
    await waitForState('learned-gpt2-status', 'done', 30_000);
    assert.equal(await page.getByTestId('learned-gpt2-status').getAttribute('data-shape'), '8x6');
    assert.equal(Number(await page.getByTestId('learned-gpt2-status').getAttribute('data-first')), 0);
  });

  test('no console errors on the page', () => {
    assert.deepEqual(problems, []);
  });
});
