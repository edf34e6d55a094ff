// Section 2's way to PyTorch and back, as a learner takes it: download the model and its training ids from the
// page, export-torch, train.py on 2 DDP processes, open the result on the page. The page then keeps training from
// PyTorch's step and moments, and the file loaded in the page gives the logits node gives (same wasm, same bytes).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import createEmbedLab from '../../dist/index.js';
import { launch, openPage, repoRoot } from './browser.mjs';

const python = process.env.EMBEDLAB_TORCH_PYTHON ?? '/usr/bin/python3';
const cli = join(repoRoot, 'dist/cli/main.js');
const PYTORCH_STEPS = 4;
const CONTINUE_STEPS = 300; // the section's "keep training" length

function run(command, args) {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 300_000 });
  assert.equal(result.status, 0, `${command} ${args.join(' ')}\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

const doneSteps = (page) =>
  page.waitForFunction(
    () => {
      const status = document.querySelector('[data-testid="embeddings-status"]');
      return status.dataset.state === 'done' ? Number(status.dataset.steps) : false;
    },
    null,
    { timeout: 240_000 },
  );

describe('section 2: page -> PyTorch DDP -> page', { timeout: 600_000 }, () => {
  let env;
  let lab;
  let context;
  let page;
  let problems;
  const work = mkdtempSync(join(tmpdir(), 'embedlab-roundtrip-'));

  before(async () => {
    [env, lab] = await Promise.all([launch(), createEmbedLab()]);
    ({ context, page, problems } = await openPage(
      env.browser,
      env.url,
      { width: 1280, height: 900 },
      { acceptDownloads: true },
    ));
    await page.evaluate(() => document.querySelectorAll('#embeddings details').forEach((d) => (d.open = true))); // the folded panels
  });

  after(async () => {
    await context?.close().catch(() => {});
    await env?.browser.close();
    await new Promise((resolve) => (env ? env.server.close(resolve) : resolve()));
    rmSync(work, { recursive: true, force: true });
  });

  async function download(testId) {
    const link = page.getByTestId(testId);
    await link.waitFor({ state: 'visible' });
    const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const path = join(work, file.suggestedFilename());
    await file.saveAs(path);
    return path;
  }

  test('the downloaded model trains in PyTorch on 2 processes and comes back to train on in the page', async () => {
    const pageStep = await (await doneSteps(page)).jsonValue();
    const modelFile = await download('embeddings-torch-model');
    const dataFile = await download('embeddings-torch-data');
    const pageModel = lab.loadModel(readFileSync(modelFile));
    assert.equal(pageModel.step, pageStep);
    const ids = new Uint32Array(readFileSync(dataFile).buffer.slice(0));
    assert.ok(ids.length > 1000 && Math.max(...ids) < pageModel.config.vocabSize, 'the ids fit the model');

    const dir = join(work, 'torch');
    run('node', [cli, 'export-torch', modelFile, '-o', dir]);
    const trained = join(work, 'trained.safetensors');
    run(python, [
      join(dir, 'train.py'),
      '--data',
      dataFile,
      '--steps',
      String(PYTORCH_STEPS),
      '--batch',
      '8',
      '--length',
      '16',
      '--processes',
      '2',
      '--out',
      trained,
    ]);
    const bytes = readFileSync(trained);
    const model = lab.loadModel(bytes);
    assert.equal(model.step, pageStep + PYTORCH_STEPS);
    assert.deepEqual(model.config, pageModel.config);
    const batch = { ids: [Array.from(ids.subarray(0, 16)), Array.from(ids.subarray(100, 116))] };
    const expected = Array.from(model.logits(batch));

    // The same file loaded by the package inside the page: the same logits, bit for bit.
    const inPage = await page.evaluate(
      async ({ data, batch }) => {
        const { default: createEmbedLab } = await import('./embedlab/index.js');
        const lab = await createEmbedLab();
        const loaded = lab.loadModel(new Uint8Array(data));
        return { step: loaded.step, logits: Array.from(loaded.logits(batch)) };
      },
      { data: Array.from(bytes), batch },
    );
    assert.equal(inPage.step, pageStep + PYTORCH_STEPS);
    assert.deepEqual(inPage.logits, expected);

    // Opened through the section's file input: training goes on from PyTorch's step.
    await page.getByTestId('embeddings-torch-file').setInputFiles(trained);
    await page.waitForFunction(
      (steps) => {
        const status = document.querySelector('[data-testid="embeddings-status"]');
        return status.dataset.state === 'done' && Number(status.dataset.steps) === steps;
      },
      pageStep + PYTORCH_STEPS + CONTINUE_STEPS,
      { timeout: 240_000 },
    );
    assert.equal(await page.getByTestId('embeddings-torch-error').textContent(), '');
    // The continued model is offered again, at its new step, and loads in node.
    const again = lab.loadModel(readFileSync(await download('embeddings-torch-model')));
    assert.equal(again.step, pageStep + PYTORCH_STEPS + CONTINUE_STEPS);
    for (const handle of [pageModel, model, again]) {
      handle.dispose();
    }
  });

  test('a model that does not fit the section is refused with the reason, and nothing starts', async () => {
    const other = lab.createModel({ vocabSize: 50257, channels: 8, heads: 2, layers: 1, contextLength: 16 });
    const file = join(work, 'other.safetensors');
    writeFileSync(file, other.save());
    other.dispose();
    await page.getByTestId('embeddings-torch-file').setInputFiles(file);
    await page.getByTestId('embeddings-torch-error').filter({ hasText: '50257 tokens' }).waitFor();
    assert.equal(await page.getByTestId('embeddings-status').getAttribute('data-state'), 'done');
    const junk = join(work, 'junk.safetensors');
    writeFileSync(junk, 'not a model');
    await page.getByTestId('embeddings-torch-file').setInputFiles(junk);
    await page.getByTestId('embeddings-torch-error').filter({ hasText: 'junk.safetensors:' }).waitFor();
    assert.deepEqual(problems, []);
  });
});
