// The page's limits without a browser: how a number input's value is judged (web/js/ui/number_input.js) and when a
// training run counts as diverged (web/js/training/divergence.js), checked against values written out by hand.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { divergenceLimit, divergenceMessage, hasDiverged } from '../../web/js/training/divergence.js';
import { numberInputProblem } from '../../web/js/ui/number_input.js';

/** What numberInputProblem reads of an <input type="number">; badInput is the browser's unparsable text. */
const input = (value, { min, max, step = '', badInput = false }) => ({
  value,
  min: String(min),
  max: String(max),
  step,
  validity: { badInput },
});

test('a number input is judged by its min, max and step, counted from min', () => {
  const steps = (value) => numberInputProblem(input(value, { min: 10, max: 2000, step: '10' }), 'Steps');
  assert.deepEqual(steps('10'), { value: 10 });
  assert.deepEqual(steps(' 2000 '), { value: 2000 });
  assert.deepEqual(steps('2010'), { problem: 'Steps must be a multiple of 10 from 10 to 2000; 2010 is above that.' });
  assert.deepEqual(steps('0'), { problem: 'Steps must be a multiple of 10 from 10 to 2000; 0 is below that.' });
  assert.deepEqual(steps('15'), { problem: 'Steps must be a multiple of 10 from 10 to 2000; 15 is not.' });
  assert.deepEqual(steps(''), { problem: 'Steps must be a multiple of 10 from 10 to 2000.' });
  const size = (value) => numberInputProblem(input(value, { min: 257, max: 4096, step: '1' }), 'Vocabulary size');
  assert.deepEqual(size('258'), { value: 258 }); // steps of 1 from an odd min
  assert.deepEqual(size('257.5'), {
    problem: 'Vocabulary size must be a whole number from 257 to 4096; 257.5 is not.',
  });
  const rate = (value, badInput) =>
    numberInputProblem(input(value, { min: '0.00001', max: 1, step: 'any', badInput }), 'Learning rate');
  assert.deepEqual(rate('1e-5'), { value: 1e-5 });
  assert.deepEqual(rate('0.0314'), { value: 0.0314 });
  assert.deepEqual(rate('1.5'), { problem: 'Learning rate must be a number from 1e−5 to 1; 1.5 is above that.' });
  assert.deepEqual(rate('', true), { problem: 'Learning rate must be a number from 1e−5 to 1.' });
  assert.deepEqual(rate('Infinity'), { problem: 'Learning rate must be a number from 1e−5 to 1.' });
});

test('a run diverges when its loss is not finite or above twice ln V', () => {
  assert.equal(divergenceLimit(20), 2 * 2.995732273553991);
  assert.equal(hasDiverged(5.99, 20), false);
  assert.equal(hasDiverged(5.992, 20), true);
  for (const loss of [NaN, Infinity, -Infinity]) {
    assert.equal(hasDiverged(loss, 20), true, String(loss));
  }
  assert.equal(
    divergenceMessage({ step: 7, loss: 48.25, limit: divergenceLimit(20), rolledBackTo: 0 }, 1),
    'Stopped at step 7: the loss reached 48.250, above 5.991 (twice the loss of a uniform guess, 2 ln V), so the run diverged. The model is rolled back to step 0, its last snapshot before that. Try a smaller learning rate than 1.',
  );
  assert.match(divergenceMessage({ step: 3, loss: NaN, limit: 6, rolledBackTo: 0 }, 0.5), /the loss became NaN/);
});
