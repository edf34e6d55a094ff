// Hostile values through the page's own controls: number inputs at and beyond their limits, a learning rate that
// diverges, a job that runs out of memory, a training worker that dies. Each gets a message where the learner looks,
// the learner's model stays, and the section works again afterwards. (Hostile files: hostile_files.test.mjs.)
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MODEL_DEFAULTS, trainModel } from '../../web/js/training/training.js';
import { useSession } from './browser.mjs';
import { startHostilePage } from './hostile_support.mjs';

const state = (page, id) => page.getByTestId(id).getAttribute('data-state');

describe('hostile values and failing workers through the page', { timeout: 600_000 }, () => {
  let lab, data, page, problems, sectionModel, waitForState;
  useSession(startHostilePage, (session) => ({ lab, data, page, problems, sectionModel, waitForState } = session));

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
