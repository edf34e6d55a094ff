// Section 7's extrapolation race: the library's long-context experiment (passkey and Brown-corpus language task,
// every scheme, several seeds) split into independent jobs that run in parallel Web Workers, one progress bar each.
// When the reader comes near the race (and the page is ready) a small race (one seed, few steps) runs by itself, so
// the panels show a race before the reader asks for the full one.
import { $ } from '../../ui/dom.js';
import { whenNear } from '../../ui/near.js';
import { checkOnChange, readNumberInput } from '../../ui/number_input.js';
import { drawRace, makePanels } from '../../race/figures.js';
import { raceWorkerCount, WorkerPool } from '../../race/pool.js';
import {
  LOSS_MARGIN,
  NTK_WIDE,
  passkeyMargin,
  RACE_CORPUS,
  RACE_EVAL_ROWS,
  RACE_OPTIONS,
  RACE_ROPE_BASE,
  RACE_SCHEMES,
  raceJobs,
  raceSeeds,
  SCHEME_NAMES,
  SMALL_RACE,
  taskOptions,
  VERDICT_SEEDS,
  wideRun,
} from '../../race/plan.js';
import { paintRows, runItem, showProgress } from './race_progress.js';

const WORKER_URL = new URL('../../race/worker.js', import.meta.url);
const PAINT_INTERVAL = 500; // ms between progress paints
let pool = null;
let panels = null;
let shown = null; // {runs, options} of the latest race, redrawn on resize
let libraryDefaults = null; // lab.longContextDefaults: what the runs take from the library (weight decay)

/** Workers for the race: ?raceWorkers=N (1–16, the benchmark's 1-worker run), else every core up to 8. */
function workerCount() {
  const asked = Number(new URLSearchParams(self.location.search).get('raceWorkers'));
  return Number.isInteger(asked) && asked >= 1 && asked <= 16 ? asked : raceWorkerCount();
}

const seedsText = (seeds) =>
  seeds.length === 1 ? `seed ${seeds[0]}` : `seeds ${seeds[0]}–${seeds.at(-1)} (${seeds.length})`;

/**
 * The settings every figure of the race was computed with, in one line: options (plan.js's, with steps and
 * fineTuneSteps), seeds, and the library's defaults for what the race leaves to them (lab.longContextDefaults).
 */
export function settingsText(options, seeds, defaults) {
  const T = options.trainLength;
  const longer = options.factors.slice(1).map((f) => f * T);
  const chance = 100 / 10 ** options.digits; // every digit guessed uniformly among the ten
  return `d = ${options.channels} (${options.heads} heads of d_head = ${options.channels / options.heads}), ${options.layers} layers, RoPE base ${RACE_ROPE_BASE}; trained at T = ${T} for ${options.steps} steps of batch ${options.batch} (AdamW, learning rate ${options.learningRate}, weight decay ${defaults.weightDecay}), read at ${longer.join(' and ')} (L = ${longer.at(-1)}), fine-tuned ${options.fineTuneSteps} steps at each (learning rate ${options.fineTuneLearningRate}); ${seedsText(seeds)}; passkeys of ${options.digits} digits (chance ${chance} %), ${RACE_EVAL_ROWS.passkey} per depth × length cell, depths ${options.depths.join(', ')}; ${RACE_EVAL_ROWS.language} held-out windows per reading.`;
}

function setupText(workers, small) {
  const where = `${workers} worker${workers === 1 ? '' : 's'} (navigator.hardwareConcurrency = ${navigator.hardwareConcurrency ?? 'unknown'})`;
  return small
    ? `What follows is a small race, run by itself as you came near this section (${where}): its models are undertrained, so it shows numbers and no verdicts (“Run the full race”, with the steps and seeds set above, for those). Its settings:`
    : `The full race, ${where}; docs/long-contexts.md has a larger native run (T = 64, read up to 8T, 64 channels, 1500 steps). Its settings:`;
}

/** How a comparison becomes a verdict (claims.js), or why a race of `seedCount` seeds has none. */
export function verdictRule(seedCount) {
  const passkeys = RACE_EVAL_ROWS.passkey * RACE_OPTIONS.depths.length;
  return seedCount < VERDICT_SEEDS
    ? `No verdicts: ${seedCount === 1 ? 'one seed' : `${seedCount} seeds`} of a small race, too undertrained for verdicts (and a verdict needs at least ${VERDICT_SEEDS} seeds). Run the full race for them.`
    : `A comparison holds for a seed only past a margin: ${LOSS_MARGIN} nats of loss (the text of one position range is harder than another’s, for every scheme alike), or ${Math.round(100 * passkeyMargin(passkeys))} points of passkey accuracy (two standard errors of a difference of two shares of ${passkeys} passkeys). A smaller difference is “within noise”.`;
}

/**
 * The full race's wall time, bounded from the small race's: its runs are `seeds` times as many, each training
 * `steps / SMALL_RACE.steps` times as long, so it takes between runsFactor× (if training took none of the small
 * race's time) and runsFactor·stepsFactor× (if it took all of it).
 */
function fullRaceEstimate(smallSeconds, workers) {
  const steps = Number($('beyond-race-steps').defaultValue);
  const seeds = Number($('beyond-race-seeds').defaultValue);
  const runsFactor = seeds / SMALL_RACE.seedCount;
  const stepsFactor = steps / SMALL_RACE.steps;
  const minutes = (factor) => Math.max(1, Math.round((factor * smallSeconds) / 60));
  return `The full race (${seeds} seeds, ${steps} steps) runs on a click. The small race took ${smallSeconds.toFixed(0)} s on ${workers} worker${workers === 1 ? '' : 's'}; the full one has ${runsFactor}× its runs, each training ${stepsFactor}× the steps, so expect between about ${minutes(runsFactor)} and ${minutes(runsFactor * stepsFactor)} min here (${runsFactor}× to ${runsFactor * stepsFactor}× the small race’s time, by the share of it spent training).`;
}

/** Runs a race: {steps, fineTuneSteps, seeds, small}; the small one reports in its own status. */
async function runRace({ steps, fineTuneSteps, seeds, small }) {
  pool?.stop();
  const workers = workerCount();
  const myPool = new WorkerPool(WORKER_URL, workers);
  pool = myPool;
  const base = { ...RACE_OPTIONS, steps, fineTuneSteps };
  const L = base.trainLength * base.factors.at(-1);
  const status = $(small ? 'beyond-race-small-status' : 'beyond-race-status');
  const overall = $('beyond-race-progress');
  const error = $('beyond-race-error');
  status.dataset.state = 'running';
  status.dataset.options = JSON.stringify({ ...base, evalRows: RACE_EVAL_ROWS, seeds, corpus: RACE_CORPUS });
  error.textContent = '';
  $('beyond-race-which').textContent = setupText(workers, small);
  $('beyond-race-settings').textContent = settingsText(base, seeds, libraryDefaults);
  $('beyond-race-verdict-rule').textContent = verdictRule(seeds.length);
  $('beyond-race').dataset.race = small ? 'small' : 'full';
  $('beyond-race-stop').disabled = false;
  if (!small) {
    $('beyond-race-start').textContent = 'Run the full race again';
  }

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
  // the main thread, which on a 2-core machine takes its time from the workers.
  let paintTimer = 0;
  const paint = () => {
    paintTimer = 0;
    if (pool !== myPool) {
      return;
    }
    paintRows(jobs);
    overall.value = jobs.reduce((sum, j) => sum + j.item.fraction, 0) / jobs.length;
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    status.textContent = `${small ? 'Small race running' : 'Running'}: ${finished} of ${jobs.length} jobs done on ${workers} worker${workers === 1 ? '' : 's'}, ${seconds} s.`;
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
          if (m.kind === 'progress' && pool === myPool) {
            showProgress(job, m, steps);
            update();
          }
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
    for (const run of result.wide ? [...result.runs, wideRun(result.wide, L)] : result.runs) {
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
    const wideOptions = job.schemes.includes(NTK_WIDE) ? taskOptions(job.task, base, true) : null;
    if (job.task === 'language') {
      const { ids, vocabSize } = await corpus;
      Object.assign(options, { corpus: ids, vocabSize });
      Object.assign(wideOptions ?? {}, { corpus: ids, vocabSize });
    }
    collect(job, await runJob(job, { options, schemes: job.schemes, seed: job.seed, wideOptions }));
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
    const schemes = RACE_SCHEMES.length;
    status.textContent = `${small ? 'Small race done' : 'Done'}: ${jobs.length} jobs (${schemes} schemes × ${seeds.length} seed${seeds.length === 1 ? '' : 's'}, both tasks; NTK at 2L/T for language only) in ${seconds.toFixed(1)} s on ${workers} worker${workers === 1 ? '' : 's'}.`;
    status.dataset.state = 'done';
    const full = $('beyond-race-status');
    if (small && full.dataset.state === 'idle') {
      full.textContent = fullRaceEstimate(seconds, workers);
    }
  }
}

function startFullRace() {
  const steps = readNumberInput('beyond-race-steps', 'Steps per run');
  const fineTuneSteps = readNumberInput('beyond-race-fine-tune', 'Fine-tuning steps');
  const firstSeed = readNumberInput('beyond-race-first-seed', 'First seed');
  const seedCount = readNumberInput('beyond-race-seeds', 'Seeds');
  if (steps === null || fineTuneSteps === null || firstSeed === null || seedCount === null) {
    return;
  }
  const small = $('beyond-race-small-status');
  if (small.dataset.state === 'running') {
    small.dataset.state = 'stopped';
    small.textContent = 'The small race gave way to the full race.';
  }
  runRace({ steps, fineTuneSteps, seeds: raceSeeds(firstSeed, seedCount), small: false });
}

/** The small race, unless the reader started the full one first. */
function startSmallRace() {
  if (pool) {
    return;
  }
  const { steps, fineTuneSteps, firstSeed, seedCount } = SMALL_RACE;
  runRace({ steps, fineTuneSteps, seeds: raceSeeds(firstSeed, seedCount), small: true });
}

// Any other section training or computing in a worker: its status says 'running', or its results are busy.
const BUSY = 'main > section:not(#beyond) [data-state="running"], [aria-busy="true"]';

/**
 * Calls `start` once the page says it is ready (every section's first numbers shown) and the jobs that start with
 * it are done, when the browser is idle: the small race then takes no time from the page's own first results, and
 * moves nothing while they come in.
 */
function afterPageIsIdle(start) {
  const later = () =>
    self.requestIdleCallback ? requestIdleCallback(start, { timeout: 2000 }) : setTimeout(start, 500);
  const check = () => {
    if ($('main').dataset.state === 'ready' && document.querySelector(BUSY) === null) {
      later();
    } else {
      setTimeout(check, 500);
    }
  };
  check();
}

function stopRace() {
  pool?.stop();
}

/** Starts the race's controls and its small race; lab: the page's library (its defaults are stated). */
export function init(lab) {
  libraryDefaults = lab.longContextDefaults;
  panels = {
    loss: makePanels($('beyond-race-loss'), 'loss'),
    passkey: makePanels($('beyond-race-heatmaps'), 'passkey'),
  };
  $('beyond-race-start').addEventListener('click', startFullRace);
  $('beyond-race-stop').addEventListener('click', stopRace);
  for (const [id, name] of [
    ['beyond-race-steps', 'Steps per run'],
    ['beyond-race-fine-tune', 'Fine-tuning steps'],
    ['beyond-race-first-seed', 'First seed'],
    ['beyond-race-seeds', 'Seeds'],
  ]) {
    checkOnChange(id, name);
  }
  const observer = new ResizeObserver(() =>
    requestAnimationFrame(() => shown && drawRace(panels, shown.runs, shown.options)),
  );
  observer.observe($('beyond-race-loss'));
  observer.observe($('beyond-race-heatmaps'));
  // What the small race will say when it starts, said now: its start then moves nothing on the page.
  const { steps, fineTuneSteps, firstSeed, seedCount } = SMALL_RACE;
  const seeds = raceSeeds(firstSeed, seedCount);
  const settings = settingsText({ ...RACE_OPTIONS, steps, fineTuneSteps }, seeds, libraryDefaults);
  $('beyond-race-which').textContent = setupText(workerCount(), true);
  $('beyond-race-settings').textContent = settings;
  $('beyond-race-verdict-rule').textContent = verdictRule(seeds.length);
  // Not before the reader comes within a window's height of the panels: a reader who never scrolls here costs no
  // training (some 35 s of CPU on two workers).
  if (new URLSearchParams(self.location.search).get('smallRace') !== 'off') {
    whenNear($('beyond-race-loss'), '100% 0px').then(() => afterPageIsIdle(startSmallRace));
  }
}
