// Small canvas plots: lines, labelled scatter, grouped bars. Sizes come from CSS; colours from the theme.
import { fitCanvas, theme } from './canvas.js';

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
 * Line chart. series: [{values: number[] (y at x = x0 + i·dx), colour, dash, label, width}].
 * options: {x0, dx, yMin, yMax, xLabel, markX}
 */
export function drawLines(canvas, series, options = {}) {
  const fit = fitCanvas(canvas);
  if (!fit) {
    return;
  }
  const { ctx, width, height } = fit;
  const colours = theme();
  const { x0 = 0, dx = 1, xLabel = '' } = options;
  let lo = Infinity;
  let hi = -Infinity;
  let n = 1;
  for (const s of series) {
    n = Math.max(n, s.values.length);
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
  const X = (i) => left + (n <= 1 ? 0 : (i / (n - 1)) * w);
  const Y = (v) => top + (1 - (v - yMin) / (yMax - yMin)) * h;
  ctx.font = FONT;
  ctx.strokeStyle = colours.border;
  ctx.lineWidth = 1;
  ctx.strokeRect(left + 0.5, top + 0.5, w, h);
  ctx.fillStyle = colours.muted;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const v of [yMin, (yMin + yMax) / 2, yMax]) {
    ctx.fillText(fmt(v), left - 4, Y(v));
  }
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (const f of [0, 0.5, 1]) {
    const i = Math.round(f * (n - 1));
    ctx.textAlign = f === 0 ? 'left' : f === 1 ? 'right' : 'center';
    ctx.fillText(String(Math.round(x0 + i * dx)), X(i), top + h + 4);
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
    ctx.moveTo(X(options.markX), top);
    ctx.lineTo(X(options.markX), top + h);
    ctx.stroke();
    ctx.setLineDash([]);
  }
  for (const s of series) {
    ctx.strokeStyle = s.colour;
    ctx.lineWidth = s.width ?? 2;
    ctx.setLineDash(s.dash ?? []);
    ctx.beginPath();
    let started = false;
    s.values.forEach((v, i) => {
      if (!Number.isFinite(v)) {
        return;
      }
      const y = Math.max(top, Math.min(top + h, Y(v)));
      if (started) {
        ctx.lineTo(X(i), y);
      } else {
        (ctx.moveTo(X(i), y), (started = true));
      }
    });
    ctx.stroke();
    ctx.setLineDash([]);
  }
}

/** Scatter with labels. points: [{x, y, label, colour}]; options.path draws a line through them in order. */
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
  ctx.textBaseline = 'middle';
  const r = options.radius ?? 4;
  for (const p of points) {
    ctx.fillStyle = p.colour;
    ctx.beginPath();
    ctx.arc(X(p.x), Y(p.y), r, 0, 2 * Math.PI);
    ctx.fill();
    if (p.label) {
      ctx.fillStyle = colours.fg;
      ctx.textAlign = X(p.x) > width - 70 ? 'right' : 'left';
      ctx.fillText(p.label, X(p.x) + (ctx.textAlign === 'right' ? -7 : 7), Y(p.y));
    }
  }
}

/** Grouped bars. groups: [{label, values: (number|null)[]}], keys: labels of the bars in a group. */
export function drawBars(canvas, groups, keys, options = {}) {
  const fit = fitCanvas(canvas);
  if (!fit) {
    return;
  }
  const { ctx, width, height } = fit;
  const colours = theme();
  const left = 40;
  const top = 22;
  const bottom = 22;
  const w = width - left - 4;
  const h = height - top - bottom;
  let hi = 0;
  for (const g of groups) {
    for (const v of g.values) {
      if (Number.isFinite(v)) {
        hi = Math.max(hi, v);
      }
    }
  }
  hi = options.yMax ?? (hi > 0 ? hi * 1.1 : 1);
  ctx.font = FONT;
  ctx.fillStyle = colours.muted;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const v of [0, hi / 2, hi]) {
    ctx.fillText(fmt(v), left - 4, top + h - (v / hi) * h);
  }
  ctx.strokeStyle = colours.border;
  ctx.beginPath();
  ctx.moveTo(left, top + h + 0.5);
  ctx.lineTo(left + w, top + h + 0.5);
  ctx.stroke();
  // key
  ctx.textAlign = 'left';
  let kx = left;
  keys.forEach((key, k) => {
    ctx.fillStyle = PALETTE[k];
    ctx.fillRect(kx, 4, 10, 10);
    ctx.fillStyle = colours.fg;
    ctx.fillText(key, kx + 14, 9);
    kx += ctx.measureText(key).width + 30;
  });
  const gw = w / Math.max(1, groups.length);
  const bw = Math.min(28, (gw - 10) / keys.length);
  groups.forEach((g, i) => {
    const gx = left + i * gw + (gw - bw * keys.length) / 2;
    g.values.forEach((v, k) => {
      const x = gx + k * bw;
      if (Number.isFinite(v)) {
        const bh = (v / hi) * h;
        ctx.fillStyle = PALETTE[k];
        ctx.fillRect(x, top + h - bh, bw - 2, bh);
      } else {
        ctx.fillStyle = colours.muted;
        ctx.textAlign = 'center';
        ctx.fillText('×', x + bw / 2, top + h - 8);
      }
    });
    ctx.fillStyle = colours.fg;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    ctx.fillText(g.label, left + i * gw + gw / 2, top + h + 5);
    ctx.textBaseline = 'middle';
  });
}
