// Section 5: learned positions trained in a worker (heatmap and PCA per snapshot); GPT-2's wpe from a file.
import { drawHeatmap, reserveHeatmap } from '../draw/grids.js';
import { $, redrawOnResize } from '../ui/dom.js';
import { divergenceMessage } from '../training/divergence.js';
import { TrainingRow } from '../workers/jobs_client.js';
import { CORPUS, MODEL_DEFAULTS } from '../training/training.js';
import { checkOnChange, readNumberInput } from '../ui/number_input.js';
import { FramePainter } from '../ui/frame_painter.js';
import { fixed3, grouped } from '../ui/format.js';
import { whenNear } from '../ui/near.js';
import { drawLines, drawScatter, PALETTE, reserveScatter } from '../draw/plot.js';
import { maxAbs, meanCosineAt, meanCosineByOffset, megabytes, rampColour, totalVariance } from './learned_tables.js';

const WPE_LEGEND = 'The same scale for every snapshot: ± the largest |value| in any of them.';
let ctx;
let row; // the training row: progress, status and error
let painter; // paints the run's progress and snapshots (paintRun)
let snapshots = [];
let losses = [];

function drawSnapshot() {
  const index = Number($('learned-snap').value);
  const snap = snapshots[index];
  if (!snap?.wpe) {
    return;
  }
  const T = 16;
  const C = snap.wpe.length / T;
  // One colour scale for every snapshot (the largest |value| of any), so the table's growth shows as colour.
  const range = Math.max(...snapshots.map((s) => maxAbs(s.wpe)));
  drawHeatmap($('learned-heatmap'), {
    values: snap.wpe,
    rows: T,
    cols: C,
    range,
    colTitle: 'channel',
    legend: WPE_LEGEND,
  });
  const { projections } = ctx.lab.principalComponents(snap.wpe, T, C);
  drawScatter(
    $('learned-pca'),
    Array.from({ length: T }, (_, i) => ({
      x: projections[2 * i],
      y: projections[2 * i + 1],
      label: String(i),
      name: `position ${i}`,
      colour: rampColour(i / (T - 1)),
    })),
    { path: true },
  );
  const byOffset = meanCosineByOffset(ctx.lab, snap.wpe, T, C);
  drawLines($('learned-offsets'), [{ values: byOffset, colour: PALETTE[0] }], {
    x0: 1,
    yMin: -1,
    yMax: 1,
    xLabel: 'offset |i − j|',
  });
  const [near] = byOffset;
  const far = byOffset[7];
  const highest = byOffset.indexOf(Math.max(...byOffset)) + 1;
  $('learned-snap-out').textContent = `step ${snap.step}`;
  const note = $('learned-pca-note');
  note.textContent =
    `Mean cosine of rows |i − j| apart, for |i − j| = 1…${T - 1}: ${byOffset.map((c) => c.toFixed(2).replace('-', '−')).join(', ')} ` +
    `(highest at ${highest === 1 ? 'neighbours, 1 apart' : `${highest} apart, not at neighbours`}). ` +
    `Colour and labels run from 0 (blue) to ${T - 1} (orange); the grey line joins them in order. Heatmap colour range ±${range.toFixed(3)}, fixed across snapshots.`;
  note.dataset.near = String(near);
  note.dataset.far = String(far);
  note.dataset.offsets = byOffset.join(' ');
  note.dataset.step = String(snap.step);
  showNorms(snap.wpe, T, C, snap.step);
}

/** Row groups the prose talks about (for T = 16): the first rows, the middle, 12–13, and rows 14 and 15 apart. */
export const ROW_GROUPS = [
  [0, 3],
  [3, 12],
  [12, 14],
  [14, 15],
  [15, 16],
];

/** Length of each wpe row, the mean per group, and the share of the spread the two PCA axes keep. */
function showNorms(wpe, T, C, step) {
  const norms = Array.from({ length: T }, (_, i) => ctx.lab.kernels.norm(wpe.subarray(i * C, (i + 1) * C)));
  const mean = ([a, b]) => norms.slice(a, b).reduce((x, y) => x + y, 0) / (b - a);
  const { variances } = ctx.lab.principalComponents(wpe, T, C, { count: Math.min(T, C) });
  const total = variances.reduce((x, y) => x + y, 0);
  const share = total > 0 ? (variances[0] + variances[1]) / total : 0;
  const groups = ROW_GROUPS.map(([a, b]) => `${b - a === 1 ? a : `${a}–${b - 1}`}: ${fixed3(mean([a, b]))}`).join(
    ' · ',
  );
  const out = $('learned-norms');
  out.textContent = `Row lengths ‖wpe[p]‖ at step ${step}, p = 0…${T - 1}: ${norms.map(fixed3).join(', ')}. Mean by rows: ${groups}. The two PCA axes keep ${(100 * share).toFixed(0)}% of the spread.`;
  out.dataset.norms = norms.join(' ');
  out.dataset.share = String(share);
  out.dataset.step = String(step);
}

function drawLoss() {
  drawLines($('learned-loss'), [{ values: losses, colour: PALETTE[0] }], { xLabel: 'step', x0: 1 });
}

let progress = null; // the run's latest progress message, not shown yet
let newSnapshots = false; // snapshots came that the slider does not offer yet

/** Shows the run's latest progress and snapshot (FramePainter: once a frame, while the section is near the screen). */
function paintRun() {
  if (progress) {
    row.progress.value = progress.step / progress.steps;
    row.status.textContent = `step ${progress.step} of ${progress.steps}, loss ${progress.loss.toFixed(3)}`;
    progress = null;
    drawLoss();
  }
  if (newSnapshots) {
    const slider = $('learned-snap');
    showSnapshots(Number(slider.value) === Number(slider.max));
    newSnapshots = false;
  }
}

/** Shows the snapshots in the slider (following the newest when the slider was at the end). */
function showSnapshots(follow) {
  const slider = $('learned-snap');
  slider.max = String(Math.max(0, snapshots.length - 1));
  if (follow) {
    slider.value = slider.max;
  }
  drawSnapshot();
}

/**
 * Trains with the row's steps, seed and learning rate. A run whose loss diverges keeps the snapshots before
 * it (its model rolls back to the last); a run that fails puts back the previous run's snapshots and losses.
 */
async function train() {
  const steps = readNumberInput('learned-steps', 'Steps');
  const seed = readNumberInput('learned-seed', 'Seed');
  const learningRate = readNumberInput('learned-rate', 'Learning rate');
  if (steps === null || seed === null || learningRate === null) {
    return;
  }
  const cfg = MODEL_DEFAULTS;
  const settingsLine = $('learned-settings');
  const keptSettings = settingsLine.textContent; // a failed run puts back the previous run's line with its figures
  settingsLine.textContent =
    `This run: the tiny GPT with ${cfg.layers} layers, ${cfg.heads} heads, ${cfg.channels} channels and ${cfg.contextLength} ` +
    `positions (causal), trained on windows of ${cfg.contextLength} tokens, ${cfg.batch} per step, from ` +
    `${grouped(CORPUS.train.count)} generated “who did what to whom” sentences in r50k_base; AdamW at learning rate ` +
    `${learningRate}, weight decay ${ctx.lab.modelDefaults.optimizer.weightDecay} on wte, wpe and the weight matrices ` +
    `(not on biases or LayerNorms), seed ${seed}, ${steps} steps.`;
  const kept = { snapshots, losses };
  snapshots = [];
  losses = [];
  const every = Math.max(1, Math.floor(steps / 20));
  const params = { encoding: 'r50k_base', positions: 'learned', steps, every, options: { seed, learningRate } };
  const done = await row.run('train', params, (m) => {
    if (m.kind === 'progress') {
      progress = m;
      losses.push(m.loss);
      painter.request();
    } else if (m.kind === 'snapshot') {
      snapshots.push(m);
      newSnapshots = true;
      painter.request();
    }
  });
  painter.flush();
  if (!done) {
    if (row.status.dataset.state === 'error') {
      ({ snapshots, losses } = kept);
      settingsLine.textContent = keptSettings;
      showSnapshots(true);
      drawLoss();
      row.error.textContent += ' The section shows the previous run again.';
    }
    return;
  }
  drawLoss();
  if (done.diverged) {
    showSnapshots(true);
    row.diverged(
      `Diverged at step ${done.diverged.step}; rolled back to step ${done.diverged.rolledBackTo}.`,
      divergenceMessage(done.diverged, learningRate),
    );
    return;
  }
  row.done(
    `Trained ${steps} steps (seed ${seed}); loss ${losses.at(-1).toFixed(3)}. Drag the snapshot slider to replay.`,
    {
      seed: String(seed),
    },
  );
}

/** The file's wpe tensor ({info, wpe}): only the header and that tensor are read. */
async function readPositionTable(file) {
  const st = await ctx.lab.readSafetensors(file);
  try {
    const info = st.tensors.find((t) => /(^|\.)wpe(\.weight)?$/.test(t.name));
    if (!info) {
      const names = st.tensors.slice(0, 5).map((t) => t.name);
      throw new Error(`no wpe tensor in this file (it has ${st.tensors.length} tensors: ${names.join(', ')}…)`);
    }
    if (info.shape.length !== 2 || info.shape[0] < 2 || info.shape[1] < 2) {
      throw new RangeError(
        `${info.name} has shape [${info.shape.join(', ')}]; a position table is positions × channels, at least 2 × 2`,
      );
    }
    return { info, wpe: await st.get(info.name) };
  } finally {
    st.dispose();
  }
}

async function readGpt2(file) {
  const status = $('learned-gpt2-status');
  status.dataset.state = 'running';
  status.textContent = `Reading the header of ${file.name}…`;
  try {
    const { info, wpe } = await readPositionTable(file);
    const [rows, cols] = info.shape;
    const bad = wpe.findIndex((x) => !Number.isFinite(x));
    if (bad >= 0) {
      throw new RangeError(
        `${info.name} holds ${wpe[bad]} at position ${Math.floor(bad / cols)}, channel ${bad % cols}: a table with non-finite values cannot be drawn`,
      );
    }
    const R = Math.min(rows, 128);
    const Cc = Math.min(cols, 128);
    const part = new Float32Array(R * Cc);
    for (let r = 0; r < R; r++) {
      part.set(wpe.subarray(r * cols, r * cols + Cc), r * Cc);
    }
    $('learned-gpt2-figures').hidden = false;
    const clip = Math.min(maxAbs(part), 0.2);
    drawHeatmap($('learned-gpt2-heatmap'), {
      values: part,
      rows: R,
      cols: Cc,
      range: clip,
      colTitle: 'channel',
      legend: clip < maxAbs(part) ? `Values beyond ±${clip} show at full colour.` : '',
    });
    // PCA on every 4th position (enough to see the curve).
    const step = rows > 256 ? 4 : 1;
    const picked = [];
    for (let r = 0; r < rows; r += step) {
      picked.push(r);
    }
    const sub = new Float32Array(picked.length * cols);
    picked.forEach((r, i) => sub.set(wpe.subarray(r * cols, (r + 1) * cols), i * cols));
    const { projections } = ctx.lab.principalComponents(sub, picked.length, cols);
    drawScatter(
      $('learned-gpt2-pca'),
      picked.map((position, i) => ({
        x: projections[2 * i],
        y: projections[2 * i + 1],
        label: position % 128 === 0 ? String(position) : '',
        name: `position ${position}`,
        colour: rampColour(position / (rows - 1)),
      })),
      { radius: 2.5 },
    );
    const { variances } = ctx.lab.principalComponents(sub, picked.length, cols, { count: Math.min(2, cols) });
    const share = (variances[0] + (variances[1] ?? 0)) / totalVariance(sub, picked.length, cols);
    const offsets = [...new Set([1, 8, 64, Math.floor(rows / 2)])].filter((k) => k < rows).sort((a, b) => a - b);
    const cosines = offsets.map((k) => meanCosineAt(ctx.lab, wpe, rows, cols, k));
    status.dataset.state = 'done';
    status.dataset.shape = `${rows}x${cols}`;
    status.dataset.first = String(wpe[0]);
    status.dataset.share = String(share);
    status.dataset.cosines = cosines.join(' ');
    const plotted = step > 1 ? `the ${picked.length} positions plotted (every ${step}th)` : `the ${rows} positions`;
    status.textContent =
      `Read ${info.name}: ${rows} positions × ${cols} channels, ${info.dtype}, ${megabytes(info.byteLength)} of a ${megabytes(file.size)} file; wpe[0][0] = ${wpe[0].toFixed(4)}. ` +
      `Mean cosine of positions ${offsets.map((k, i) => `${k} apart: ${cosines[i].toFixed(3)}`).join('; ')}. ` +
      `The two PCA axes keep ${(100 * share).toFixed(0)}% of the spread of ${plotted}.`;
  } catch (error) {
    status.dataset.state = 'error';
    status.textContent = `Could not read the position table of ${file.name}: ${error.message}.${$('learned-gpt2-figures').hidden ? '' : ' The figures below are still those of the last file read.'}`;
  }
}

export function init(context) {
  ctx = context;
  row = new TrainingRow('learned');
  painter = new FramePainter(paintRun, $('learned'));
  // Readout and legend exist before the first snapshot arrives: the page does not move when it does.
  reserveHeatmap($('learned-heatmap'), { legend: WPE_LEGEND });
  reserveScatter($('learned-pca'));
  $('learned-train').addEventListener('click', train);
  checkOnChange('learned-steps', 'Steps');
  checkOnChange('learned-seed', 'Seed');
  checkOnChange('learned-rate', 'Learning rate');
  $('learned-snap').addEventListener('input', drawSnapshot);
  $('learned-gpt2-file').addEventListener('change', (e) => e.target.files[0] && readGpt2(e.target.files[0]));
  redrawOnResize('learned', () => {
    drawSnapshot();
    drawLoss();
  });
  // The first run starts when the reader comes within a window's height of the section, not at load: the page's
  // first numbers come sooner on two cores, and a reader who never scrolls here starts no training.
  row.status.dataset.state = 'waiting';
  row.status.textContent = 'Trains when you scroll here.';
  whenNear($('learned'), '100% 0px').then(() => row.status.dataset.state === 'waiting' && train());
}
