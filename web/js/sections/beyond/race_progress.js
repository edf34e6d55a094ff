// Section 7's race, its progress: one row per job (label, bar, phase), the share of a job done, and the phases'
// names. No numbers of the race itself.

// A RoPE-family job's bar names the reading it is at.
const SHORT_NAMES = { rope: 'RoPE', rope_pi: 'PI', rope_ntk: 'NTK', rope_yarn: 'YaRN', rope_ntk_wide: 'NTK at 2L/T' };
const PHASES = {
  bpe: 'training the BPE',
  train: 'training',
  evaluate: 'reading',
  'fine-tune': 'fine-tuning',
  done: 'done',
};

/**
 * A job's progress from a run's {done, total} units. The RoPE family's schemes share one trained model: the first
 * scheme's units include the `steps` training steps, the others' only their readings and fine-tuning.
 */
function familyFraction(item, index, count, { done, total }, steps) {
  if (count === 1) {
    return done / total;
  }
  const first = index === 0 ? total : item.firstTotal;
  item.firstTotal = first;
  const rest = Math.max(1, first - steps);
  return (index === 0 ? done : first + (index - 1) * rest + done) / (first + (count - 1) * rest);
}

/** A run's row: label, progress bar, phase. */
export function runItem(label) {
  const li = document.createElement('li');
  li.dataset.state = 'waiting';
  const name = document.createElement('span');
  name.className = 'race-run-label';
  name.textContent = label;
  const bar = document.createElement('progress');
  bar.max = 1;
  bar.value = 0;
  bar.setAttribute('aria-label', label);
  const phase = document.createElement('span');
  phase.className = 'race-run-phase';
  phase.textContent = 'waiting';
  li.append(name, bar, phase);
  return { li, bar, phase, fraction: 0, phaseText: 'waiting' };
}

/** Updates a job's row from a worker's progress message m; steps: the training steps of its runs. */
export function showProgress(job, m, steps) {
  const index = job.schemes ? Math.max(0, job.schemes.indexOf(m.scheme)) : 0;
  const count = job.schemes?.length ?? 1;
  job.item.fraction = familyFraction(job.item, index, count, m, steps);
  if (m.phase === 'done' && index < count - 1) {
    return; // one reading of the RoPE family is done, not the job
  }
  // The phase alone: m.done/m.total count the whole run's units (training, readings and fine-tuning).
  const which = count > 1 ? `${SHORT_NAMES[m.scheme]}: ` : '';
  job.item.phaseText = `${which}${PHASES[m.phase] ?? m.phase}`;
}

/** Writes every row's bar and phase (only what changed: each write restyles the page). */
export function paintRows(jobs) {
  for (const { item } of jobs) {
    if (item.bar.value !== item.fraction) {
      item.bar.value = item.fraction;
    }
    if (item.phase.textContent !== item.phaseText) {
      item.phase.textContent = item.phaseText;
    }
  }
}
