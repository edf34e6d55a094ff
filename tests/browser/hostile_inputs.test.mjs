// Hostile files and values through the page's own controls (issue 15, item 3): safetensors files that are
// truncated, lie about their sizes, are not JSON, hold NaN or hold another model; number inputs at and beyond their
// limits; a learning rate that diverges; a training worker that dies. Each gets a message where the learner looks,
// the learner's model stays, and the section works again afterwards. The files are made here, byte by byte.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import createEmbedLab from '../../dist/index.js';
import { buildData, MODEL_DEFAULTS, modelConfig, trainModel } from '../../web/js/training/training.js';
import { launch, openPage } from './browser.mjs';

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

describe('hostile files and values through the page', { timeout: 600_000 }, () => {
  let env;
  let lab;
  let data; // section 2's corpus as the worker builds it
  let page;
  let problems;
  let valid; // a checkpoint of section 2's model, 3 steps trained here

  before(async () => {
    [env, lab] = await Promise.all([launch(), createEmbedLab()]);
    data = buildData(lab, await lab.getTokenizer('r50k_base'));
    const model = trainModel(lab, data, 'learned', { steps: 3 });
    valid = model.save();
    model.dispose();
    // Service workers blocked: the last test serves a failing worker script through the context's routes.
    ({ page, problems } = await openPage(env.browser, env.url, undefined, {
      acceptDownloads: true,
      serviceWorkers: 'block',
    }));
    // The sections this test uses have their first results (the race of section 7 may wait for a click).
    await page.waitForFunction(
      () =>
        ['embeddings-status', 'learned-status', 'tokenize-bpe-status'].every(
          (id) => document.querySelector(`[data-testid="${id}"]`)?.dataset.state === 'done',
        ),
      null,
      { timeout: 240_000 },
    );
  });

  after(async () => {
    await env?.browser.close();
    await new Promise((resolve) => (env ? env.server.close(resolve) : resolve()));
  });

  /** Section 2's step and the bytes its "Keep training" would continue from (its model download). */
  async function sectionModel() {
    const step = Number(await page.getByTestId('embeddings-status').getAttribute('data-steps'));
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('embeddings-torch-model').click(),
    ]);
    const bytes = readFileSync(await download.path());
    await download.delete();
    return { step, bytes: Array.from(bytes) };
  }

  const waitForState = (id, wanted, timeout = 240_000) =>
    page.waitForFunction(
      ([testId, states]) => states.includes(document.querySelector(`[data-testid="${testId}"]`).dataset.state),
      [id, [wanted].flat()],
      { timeout },
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

  test('number inputs beyond their limits are refused next to the control; at the limits they run', async () => {
    const refusals = [
      [
        'embeddings-steps',
        '2010',
        'embeddings-train',
        'Steps must be a multiple of 10 from 10 to 2000; 2010 is above that.',
      ],
      ['embeddings-steps', '0', 'embeddings-train', 'Steps must be a multiple of 10 from 10 to 2000; 0 is below that.'],
      ['embeddings-steps', '15', 'embeddings-train', 'Steps must be a multiple of 10 from 10 to 2000; 15 is not.'],
      ['embeddings-steps', '', 'embeddings-train', 'Steps must be a multiple of 10 from 10 to 2000.'],
      ['embeddings-rate', '2', 'embeddings-train', 'Learning rate must be a number from 1e−5 to 1; 2 is above that.'],
      [
        'embeddings-rate',
        '1e-6',
        'embeddings-train',
        'Learning rate must be a number from 1e−5 to 1; 1e-6 is below that.',
      ],
      ['learned-steps', '3010', 'learned-train', 'Steps must be a multiple of 10 from 10 to 3000; 3010 is above that.'],
      ['learned-seed', '1.5', 'learned-train', 'Seed must be a whole number from 1 to 1000000; 1.5 is not.'],
      ['learned-rate', '-1', 'learned-train', 'Learning rate must be a number from 1e−5 to 1; -1 is below that.'],
      [
        'beyond-race-steps',
        '3010',
        'beyond-race-start',
        'Steps per run must be a multiple of 10 from 20 to 3000; 3010 is above that.',
      ],
      [
        'tokenize-bpe-size',
        '256',
        'tokenize-bpe-train',
        'Vocabulary size must be a whole number from 257 to 4096; 256 is below that.',
      ],
      [
        'tokenize-bpe-size',
        '4097',
        'tokenize-bpe-train',
        'Vocabulary size must be a whole number from 257 to 4096; 4097 is above that.',
      ],
    ];
    const statusOf = {
      'embeddings-train': 'embeddings-status',
      'learned-train': 'learned-status',
      'tokenize-bpe-train': 'tokenize-bpe-status',
      'beyond-race-start': 'beyond-race-status',
    };
    for (const [input, value, button, message] of refusals) {
      const original = await page.getByTestId(input).inputValue();
      const status = statusOf[button];
      const stateBefore = await state(page, status);
      await page.getByTestId(input).fill(value);
      await page.getByTestId(button).click();
      // The click starts a job synchronously when it starts one: nothing started.
      assert.equal(await state(page, status), stateBefore, `${input} = ${value}`);
      const problem = page.getByTestId(`${input}-problem`);
      assert.equal(await problem.textContent(), `${message} Nothing was started; what the section shows is unchanged.`);
      assert.equal(await page.getByTestId(input).getAttribute('aria-invalid'), 'true');
      // A valid value clears the message as soon as it is committed.
      await page.getByTestId(input).fill(original);
      await page.getByTestId(input).dispatchEvent('change');
      assert.equal(await problem.count(), 0);
      assert.equal(await page.getByTestId(input).getAttribute('aria-invalid'), null);
    }
    // At the limits: a vocabulary of 257 (one merge) trains; the longest run starts and is replaced by the
    // shortest, which finishes (the page never waits on a run it has replaced).
    await page.getByTestId('tokenize-bpe-size').fill('257');
    await page.getByTestId('tokenize-bpe-train').click();
    await waitForState('tokenize-bpe-status', 'done');
    assert.equal(await page.getByTestId('tokenize-bpe-status').getAttribute('data-vocab-size'), '257');
    // 4096 asks for more merges than the page's text has pairs for: training ends when they run out.
    await page.getByTestId('tokenize-bpe-size').fill('4096');
    await page.getByTestId('tokenize-bpe-train').click();
    await waitForState('tokenize-bpe-status', 'done'); // the click set 'running' before it returned
    const largest = Number(await page.getByTestId('tokenize-bpe-status').getAttribute('data-vocab-size'));
    assert.ok(largest > 257 && largest <= 4096, String(largest));
    await page.getByTestId('learned-steps').fill('3000');
    await page.getByTestId('learned-train').click();
    await page
      .getByTestId('learned-status')
      .filter({ hasText: /step \d+ of 3000/ })
      .waitFor({ timeout: 120_000 });
    await page.getByTestId('learned-steps').fill('10');
    await page.getByTestId('learned-train').click();
    await waitForState('learned-status', 'done');
    assert.match(await page.getByTestId('learned-status').textContent(), /^Trained 10 steps/);
    await page.getByTestId('learned-steps').fill('400');
  });

  test('a learning rate that diverges stops the run, rolls the model back and says so', async () => {
    const V = data.vocabSize;
    const limit = 2 * Math.log(V);
    // Where the loss first passes 2 ln V at learning rate 1, computed here with the library in node.
    let expectedStep = null;
    const model = trainModel(lab, data, 'learned', {
      steps: 300,
      learningRate: 1,
      onStep: ({ step, loss }) => {
        if (!(loss <= limit)) {
          expectedStep = step;
          return false;
        }
      },
    });
    model.dispose();
    assert.ok(expectedStep !== null, 'learning rate 1 diverges in node');
    const every = 30; // the section's snapshots: every 300 / 10 steps
    const rolledBackTo = Math.floor((expectedStep - 1) / every) * every;

    await page.getByTestId('embeddings-steps').fill('300');
    await page.getByTestId('embeddings-rate').fill('1');
    await page.getByTestId('embeddings-train').click();
    await waitForState('embeddings-status', 'diverged');
    const error = await page.getByTestId('embeddings-error').textContent();
    assert.match(
      error,
      new RegExp(`^Stopped at step ${expectedStep}: the loss reached \\d+\\.\\d{3}, above ${limit.toFixed(3)}`),
    );
    assert.match(
      error,
      new RegExp(
        `rolled back to step ${rolledBackTo}, its last snapshot before that\\. Try a smaller learning rate than 1\\.$`,
      ),
    );
    // The model kept is the snapshot's: its bytes load, at that step, with finite weights.
    const kept = await sectionModel();
    assert.equal(kept.step, rolledBackTo);
    const loaded = lab.loadModel(Uint8Array.from(kept.bytes));
    assert.equal(loaded.step, rolledBackTo);
    assert.ok(loaded.tokenEmbeddings().every(Number.isFinite));
    loaded.dispose();
    assert.equal(await page.getByTestId('embeddings-continue').isEnabled(), true);

    // Section 5 rolls back the same way: its slider ends at the last snapshot before the divergence.
    await page.getByTestId('learned-rate').fill('1');
    await page.getByTestId('learned-train').click();
    await waitForState('learned-status', 'diverged');
    assert.match(
      await page.getByTestId('learned-error').textContent(),
      /^Stopped at step \d+: .*Try a smaller learning rate than 1\.$/,
    );
    assert.match(await page.getByTestId('learned-snap-out').textContent(), /^step \d+$/);

    // Both sections train again at a smaller rate.
    await page.getByTestId('embeddings-rate').fill('0.003');
    await page.getByTestId('embeddings-steps').fill('10');
    await page.getByTestId('embeddings-train').click();
    await waitForState('embeddings-status', 'done');
    assert.equal(await page.getByTestId('embeddings-status').getAttribute('data-steps'), '10');
    await page.getByTestId('learned-rate').fill('0.003');
    await page.getByTestId('learned-steps').fill('10');
    await page.getByTestId('learned-train').click();
    await waitForState('learned-status', 'done');
    await page.getByTestId('learned-steps').fill('400');
  });

  /** Waits for section 2's run to be done at `step`. */
  const doneAt = (step) =>
    page.waitForFunction(
      (wanted) => {
        const status = document.querySelector('[data-testid="embeddings-status"]');
        return status.dataset.state === 'done' && Number(status.dataset.steps) === wanted;
      },
      step,
      { timeout: 240_000 },
    );

  test('a job that runs out of memory mid-run is reported, the model from before it comes back, the next runs', async () => {
    const before = await sectionModel();
    // The next training worker fails as a failed allocation inside the job does (a RangeError thrown in it, caught
    // by the job and posted), at its 250th step: after the run has shown a snapshot of its own (step 200).
    const FAILURE = `{
      const send = self.postMessage.bind(self);
      let steps = 0;
      self.postMessage = (message, transfer) => {
        if (message.kind === 'progress' && ++steps === 250) {
          throw new RangeError('WebAssembly.Memory.grow(): Maximum memory size exceeded');
        }
        return send(message, transfer);
      };
    }
`;
    const inject = async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, body: FAILURE + (await response.text()) });
    };
    await page.context().route('**/js/workers/jobs.js', inject);
    // Records the steps the section's figure shows, to see it show the failing run's model first.
    await page.evaluate(() => {
      window.shownSteps = [];
      const label = document.getElementById('embeddings-step');
      new MutationObserver(() => window.shownSteps.push(label.textContent)).observe(label, { childList: true });
    });
    await page.getByTestId('embeddings-steps').fill('2000');
    const started = page.waitForEvent('worker', (w) => new URL(w.url()).pathname.endsWith('/js/workers/jobs.js'));
    await page.getByTestId('embeddings-train').click();
    const worker = await started;
    await page.context().unroute('**/js/workers/jobs.js', inject);
    const closed = new Promise((resolve) => worker.once('close', resolve));
    await waitForState('embeddings-status', 'error', 180_000);
    await closed; // the page ended the worker
    assert.equal(
      await page.getByTestId('embeddings-error').textContent(),
      'The job ran out of memory (WebAssembly.Memory.grow(): Maximum memory size exceeded); its worker was stopped. The next run starts a new worker. The section shows the model from before this run, and “Keep training” goes on from it.',
    );
    assert.deepEqual(await sectionModel(), before);
    assert.ok((await page.evaluate(() => window.shownSteps)).includes('step 200'), 'the run showed its step 200');
    assert.equal(await page.locator('#embeddings-step').textContent(), `step ${before.step}`);
    assert.equal(await page.getByTestId('embeddings-continue').isEnabled(), true);
    // "Keep training" goes on from the kept model, in a new worker.
    await page.getByTestId('embeddings-continue').click();
    await doneAt(before.step + 300);
    assert.equal(await page.getByTestId('embeddings-error').textContent(), '');
  });

  test('a worker that dies as it starts (its error event) is reported, and the next run gets a new worker', async () => {
    const before = await sectionModel();
    // The wasm memory cannot be allocated: the worker's script throws before it answers anything.
    const fail = (route) =>
      route.fulfill({
        contentType: 'text/javascript',
        body: "throw new RangeError('WebAssembly.Memory(): could not allocate memory');",
      });
    await page.context().route('**/js/workers/jobs.js', fail);
    await page.getByTestId('embeddings-steps').fill('10');
    await page.getByTestId('embeddings-train').click();
    await waitForState('embeddings-status', 'error', 30_000);
    assert.equal(
      await page.getByTestId('embeddings-error').textContent(),
      'The worker doing this job died (Uncaught RangeError: WebAssembly.Memory(): could not allocate memory): it ran out of memory. The next run starts a new worker. The section shows the model from before this run, and “Keep training” goes on from it.',
    );
    assert.deepEqual(await sectionModel(), before);
    await page.context().unroute('**/js/workers/jobs.js', fail);
    await page.getByTestId('embeddings-train').click();
    await doneAt(10);
    assert.equal(await page.getByTestId('embeddings-error').textContent(), '');
    assert.equal(MODEL_DEFAULTS.learningRate, Number(await page.getByTestId('embeddings-rate').inputValue()));
    assert.deepEqual(problems, []);
  });
});
