// Section 7's race, drawn: per scheme a loss-by-position panel (language) and a depth × length heatmap (passkey),
// the two tables behind them and the claims. Each figure carries the numbers it draws in data attributes.
import { drawBandLines } from '../draw/band_plot.js';
import { drawMatrix } from '../draw/grids.js';
import { sequentialScale } from '../draw/colour.js';
import { theme } from '../draw/canvas.js';
import { $, headerCell } from '../ui/dom.js';
import { PALETTE } from '../draw/plot.js';
import { raceClaims } from './claims.js';
import { unlearnedNote } from './passkey_learning.js';
import { NTK_WIDE, RACE_SCHEMES, SCHEME_NAMES } from './plan.js';
import { accuracyCell, lossCurve, positionRanges, smoothWithinRanges } from './stats.js';

/** Positions either side that the drawn loss line averages (inside each range [0, T), [T, 2T), ...). */
export const SMOOTHING_RADIUS = 4;

// Every panel: blue for zero-shot, vermillion (dashed) after fine-tuning.
const [ZERO_SHOT, FINE_TUNED] = [PALETTE[0], PALETTE[4]];

const cellText = (s, scale, digits) =>
  `${(s.mean * scale).toFixed(digits)} (${(s.min * scale).toFixed(digits)}–${(s.max * scale).toFixed(digits)})`;

/** One figure per scheme in `container` (made once): a caption and a canvas; returns {scheme: {caption, canvas}}. */
export function makePanels(container, kind) {
  const panels = {};
  const schemes = kind === 'loss' ? RACE_SCHEMES : RACE_SCHEMES.filter((s) => s !== NTK_WIDE);
  const figures = schemes.map((scheme) => {
    const figure = document.createElement('figure');
    figure.className = 'race-panel';
    const caption = document.createElement('figcaption');
    caption.textContent = `${SCHEME_NAMES[scheme]}: not run yet`;
    const canvas = document.createElement('canvas');
    canvas.className = kind === 'loss' ? 'race-lines' : 'race-heatmap';
    canvas.setAttribute('role', 'img');
    canvas.id = `beyond-race-${kind}-${scheme}`;
    canvas.dataset.testid = canvas.id;
    canvas.dataset.scheme = scheme;
    canvas.setAttribute(
      'aria-label',
      `${SCHEME_NAMES[scheme]}: ${kind === 'loss' ? 'loss by position' : 'passkey accuracy by depth and length'}`,
    );
    figure.append(caption, canvas);
    panels[scheme] = { caption, canvas };
    return figure;
  });
  container.replaceChildren(...figures);
  return panels;
}

const plain = (curve) =>
  curve && {
    mean: Array.from(curve.mean),
    min: Array.from(curve.min),
    max: Array.from(curve.max),
    smoothed: Array.from(curve.smoothed),
  };

/** A curve with its drawn line: the per-position mean smoothed within each position range. */
function withSmoothed(curve, T, factors) {
  return (
    curve && {
      ...curve,
      smoothed: smoothWithinRanges(
        curve.mean,
        factors.map((f) => f * T),
        SMOOTHING_RADIUS,
      ),
    }
  );
}

// The band is the seeds' raw spread at each position, the thin line their raw mean, the thick line the smoothed mean.
// Raw lines are grey in every panel, whether it has one series (learned, NTK at 2L/T) or two.
const drawn = (curve, colour, dash) =>
  curve && {
    mean: curve.smoothed,
    min: curve.min,
    max: curve.max,
    raw: curve.mean,
    rawColour: theme().muted,
    colour,
    dash,
  };

function drawLoss(panels, language, T, factors) {
  const L = T * factors.at(-1);
  const ranges = positionRanges(T, factors);
  const curves = new Map();
  for (const [scheme, runs] of language) {
    const zeroShot = lossCurve(runs, L, false, ranges) ?? lossCurve(runs, T, false, ranges);
    curves.set(scheme, {
      zeroShot: withSmoothed(zeroShot, T, factors),
      fineTuned: withSmoothed(lossCurve(runs, L, true, ranges), T, factors),
      refused: !lossCurve(runs, L, false, []),
    });
  }
  let lo = Infinity;
  let hi = -Infinity;
  for (const { zeroShot, fineTuned } of curves.values()) {
    for (const c of [zeroShot, fineTuned].filter(Boolean)) {
      lo = Math.min(lo, ...c.min);
      hi = Math.max(hi, ...c.max);
    }
  }
  for (const scheme of RACE_SCHEMES) {
    const { caption, canvas } = panels[scheme];
    const c = curves.get(scheme);
    if (!c) {
      continue;
    }
    caption.textContent = c.refused
      ? `${SCHEME_NAMES[scheme]} (refuses past T)`
      : scheme === NTK_WIDE
        ? `${SCHEME_NAMES[scheme]} = ${(2 * L) / T} (zero-shot only)`
        : SCHEME_NAMES[scheme];
    drawBandLines(canvas, [drawn(c.zeroShot, ZERO_SHOT), drawn(c.fineTuned, FINE_TUNED, [5, 3])], {
      yMin: lo,
      yMax: hi,
      length: L,
      marks: factors.slice(0, -1).map((f) => ({ x: f * T, label: f === 1 ? `T = ${T}` : String(f * T) })),
      xLabel: 'position',
    });
    canvas.dataset.series = JSON.stringify({ zeroShot: plain(c.zeroShot), fineTuned: plain(c.fineTuned) });
  }
  return curves;
}

function lossTable(curves, T, factors) {
  const ranges = positionRanges(T, factors);
  const labels = (tag) => ranges.map(([from, to]) => `${from}–${to - 1}${tag}`);
  const head = document.createElement('tr');
  for (const text of ['scheme', ...labels(''), ...labels(' ft')]) {
    head.append(headerCell(text, 'col'));
  }
  const rows = RACE_SCHEMES.filter((s) => curves.has(s)).map((scheme) => {
    const { zeroShot, fineTuned } = curves.get(scheme);
    const tr = document.createElement('tr');
    tr.dataset.scheme = scheme;
    tr.append(headerCell(SCHEME_NAMES[scheme], 'row'));
    for (const curve of [zeroShot, fineTuned]) {
      for (const [from, to] of ranges) {
        const r = curve?.byRange.find((x) => x.from === from && x.to === to);
        tr.insertCell().textContent = r ? cellText(r, 1, 2) : 'n/a';
      }
    }
    return tr;
  });
  $('beyond-race-loss-head').replaceChildren(head);
  $('beyond-race-loss-body').replaceChildren(...rows);
}

function drawPasskey(panels, passkey, T, factors, depths) {
  const columns = [
    ...factors.map((f) => ({ length: f * T, fineTuned: false, label: String(f * T) })),
    ...factors.filter((f) => f > 1).map((f) => ({ length: f * T, fineTuned: true, label: `${f * T} ft` })),
  ];
  // In the heatmaps "ft" goes under the length, so every column's label fits above its cells.
  const heatmapLabel = (c) => c.label.replace(' ', '\n');
  const head = document.createElement('tr');
  for (const text of ['scheme', ...columns.map((c) => c.label)]) {
    head.append(headerCell(text, 'col'));
  }
  const rows = [];
  for (const scheme of RACE_SCHEMES) {
    const runs = passkey.get(scheme);
    if (!runs) {
      continue;
    }
    const cells = columns.map((c) => ({ ...c, cell: accuracyCell(runs, c.length, c.fineTuned) }));
    const shown = cells.filter((c) => c.cell);
    const values = new Float64Array(depths.length * shown.length);
    depths.forEach((_, d) => shown.forEach((c, j) => (values[d * shown.length + j] = c.cell.byDepth[d].mean)));
    const { caption, canvas } = panels[scheme];
    caption.textContent =
      shown.length < cells.length ? `${SCHEME_NAMES[scheme]}: refuses past T` : SCHEME_NAMES[scheme];
    drawMatrix(canvas, {
      values,
      rows: depths.length,
      cols: shown.length,
      rowLabels: depths.map(String),
      colLabels: shown.map(heatmapLabel),
      scale: sequentialScale(0, 1),
      rowTitle: 'depth',
      colTitle: 'length',
      legend: false,
      compact: true,
    });
    canvas.dataset.values = JSON.stringify(Array.from(values));
    canvas.dataset.columns = JSON.stringify(shown.map((c) => c.label));
    const tr = document.createElement('tr');
    tr.dataset.scheme = scheme;
    tr.append(headerCell(SCHEME_NAMES[scheme], 'row'));
    for (const c of cells) {
      tr.insertCell().textContent = c.cell ? cellText(c.cell, 100, 0) : 'n/a';
    }
    rows.push(tr);
  }
  $('beyond-race-passkey-head').replaceChildren(head);
  $('beyond-race-passkey-body').replaceChildren(...rows);
}

/** Names the passkey models that never learned the task at T, which the verdicts leave out (passkey_learning.js). */
function showUnlearned(passkey, T) {
  const { never, counted, text } = unlearnedNote(passkey, T);
  const out = $('beyond-race-unlearned');
  out.dataset.never = String(never);
  out.dataset.counted = String(counted);
  out.textContent = text;
}

function showClaims(runs, T, L) {
  const claims = raceClaims(runs, T, L);
  if (claims.length === 0) {
    return;
  }
  $('beyond-race-claims').replaceChildren(
    ...claims.map((claim) => {
      const li = document.createElement('li');
      li.dataset.claim = claim.id;
      if (claim.verdict) {
        li.dataset.seeds = `${claim.verdict.k}/${claim.verdict.n}`;
      }
      li.dataset.seen = claim.seen;
      const predicted = document.createElement('strong');
      predicted.textContent = 'Predicted: ';
      const seen = document.createElement('strong');
      seen.textContent = 'Here: ';
      li.append(predicted, claim.prediction, document.createElement('br'), seen, claim.seen);
      return li;
    }),
  );
}

/**
 * Draws what is in: runs = {language, passkey}, each a Map scheme → runs (one per seed, in seed order), holding
 * only the schemes whose every seed is done; options: the runs' options (trainLength, factors, depths).
 */
export function drawRace(panels, runs, { trainLength: T, factors, depths }) {
  const L = T * factors.at(-1);
  const curves = drawLoss(panels.loss, runs.language, T, factors);
  lossTable(curves, T, factors);
  drawPasskey(panels.passkey, runs.passkey, T, factors, depths);
  showUnlearned(runs.passkey, T);
  showClaims(runs, T, L);
}
