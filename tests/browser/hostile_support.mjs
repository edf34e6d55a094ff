// Shared by the hostile-input page tests (hostile_files.test.mjs, hostile_values.test.mjs): the page in Chromium with
// section 2's corpus built in node and a checkpoint of its model trained 3 steps here, and the helpers that read
// section 2's model and wait for a section's state.
import { readFileSync } from 'node:fs';
import createEmbedLab from '../../dist/index.js';
import { buildData, trainModel } from '../../web/js/training/training.js';
import { launch, openPage, startLearnedTraining } from './browser.mjs';

/**
 * {env, lab, data (section 2's corpus as the worker builds it), valid (a checkpoint of section 2's model, 3 steps),
 * page, problems, sectionModel(), waitForState(id, wanted, timeout), close()}.
 */
export async function startHostilePage() {
  const [env, lab] = await Promise.all([launch(), createEmbedLab()]);
  const data = buildData(lab, await lab.getTokenizer('r50k_base'));
  const model = trainModel(lab, data, 'learned', { steps: 3 });
  const valid = model.save();
  model.dispose();
  // Service workers blocked: a test serves a failing worker script through the context's routes.
  const { page, problems } = await openPage(env.browser, env.url, undefined, {
    acceptDownloads: true,
    serviceWorkers: 'block',
  });
  await page.evaluate(() => document.querySelectorAll('#embeddings details').forEach((d) => (d.open = true))); // the folded panels
  // The sections these tests use have their first results (the race of section 7 may wait for a click).
  await startLearnedTraining(page, 240_000);
  await page.waitForFunction(
    () =>
      ['embeddings-status', 'learned-status', 'tokenize-bpe-status'].every(
        (id) => document.querySelector(`[data-testid="${id}"]`)?.dataset.state === 'done',
      ),
    null,
    { timeout: 240_000 },
  );

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

  const close = async () => {
    await env.browser.close();
    await new Promise((resolve) => env.server.close(resolve));
  };
  return { env, lab, data, valid, page, problems, sectionModel, waitForState, close };
}
