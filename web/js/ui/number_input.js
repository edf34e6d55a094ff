// The page's number inputs, read strictly: a value outside the input's min and max (or off its step) is refused
// with a message under the control's row, instead of being clamped silently or reaching a worker.
import { $ } from './dom.js';

/** "0.00001" as "1e-5", other numbers as written. */
const shown = (x) => (x !== 0 && Math.abs(x) < 1e-3 ? x.toExponential().replace('e-', 'e−') : String(x));

/** What is wrong with the input's value ({value} when nothing is), in words that name the control and its range. */
export function numberInputProblem(input, name) {
  const min = Number(input.min);
  const max = Number(input.max);
  const text = input.value.trim();
  const value = Number(text);
  const range = `from ${shown(min)} to ${shown(max)}`;
  const step = input.step === 'any' ? null : Number(input.step || 1);
  const kind = step === null ? 'a number' : step === 1 ? 'a whole number' : `a multiple of ${step}`;
  if (input.validity.badInput || text === '' || !Number.isFinite(value)) {
    return { problem: `${name} must be ${kind} ${range}.` };
  }
  if (value < min || value > max) {
    return { problem: `${name} must be ${kind} ${range}; ${text} is ${value < min ? 'below' : 'above'} that.` };
  }
  // The step counts from min, as the browser's own stepMismatch does.
  if (step !== null && Math.abs((value - min) / step - Math.round((value - min) / step)) > 1e-9) {
    return { problem: `${name} must be ${kind} ${range}; ${text} is not.` };
  }
  return { value };
}

const REFUSED = 'Nothing was started; what the section shows is unchanged.';

/** The line under the input's row that holds its message; made on first use, removed when the value is fixed. */
function messageLine(input, create) {
  let line = $(`${input.id}-problem`);
  if (!line && create) {
    line = document.createElement('p');
    line.id = `${input.id}-problem`;
    line.className = 'error';
    line.setAttribute('role', 'alert');
    line.dataset.testid = `${input.id}-problem`;
    (input.closest('.train-row, .field-row') ?? input.closest('.field') ?? input).after(line); // below the buttons
    input.setAttribute('aria-describedby', line.id);
  }
  return line;
}

/**
 * The value of number input `id`, or null after showing why it cannot be used (`name` is the control's label,
 * e.g. 'Steps'; `consequence` follows the message). A valid value clears an earlier message.
 */
export function readNumberInput(id, name, consequence = REFUSED) {
  const input = $(id);
  const { value, problem } = numberInputProblem(input, name);
  if (problem) {
    input.setAttribute('aria-invalid', 'true');
    messageLine(input, true).textContent = consequence ? `${problem} ${consequence}` : problem;
    return null;
  }
  input.removeAttribute('aria-invalid');
  const line = messageLine(input, false);
  if (line) {
    input.removeAttribute('aria-describedby');
    line.remove();
  }
  return value;
}

/** Checks the input whenever the learner commits a value (Enter or leaving it), before any button is pressed. */
export function checkOnChange(id, name) {
  $(id).addEventListener('change', () => readNumberInput(id, name, ''));
}
