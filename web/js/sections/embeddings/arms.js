// Section 2, "pretrained or trained jointly": the four arms of training/word_vector_arms.js on the Brown excerpt, in
// jobs workers (one for the corpus and its BPE, then one per seed, two at a time); validation curves with bands over
// seeds, the final losses and gaps, the sentences they support, and each arm's nearest neighbours.
import { $, redrawOnResize } from '../../ui/dom.js';
import { readNumberInput } from '../../ui/number_input.js';
import { visibleWhitespace } from '../../ui/format.js';
import { whenNear } from '../../ui/near.js';
import { runJob } from '../../workers/jobs_client.js';
import { drawBandLines } from '../../draw/band_plot.js';
import { PALETTE } from '../../draw/plot.js';
import {
  ARM_GROUPS,
  ARM_NAMES,
  ARM_SHORT_NAMES,
  ARMS,
  ARMS_SETUP,
  evalSteps,
  nearestTokens,
  probeTokens,
  summariseArms,
} from '../../training/word_vector_arms.js';
import { armsSetupText, armsVerdict, rangeText, signed } from './arms_text.js';

export const ARMS_CORPUS_URL = 'corpus/brown-excerpt.txt';
const STYLE = {
  joint: { colour: PALETTE[0] },
  gloveFrozen: { colour: PALETTE[1], dash: [6, 4] },
  gloveTuned: { colour: PALETTE[2] },
  randomFrozen: { colour: PALETTE[4], dash: [2, 3] },
};

let ctx;
let data = null; // the corpus job's result, kept for later runs
let current = null; // {jobs: Set, steps, seeds, rowNorm, reads: {seed → {arm → [valid at eval k]}}}
let shown = null; // the last finished run: {summary, runs, settings}
let started = false;

/** Mean, min and max over the seeds that have reached each validation read, stretched to one value per step. */
function bands(reads, steps) {
  const at = evalSteps(steps);
  return ARMS.map((arm) => {
    const points = [];
    for (let k = 0; k < at.length; k++) {
      const values = Object.values(reads)
        .map((bySeed) => bySeed[arm]?.[k])
        .filter((v) => v !== undefined);
      if (values.length === 0) {
        break;
      }
      points.push({
        mean: values.reduce((a, b) => a + b, 0) / values.length,
        min: Math.min(...values),
        max: Math.max(...values),
      });
    }
    if (points.length === 0) {
      return null;
    }
    const series = { mean: [], min: [], max: [], ...STYLE[arm] };
    for (let k = 0; k + 1 < points.length; k++) {
      for (let s = at[k]; s < at[k + 1]; s++) {
        const t = (s - at[k]) / (at[k + 1] - at[k]);
        for (const key of ['mean', 'min', 'max']) {
          series[key].push(points[k][key] + t * (points[k + 1][key] - points[k][key]));
        }
      }
    }
    for (const key of ['mean', 'min', 'max']) {
      series[key].push(points.at(-1)[key]);
    }
    return series;
  });
}

function drawCurves() {
  const run = current ?? shown?.settings;
  if (!run) {
    return;
  }
  const series = bands(run.reads, run.steps);
  const present = series.filter(Boolean);
  if (present.length === 0) {
    return;
  }
  const all = present.flatMap((s) => [...s.min, ...s.max]);
  const ceiling = Math.log(data.vocabSize) + 0.5; // a start above chance would squash the rest
  const yMin = Math.floor(Math.min(...all) * 10) / 10 - 0.1;
  const yMax = Math.min(ceiling, Math.ceil(Math.max(...all) * 10) / 10);
  drawBandLines($('embeddings-arms-loss'), series, {
    yMin,
    yMax,
    length: run.steps + 1,
    xLabel: 'step',
    marks: [{ x: Math.round(run.steps / 2), label: String(Math.round(run.steps / 2)) }],
  });
}

let drawQueued = false;
const queueDraw = () => {
  if (!drawQueued) {
    drawQueued = true;
    requestAnimationFrame(() => {
      drawQueued = false;
      drawCurves();
    });
  }
};

/** One arm's row: its line's key and name, then its loss and gap from `summary`, or '…' before the first run ends. */
function armRow(arm, summary) {
  const tr = document.createElement('tr');
  tr.dataset.arm = arm;
  const name = document.createElement('th');
  name.scope = 'row';
  const key = document.createElement('span');
  key.className = `line-key ${arm}`;
  key.setAttribute('aria-hidden', 'true');
  name.append(key, ` ${ARM_SHORT_NAMES[arm]}`);
  name.title = ARM_NAMES[arm];
  tr.append(name);
  if (!summary) {
    tr.insertCell().textContent = '…';
    tr.insertCell().textContent = '…';
    return tr;
  }
  const { valid } = summary.arms[arm];
  const gap = summary.gaps[arm];
  tr.dataset.valid = valid.values.map(String).join(' ');
  tr.dataset.gap = gap.values.map(String).join(' ');
  tr.insertCell().textContent = rangeText(valid, (v) => v.toFixed(3));
  tr.insertCell().textContent = arm === 'joint' ? '—' : rangeText(gap, signed);
  return tr;
}

function showResults(summary, runs, settings) {
  $('embeddings-arms-rows').replaceChildren(...ARMS.map((arm) => armRow(arm, summary)));
  $('embeddings-arms-verdict').textContent = armsVerdict(summary, settings);
  showNeighbours(runs[0], settings);
}

/** The probe tokens' nearest three in each arm's final table (the first seed's run). */
function showNeighbours(run, settings) {
  const probes = probeTokens(data);
  const rows = [...probes.frequent, ...probes.rare].map((id) => {
    const tr = document.createElement('tr');
    tr.dataset.token = String(id);
    const head = document.createElement('th');
    head.scope = 'row';
    head.textContent = `${visibleWhitespace(data.labels[id])} (${data.counts[id]})`;
    tr.append(head);
    for (const arm of ARMS) {
      const near = nearestTokens(ctx.lab, data, run.arms[arm].wte, id);
      const cell = tr.insertCell();
      cell.dataset.arm = arm;
      cell.dataset.ids = near.map((n) => n.id).join(' ');
      cell.textContent = near.map((n) => `${visibleWhitespace(n.label)} ${n.cosine.toFixed(2)}`).join(' · ');
    }
    return tr;
  });
  $('embeddings-arms-neighbours').replaceChildren(...rows);
  $('embeddings-arms-neighbours-seed').textContent = `seed ${run.seed}, after ${settings.steps} steps`;
}

function stop() {
  for (const job of current?.jobs ?? []) {
    job.cancel();
  }
  current = null;
}

function job(type, params, onMessage) {
  const handle = runJob(type, params, onMessage);
  current.jobs.add(handle);
  return handle.done;
}

/** Runs the experiment with the section's inputs; a run started while one is going replaces it. */
export async function runArms() {
  started = true;
  const steps = readNumberInput('embeddings-frozen-steps', 'Steps per arm');
  const seedCount = readNumberInput('embeddings-frozen-seeds', 'Seeds');
  if (steps === null || seedCount === null) {
    return;
  }
  const rowNorm = Number($('embeddings-arms-norm').value);
  stop();
  const seeds = Array.from({ length: seedCount }, (_, i) => i + 1);
  const run = { jobs: new Set(), steps, seeds, rowNorm, reads: {} };
  current = run;
  const status = $('embeddings-frozen-status');
  const progress = $('embeddings-frozen-progress');
  status.dataset.state = 'running';
  $('embeddings-frozen-error').textContent = '';
  progress.value = 0;
  const t0 = performance.now();
  try {
    if (!data) {
      status.textContent = 'Training the BPE on the training documents…';
      const url = new URL(ARMS_CORPUS_URL, document.baseURI).href;
      data = (await job('armsCorpus', { url })).data;
    }
    if (current !== run) {
      return;
    }
    const done = new Map(); // `${seed} ${arm}` → steps done
    const report = () => {
      const total = [...done.values()].reduce((a, b) => a + b, 0);
      progress.value = total / (4 * steps * seeds.length);
      status.textContent = `Running ${seeds.length} seed${seeds.length === 1 ? '' : 's'} × 4 arms: ${Math.round(100 * progress.value)}%…`;
    };
    const onMessage = ({ seed, arm, step, valid }) => {
      if (current !== run || arm === undefined) {
        return;
      }
      done.set(`${seed} ${arm}`, step);
      if (valid !== undefined) {
        const bySeed = (run.reads[seed] ??= {});
        (bySeed[arm] ??= []).push(valid);
        queueDraw();
      }
      report();
    };
    // One job per seed and group of arms (ARM_GROUPS: those that share a start), on two workers at most.
    const queue = seeds.flatMap((seed) => ARM_GROUPS.map((arms) => ({ seed, arms })));
    const workers = Math.min(queue.length, Math.max(1, Math.min(2, navigator.hardwareConcurrency || 2)));
    const bySeed = new Map(seeds.map((seed) => [seed, { seed, arms: {} }]));
    await Promise.all(
      Array.from({ length: workers }, async () => {
        while (queue.length > 0 && current === run) {
          const { seed, arms } = queue.shift();
          const { run: result } = await job('armsSeed', { data, seed, steps, rowNorm, arms }, onMessage);
          Object.assign(bySeed.get(seed).arms, result.arms);
        }
      }),
    );
    if (current !== run) {
      return;
    }
    const runs = [...bySeed.values()];
    const summary = summariseArms(runs);
    shown = { summary, runs, settings: { steps, seeds, rowNorm, reads: run.reads } };
    current = null;
    drawCurves();
    showResults(summary, runs, { steps, rowNorm });
    const seconds = ((performance.now() - t0) / 1000).toFixed(1);
    status.textContent = `Done in ${seconds} s (${workers} worker${workers === 1 ? '' : 's'}): ${armsSetupText({ steps, seeds, rowNorm, data, setup: ARMS_SETUP })}`;
    Object.assign(status.dataset, { steps: String(steps), seeds: seeds.join(' '), rowNorm: String(rowNorm) });
    status.dataset.state = 'done';
    progress.value = 1;
  } catch (error) {
    if (current === run) {
      stop();
      status.dataset.state = 'error';
      status.textContent = 'The experiment stopped.';
      $('embeddings-frozen-error').textContent = error.message;
    }
  }
}

/**
 * Wires the controls; the experiment starts when its figure comes near the window and `later` has resolved (the
 * page's own first results are in), or on a click.
 */
export function initArms(context, later) {
  ctx = context;
  // Rows of '…' until the first run ends, so that its numbers move nothing; the arms' keys show from the start, for
  // the curves drawn while it runs.
  const placeholders = (count, cells) =>
    Array.from({ length: count }, () => {
      const tr = document.createElement('tr');
      for (let i = 0; i < cells; i++) {
        tr.insertCell().textContent = '…';
      }
      return tr;
    });
  $('embeddings-arms-rows').replaceChildren(...ARMS.map((arm) => armRow(arm)));
  $('embeddings-arms-neighbours').replaceChildren(...placeholders(6, 5));
  $('embeddings-frozen-train').addEventListener('click', runArms);
  redrawOnResize('embeddings', drawCurves);
  // A reader who never comes near the figure costs no training (some 40 s of CPU on two workers).
  Promise.all([whenNear($('embeddings-arms-figure'), '600px 0px'), later]).then(() => {
    if (!started) {
      runArms();
    }
  });
}
