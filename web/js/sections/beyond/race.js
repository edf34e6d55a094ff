// Section 7's extrapolation race: the library's long-context experiment (passkey and Brown-corpus language task,
// every scheme, several seeds) split into independent jobs that run in parallel Web Workers, one progress bar each.
import { $ } from '../../ui/dom.js';
import { checkOnChange, readNumberInput } from '../../ui/number_input.js';
import { drawRace, makePanels } from '../../race/figures.js';
import { raceWorkerCount, WorkerPool } from '../../race/pool.js';
import {
  RACE_CORPUS,
  RACE_EVAL_ROWS,
  RACE_OPTIONS,
  RACE_SCHEMES,
  raceJobs,
  SCHEME_NAMES,
  taskOptions,
} from '../../race/plan.js';

const WORKER_URL = new URL('../../race/worker.js', import.meta.url);
const PAINT_INTERVAL = 500; // ms between progress paints
let pool = null;
let panels = null;
let shown = null; // {runs, options} of the latest race, redrawn on resize

/** Workers for the race: ?raceWorkers=N (1–16, the benchmark's 1-worker run), else every core up to 8. */
function workerCount() {
  const asked = Number(new URLSearchParams(self.location.search).get('raceWorkers'));
  return Number.isInteger(asked) && asked >= 1 && asked <= 16 ? asked : raceWorkerCount();
}

// A RoPE-family job's bar names the reading it is at.
const SHORT_NAMES = { rope: 'RoPE', rope_pi: 'PI', rope_ntk: 'NTK', rope_yarn: 'YaRN' };
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
function runItem(label) {
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

function setupText(options, seeds, workers) {
  const T = options.trainLength;
  const lengths = options.factors.map((f) => f * T).join(', ');
  return `This race: trained at T = ${T} and read at ${lengths}; ${options.layers} layers, ${options.channels} channels, ${options.heads} heads; ${options.steps} AdamW steps of ${options.batch} rows, then ${options.fineTuneSteps} fine-tuning steps at each longer length; seeds ${seeds.join(', ')}; ${RACE_EVAL_ROWS.passkey} passkeys per depth and length, ${RACE_EVAL_ROWS.language} held-out windows per language reading; ${workers} worker${workers === 1 ? '' : 's'} (navigator.hardwareConcurrency = ${navigator.hardwareConcurrency ?? 'unknown'}). The native table of the package’s long-context report (docs/long-contexts.md) is a larger run of the same experiment (T = 64, read up to 8T, 64 channels, 1500 steps): this one is smaller, so its losses are higher, and it is its pattern across schemes that can agree with the native one.`;
}

async function startRace() {
  const steps = readNumberInput('beyond-race-steps', 'Steps per run');
  const fineTuneSteps = readNumberInput('beyond-race-fine-tune', 'Fine-tuning steps');
  const seedCount = readNumberInput('beyond-race-seeds', 'Seeds');
  if (steps === null || fineTuneSteps === null || seedCount === null) {
    return;
  }
  pool?.stop();
  const workers = workerCount();
  const myPool = new WorkerPool(WORKER_URL, workers);
  pool = myPool;
  const seeds = Array.from({ length: seedCount }, (_, i) => i);
  const base = { ...RACE_OPTIONS, steps, fineTuneSteps };
  const status = $('beyond-race-status');
  const overall = $('beyond-race-progress');
  const error = $('beyond-race-error');
  status.dataset.state = 'running';
  status.dataset.options = JSON.stringify({ ...base, evalRows: RACE_EVAL_ROWS, seeds, corpus: RACE_CORPUS });
  error.textContent = '';
  $('beyond-race-setup').textContent = setupText(base, seeds, workers);
  $('beyond-race-stop').disabled = false;
  $('beyond-race-start').textContent = 'Run the race again';

  const runs = { language: new Map(), passkey: new Map() };
  shown = { runs, options: base };
  const pending = { language: new Map(), passkey: new Map() }; // scheme → runs by seed index, until all are in
  const jobs = [
    { kind: 'corpus', label: `corpus · ${RACE_CORPUS.vocabSize}-token BPE on the Brown excerpt` },
    ...['passkey', 'language'].flatMap((task) => raceJobs(task, seeds)),
  ].map((job) => ({
    ...job,
    item: runItem(
      job.kind === 'corpus'
        ? job.label
        : `${job.task} · ${job.schemes.map((s) => SCHEME_NAMES[s]).join(', ')} · seed ${job.seed}`,
    ),
  }));
  $('beyond-race-runs').replaceChildren(...jobs.map((j) => j.item.li));
  const started = performance.now();
  let finished = 0;
  // Progress is painted at most every PAINT_INTERVAL ms: each paint restyles, lays out and repaints the long page on
  // the main thread, which on a 2-core machine takes its time from the workers (a paint per message cost ~30% of a
  // core and most of the workers' speed-up).
  let paintTimer = 0;
  const paint = () => {
    paintTimer = 0;
    if (pool !== myPool) {
      return;
    }
    for (const { item } of jobs) {
      if (item.bar.value !== item.fraction) {
        item.bar.value = item.fraction;
      }
      if (item.phase.textContent !== item.phaseText) {
        item.phase.textContent = item.phaseText;
      }
    }
    overall.value = jobs.reduce((sum, j) => sum + j.item.fraction, 0) / jobs.length;
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    status.textContent = `Running: ${finished} of ${jobs.length} jobs done on ${workers} worker${workers === 1 ? '' : 's'}, ${seconds} s.`;
  };
  const update = () => {
    paintTimer ||= setTimeout(paint, PAINT_INTERVAL);
  };

  const runJob = (job, params) =>
    myPool
      .run({
        type: job.kind === 'corpus' ? 'corpus' : 'run',
        params,
        onStart: () => {
          job.item.li.dataset.state = 'running';
          job.item.phaseText = 'starting';
          update();
        },
        onMessage: (m) => {
          if (m.kind !== 'progress' || pool !== myPool) {
            return;
          }
          const index = job.schemes ? Math.max(0, job.schemes.indexOf(m.scheme)) : 0;
          const count = job.schemes?.length ?? 1;
          job.item.fraction = familyFraction(job.item, index, count, m, steps);
          if (m.phase === 'done' && index < count - 1) {
            return; // one reading of the RoPE family is done, not the job
          }
          // The phase alone: m.done/m.total count the whole run's units (training, readings and fine-tuning).
          const which = count > 1 ? `${SHORT_NAMES[m.scheme]}: ` : '';
          job.item.phaseText = `${which}${PHASES[m.phase] ?? m.phase}`;
          update();
        },
      })
      .then(
        (result) => {
          job.item.fraction = 1;
          job.item.li.dataset.state = 'done';
          job.item.phaseText = 'done';
          finished += 1;
          update();
          return result;
        },
        (failure) => {
          job.item.li.dataset.state = failure.name === 'AbortError' ? 'stopped' : 'error';
          job.item.phaseText = failure.name === 'AbortError' ? 'stopped' : `failed: ${failure.message}`;
          update();
          throw failure;
        },
      );

  const collect = (job, result) => {
    if (pool !== myPool) {
      return;
    }
    for (const run of result.runs) {
      const bySeed = pending[job.task].get(run.scheme) ?? new Array(seeds.length);
      bySeed[seeds.indexOf(run.seed)] = run;
      pending[job.task].set(run.scheme, bySeed);
      if (bySeed.filter(Boolean).length === seeds.length) {
        runs[job.task].set(run.scheme, bySeed);
      }
    }
    drawRace(panels, runs, base);
  };
  const [corpusJob, ...runJobs] = jobs;
  // The worker resolves URLs against its own script: give it the page's.
  const corpus = runJob(corpusJob, { ...RACE_CORPUS, url: new URL(RACE_CORPUS.url, document.baseURI).href });
  const work = runJobs.map(async (job) => {
    const options = taskOptions(job.task, base);
    if (job.task === 'language') {
      const { ids, vocabSize } = await corpus;
      Object.assign(options, { corpus: ids, vocabSize });
    }
    collect(job, await runJob(job, { options, schemes: job.schemes, seed: job.seed }));
  });
  const outcomes = await Promise.allSettled([corpus, ...work]);
  if (pool !== myPool) {
    return; // replaced by a newer race
  }
  myPool.stop();
  $('beyond-race-stop').disabled = true;
  for (const { item } of jobs.filter((j) => j.item.li.dataset.state === 'waiting')) {
    item.li.dataset.state = 'stopped';
    item.phaseText = 'not run';
  }
  clearTimeout(paintTimer);
  paint();
  const failures = outcomes.filter((o) => o.status === 'rejected').map((o) => o.reason);
  const seconds = (performance.now() - started) / 1000;
  if (failures.some((f) => f.name === 'AbortError')) {
    status.dataset.state = 'stopped';
    status.textContent = `Stopped after ${seconds.toFixed(0)} s: ${finished} of ${jobs.length} jobs done.`;
  } else if (failures.length > 0) {
    status.dataset.state = 'error';
    status.textContent = `${failures.length} of ${jobs.length} jobs failed.`;
    error.textContent = [...new Set(failures.map((f) => f.message))].join(' ');
  } else {
    status.dataset.seconds = String(seconds);
    status.dataset.workers = String(workers);
    status.textContent = `Done: ${jobs.length} jobs (${seeds.length * 2 * RACE_SCHEMES.length} runs of ${RACE_SCHEMES.length} schemes × ${seeds.length} seeds × 2 tasks) in ${seconds.toFixed(1)} s on ${workers} worker${workers === 1 ? '' : 's'}.`;
    status.dataset.state = 'done';
  }
}

function stopRace() {
  pool?.stop();
}

export function init() {
  panels = {
    loss: makePanels($('beyond-race-loss'), 'loss'),
    passkey: makePanels($('beyond-race-heatmaps'), 'passkey'),
  };
  $('beyond-race-start').addEventListener('click', startRace);
  $('beyond-race-stop').addEventListener('click', stopRace);
  for (const [id, name] of [
    ['beyond-race-steps', 'Steps per run'],
    ['beyond-race-fine-tune', 'Fine-tuning steps'],
    ['beyond-race-seeds', 'Seeds'],
  ]) {
    checkOnChange(id, name);
  }
  $('beyond-race-setup').textContent = setupText(
    {
      ...RACE_OPTIONS,
      steps: Number($('beyond-race-steps').value),
      fineTuneSteps: Number($('beyond-race-fine-tune').value),
    },
    Array.from({ length: Number($('beyond-race-seeds').value) }, (_, i) => i),
    workerCount(),
  );
  const observer = new ResizeObserver(() =>
    requestAnimationFrame(() => shown && drawRace(panels, shown.runs, shown.options)),
  );
  observer.observe($('beyond-race-loss'));
  observer.observe($('beyond-race-heatmaps'));
}
