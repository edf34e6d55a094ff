// Small canvas plots: lines, labelled scatter, grouped bars. Sizes come from CSS; colours from the theme.
import { drawPlotFrame, fitCanvas, theme } from './canvas.js';
import { showKey } from './legend.js';
import { gridReadout, readoutNumber, reserveReadout } from './readout.js';

/** Okabe–Ito: a categorical palette that stays distinct for the common colour-vision deficiencies. */
export const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#D55E00', '#56B4E9', '#F0E442', '#999999'];

const FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

function niceRange(min, max) {
  if (!Number.isFinite(min) || !Number.isFinite(max)) {
    return [0, 1];
  }
  if (min === max) {
    return [min - 1, max + 1];
  }
  const pad = (max - min) * 0.05;
  return [min - pad, max + pad];
}

function fmt(v) {
  const a = Math.abs(v);
  if (a !== 0 && (a < 0.01 || a >= 1e4)) {
    return v.toExponential(1);
  }
  return a >= 100 ? v.toFixed(0) : a >= 10 ? v.toFixed(1) : v.toFixed(2);
}

/**
 * Line chart. series: [{values: number[] (y at x = x0 + i·dx), colour, dash, label, width, x0, dx, line, dots}]; a
 * series' own x0 and dx (default: the options') let a finely sampled curve share the axis with coarser ones; dots: a
 * dot of that radius at each value; line: false draws the dots alone.
 * options: {x0, dx, yMin, yMax, xLabel, markX (an index i, at x0 + i·dx)}
 */
export function drawLines(canvas, series, options = {}) {
  const fit = fitCanvas(canvas);
  if (!fit) {
    return;
  }
  const { ctx, width, height } = fit;
  const colours = theme();
  const { x0 = 0, dx = 1, xLabel = '' } = options;
  const xOf = (s, i) => (s.x0 ?? x0) + i * (s.dx ?? dx);
  let lo = Infinity;
  let hi = -Infinity;
  let xMin = x0;
  let xMax = x0;
  for (const s of series) {
    if (s.values.length) {
      xMin = Math.min(xMin, xOf(s, 0));
      xMax = Math.max(xMax, xOf(s, s.values.length - 1));
    }
    for (const v of s.values) {
      if (Number.isFinite(v)) {
        ((lo = Math.min(lo, v)), (hi = Math.max(hi, v)));
      }
    }
  }
  let [yMin, yMax] = niceRange(lo, hi);
  if (options.yMin !== undefined) {
    yMin = options.yMin;
  }
  if (options.yMax !== undefined) {
    yMax = options.yMax;
  }
  const left = 46;
  const right = 8;
  const top = 8;
  const bottom = xLabel ? 34 : 20;
  const w = width - left - right;
  const h = height - top - bottom;
  const X = (x) => left + (xMax === xMin ? 0 : ((x - xMin) / (xMax - xMin)) * w);
  const Y = (v) => top + (1 - (v - yMin) / (yMax - yMin)) * h;
  ctx.font = FONT;
  drawPlotFrame(
    ctx,
    colours,
    { left, top, w, h },
    [yMin, (yMin + yMax) / 2, yMax].map((v) => ({ y: Y(v), label: fmt(v) })),
  );
  ctx.textBaseline = 'top';
  for (const f of [0, 0.5, 1]) {
    const x = x0 + Math.round((xMin + f * (xMax - xMin) - x0) / dx) * dx; // on the options' grid of x0 + i·dx
    ctx.textAlign = f === 0 ? 'left' : f === 1 ? 'right' : 'center';
    ctx.fillText(String(Math.round(x)), X(x), top + h + 4);
  }
  ctx.textAlign = 'center';
  if (xLabel) {
    ctx.fillText(xLabel, left + w / 2, top + h + 18);
  }
  if (yMin < 0 && yMax > 0) {
    ctx.strokeStyle = colours.border;
    ctx.beginPath();
    ctx.moveTo(left, Y(0));
    ctx.lineTo(left + w, Y(0));
    ctx.stroke();
  }
  if (options.markX !== undefined) {
    ctx.strokeStyle = colours.muted;
    ctx.setLineDash([3, 3]);
    ctx.beginPath();
    ctx.moveTo(X(x0 + options.markX * dx), top);
    ctx.lineTo(X(x0 + options.markX * dx), top + h);
    ctx.stroke();
    ctx.setLineDash([]);
  }
  for (const s of series) {
    const points = [];
    s.values.forEach((v, i) => {
      if (Number.isFinite(v)) {
        points.push([X(xOf(s, i)), Math.max(top, Math.min(top + h, Y(v)))]);
      }
    });
    if (s.line !== false) {
      ctx.strokeStyle = s.colour;
      ctx.lineWidth = s.width ?? 2;
      ctx.setLineDash(s.dash ?? []);
      ctx.beginPath();
      points.forEach(([x, y], n) => (n ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
      ctx.stroke();
      ctx.setLineDash([]);
    }
    if (s.dots) {
      ctx.fillStyle = s.colour;
      for (const [x, y] of points) {
        ctx.beginPath();
        ctx.arc(x, y, s.dots, 0, 2 * Math.PI);
        ctx.fill();
      }
    }
  }
}

// One sentence whatever the count (no layout shift when labels come and go); the count is in data-labels-hidden.
const SCATTER_IDLE =
  'Labels that would overlap are left out: point at a dot, or focus the plot (Tab) and use the arrow keys, to read every point.';

/** A scatter's readout and key before its first drawing, for plots drawn after a worker's result (no shift). */
export function reserveScatter(canvas, { key } = {}) {
  reserveReadout(canvas, SCATTER_IDLE);
  if (key) {
    showKey(canvas, key);
  }
}

const DIRECTIONS = [
  [1, 0],
  [-1, 0],
  [0, -1],
  [0, 1],
  [0.7, -0.7],
  [0.7, 0.7],
  [-0.7, -0.7],
  [-0.7, 0.7],
];

/**
 * Label boxes that overlap neither each other, nor a dot, nor the frame: greedy, in the order of the points. A label
 * goes next to its dot if it can, else further out (16 to 64 px) with a leader line back to the dot.
 */
function placeLabels(ctx, dots, width, height, r) {
  const boxes = [];
  const hits = (b, o) => b.x < o.x + o.w && o.x < b.x + b.w && b.y < o.y + o.h && o.y < b.y + b.h;
  const dotBoxes = dots.map((d) => ({ x: d.x - r, y: d.y - r, w: 2 * r, h: 2 * r }));
  const free = (box) =>
    box.x >= 2 &&
    box.y >= 2 &&
    box.x + box.w <= width - 2 &&
    box.y + box.h <= height - 2 &&
    !boxes.some((o) => hits(box, o)) &&
    !dotBoxes.some((o) => hits(box, o));
  // A leader line must not run through another label: checked at a few points along it.
  const clearLine = (x0, y0, x1, y1) =>
    [0.25, 0.5, 0.75].every((t) => {
      const p = { x: x0 + (x1 - x0) * t - 0.5, y: y0 + (y1 - y0) * t - 0.5, w: 1, h: 1 };
      return !boxes.some((o) => hits(p, o));
    });
  return dots.map((d) => {
    if (!d.label) {
      return null;
    }
    const w = ctx.measureText(d.label).width;
    const h = 13;
    for (const distance of [3, 16, 30, 46, 64]) {
      for (const [cx, cy] of DIRECTIONS) {
        // The point of the box nearest the dot sits `distance` beyond the dot's edge, in direction (cx, cy).
        const px = d.x + (r + distance) * cx;
        const py = d.y + (r + distance) * cy;
        const x = cx > 0.3 ? px : cx < -0.3 ? px - w : px - w / 2;
        const y = cy > 0.3 ? py : cy < -0.3 ? py - h : py - h / 2;
        const box = { x, y, w, h };
        const leader = distance > 3 ? { x0: d.x + (r + 1) * cx, y0: d.y + (r + 1) * cy, x1: px, y1: py } : null;
        if (free(box) && (!leader || clearLine(leader.x0, leader.y0, leader.x1, leader.y1))) {
          boxes.push(box);
          return { ...box, leader };
        }
      }
    }
    return null;
  });
}

/**
 * Scatter with labels. points: [{x, y, label, colour, name}]; options: {path (a line through the points in order),
 * radius, describe(i) (readout text of point i), key: [{label, colour}] (a legend of the colours)}. Labels that
 * would overlap are left out; every point can still be read: focus the plot and step through the points with the
 * arrow keys, or point at one.
 */
export function drawScatter(canvas, points, options = {}) {
  const fit = fitCanvas(canvas);
  if (!fit) {
    return;
  }
  const { ctx, width, height } = fit;
  const colours = theme();
  const pad = 24;
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const [x0, x1] = niceRange(Math.min(...xs), Math.max(...xs));
  const [y0, y1] = niceRange(Math.min(...ys), Math.max(...ys));
  const X = (v) => pad + ((v - x0) / (x1 - x0)) * (width - 2 * pad);
  const Y = (v) => height - pad - ((v - y0) / (y1 - y0)) * (height - 2 * pad);
  ctx.strokeStyle = colours.border;
  ctx.strokeRect(0.5, 0.5, width - 1, height - 1);
  if (options.path) {
    ctx.strokeStyle = colours.muted;
    ctx.lineWidth = 1;
    ctx.beginPath();
    points.forEach((p, i) => (i ? ctx.lineTo(X(p.x), Y(p.y)) : ctx.moveTo(X(p.x), Y(p.y))));
    ctx.stroke();
  }
  ctx.font = FONT;
  ctx.textBaseline = 'top';
  ctx.textAlign = 'left';
  const r = options.radius ?? 4;
  const dots = points.map((p) => ({ x: X(p.x), y: Y(p.y), label: p.label }));
  const boxes = placeLabels(ctx, dots, width, height, r);
  points.forEach((p, i) => {
    ctx.fillStyle = p.colour;
    ctx.beginPath();
    ctx.arc(dots[i].x, dots[i].y, r, 0, 2 * Math.PI);
    ctx.fill();
  });
  ctx.strokeStyle = colours.muted;
  ctx.lineWidth = 1;
  for (const box of boxes) {
    if (box?.leader) {
      ctx.beginPath();
      ctx.moveTo(box.leader.x0, box.leader.y0);
      ctx.lineTo(box.leader.x1, box.leader.y1);
      ctx.stroke();
    }
  }
  ctx.fillStyle = colours.fg;
  boxes.forEach((box, i) => box && ctx.fillText(points[i].label, box.x, box.y + 1));
  const labelled = points.filter((p) => p.label).length;
  const shown = boxes.filter(Boolean);
  // For tests and for anyone inspecting the page: where each drawn label sits (CSS pixels).
  canvas.dataset.labelBoxes = JSON.stringify(shown.map((b) => [b.x, b.y, b.w, b.h].map((v) => +v.toFixed(1))));
  canvas.dataset.labelsHidden = String(labelled - shown.length);

  const describe = options.describe ?? ((i) => `${points[i].name ?? points[i].label ?? `point ${i}`}`);
  const cursor = gridReadout(canvas, {
    rows: points.length,
    cols: 1,
    linear: true,
    value: (i) => points[i].x,
    name: () => '',
    describe: (i) => `${describe(i)}: PC1 ${readoutNumber(points[i].x)}, PC2 ${readoutNumber(points[i].y)}`,
    idle: SCATTER_IDLE,
    cellAt: (x, y) => {
      let best = null;
      let bestD = 12 * 12;
      dots.forEach((d, i) => {
        const dd = (d.x - x) ** 2 + (d.y - y) ** 2;
        if (dd < bestD) {
          ((best = { row: i, col: 0 }), (bestD = dd));
        }
      });
      return best;
    },
    repaint: () => drawScatter(canvas, points, options),
  });
  if (options.key) {
    showKey(canvas, options.key);
  }
  if (cursor) {
    // The chosen point: a ring, and its label on a backing so it reads even where labels crowd.
    const d = dots[cursor.row];
    ctx.strokeStyle = colours.fg;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.arc(d.x, d.y, r + 4, 0, 2 * Math.PI);
    ctx.stroke();
    const text = points[cursor.row].label || String(cursor.row);
    const w = ctx.measureText(text).width;
    const bx = Math.min(Math.max(2, d.x + r + 6), width - w - 8);
    const by = Math.min(Math.max(2, d.y - 8), height - 18);
    ctx.fillStyle = colours.panel || colours.bg;
    ctx.fillRect(bx - 3, by - 1, w + 6, 16);
    ctx.strokeStyle = colours.border;
    ctx.lineWidth = 1;
    ctx.strokeRect(bx - 3, by - 1, w + 6, 16);
    ctx.fillStyle = colours.fg;
    ctx.fillText(text, bx, by + 1);
  }
}
