// Section 9: exercises, each checked live by the library when the learner presses its button. The exercises
// themselves are in tokens.js, positions.js and scale.js beside it; this file draws them and runs the checks.
import { $ } from '../../ui/dom.js';
import { POSITION_EXERCISES } from './positions.js';
import { SCALE_EXERCISES } from './scale.js';
import { TOKEN_EXERCISES } from './tokens.js';

const EXERCISES = [...TOKEN_EXERCISES, ...POSITION_EXERCISES, ...SCALE_EXERCISES];

let ctx;

function control(ex, input) {
  let element;
  if (input.options) {
    // An option is its value, or {value, label} when the text shown is longer than the value checked.
    element = document.createElement('select');
    for (const o of input.options) {
      const { value, label } = typeof o === 'string' ? { value: o, label: o } : o;
      element.append(new Option(label, value, false, value === input.value));
    }
  } else {
    element = document.createElement('input');
    element.type = input.type ?? 'text';
    if (element.type === 'number') {
      element.step = 'any';
    }
    element.value = input.value;
    element.spellcheck = false;
    if (element.type === 'text') {
      element.size = input.size ?? 18;
    }
  }
  element.name = input.name;
  element.dataset.testid = `exercises-${ex.id}-${input.name}`;
  return element;
}

/** A message for the first empty field, or null: a check never runs on a blank. */
function emptyField(ex, values) {
  const empty = ex.inputs.find((input) => !input.options && String(values[input.name] ?? '').trim() === '');
  return empty ? `Fill in “${empty.label}” first.` : null;
}

function exerciseItem(ex, number) {
  const li = document.createElement('li');
  li.className = 'exercise panel';
  li.dataset.testid = `exercises-${ex.id}`;
  const h = document.createElement('h3');
  h.id = `exercises-${ex.id}-title`;
  h.textContent = ex.title;
  const p = document.createElement('p');
  p.textContent = ex.text;
  const form = document.createElement('form');
  form.className = 'exercise-form';
  form.setAttribute('aria-labelledby', h.id);
  for (const input of ex.inputs) {
    const field = document.createElement('label');
    field.className = 'inline';
    field.append(`${input.label} `, control(ex, input));
    form.append(field);
  }
  const button = document.createElement('button');
  button.type = 'submit';
  button.textContent = 'Check';
  button.setAttribute('aria-label', `Check exercise ${number}: ${ex.title}`);
  button.dataset.testid = `exercises-${ex.id}-check`;
  form.append(button);
  const result = document.createElement('p');
  result.className = 'exercise-result';
  result.setAttribute('aria-live', 'polite');
  result.dataset.testid = `exercises-${ex.id}-result`;
  const explain = document.createElement('p');
  explain.className = 'exercise-explain';
  explain.dataset.testid = `exercises-${ex.id}-explain`;
  explain.hidden = true;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const values = Object.fromEntries(new FormData(form));
    delete result.dataset.ok;
    explain.hidden = true;
    let outcome;
    const blank = emptyField(ex, values);
    if (blank) {
      outcome = { ok: false, message: blank };
    } else {
      result.textContent = 'Checking…';
      try {
        outcome = await ex.check(ctx, values);
      } catch (error) {
        outcome = { ok: false, message: error.message };
      }
    }
    result.textContent = `${outcome.ok ? '✓ Correct.' : '✗ Not yet.'} ${outcome.message}`;
    result.dataset.ok = String(outcome.ok);
    if (outcome.ok) {
      explain.textContent = `Why: ${ex.explain}`;
      explain.hidden = false;
    }
  });
  li.append(h, p, form, result, explain);
  return li;
}

export function init(context) {
  ctx = context;
  $('exercises-list').replaceChildren(...EXERCISES.map((ex, i) => exerciseItem(ex, i + 1)));
}
