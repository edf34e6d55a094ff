// Lines with a shaded band (mean over seeds, min–max range) against position, with vertical marks (the training
// length T and its multiples): section 7's loss-by-position panels. Sizes come from CSS; colours from the theme.
import { drawPlotFrame, FONT, fitCanvas, theme } from './canvas.js';

const fmt = (v) => v.toFixed(Math.abs(v) >= 10 ? 1 : 2);

/**
 * series: [{mean, min, max (arrays of equal length, y at x = index), raw (optional: a thin, faint line under mean,
 * e.g. the unsmoothed values, in rawColour if given), colour, dash}]; options: {yMin, yMax, length
 * (of the x axis, 0..length−1), marks: [{x, label}], xLabel, title}. A missing series (null) is skipped; positions
 * past a series' length stay empty.
 */
export function drawBandLines(canvas, series, { yMin, yMax, length, marks = [], xLabel = '', title = '' } = {}) {
  const fit = fitCanvas(canvas);
  if (!fit) {
    return;
  }
  const { ctx, width, height } = fit;
  const colours = theme();
  const present = series.filter(Boolean);
  const n = Math.max(2, length ?? 0, ...present.map((s) => s.mean.length), ...marks.map((m) => m.x + 1));
  const left = 40;
  const right = 8;
  const top = title ? 22 : 8;
  const bottom = xLabel ? 34 : 20;
  const w = width - left - right;
  const h = height - top - bottom;
  const X = (i) => left + (i / (n - 1)) * w;
  const Y = (v) => top + (1 - (Math.min(yMax, Math.max(yMin, v)) - yMin) / (yMax - yMin)) * h;
  ctx.font = FONT;
  if (title) {
    ctx.fillStyle = colours.fg;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    ctx.fillText(title, left, 4);
  }
  drawPlotFrame(
    ctx,
    colours,
    { left, top, w, h },
    [yMin, (yMin + yMax) / 2, yMax].map((v) => ({ y: Y(v), label: fmt(v) })),
  );
  ctx.textBaseline = 'top';
  for (const { x, label } of [{ x: 0, label: '0' }, ...marks, { x: n - 1, label: String(n - 1) }]) {
    ctx.textAlign = x === 0 ? 'left' : x >= n - 1 ? 'right' : 'center';
    ctx.fillText(label, X(x), top + h + 4);
  }
  if (xLabel) {
    ctx.textAlign = 'center';
    ctx.fillText(xLabel, left + w / 2, top + h + 18);
  }
  ctx.strokeStyle = colours.muted;
  ctx.setLineDash([3, 3]);
  for (const { x } of marks) {
    ctx.beginPath();
    ctx.moveTo(X(x), top);
    ctx.lineTo(X(x), top + h);
    ctx.stroke();
  }
  ctx.setLineDash([]);
  for (const s of present) {
    ctx.globalAlpha = 0.22;
    ctx.fillStyle = s.colour;
    ctx.beginPath();
    s.max.forEach((v, i) => (i === 0 ? ctx.moveTo(X(i), Y(v)) : ctx.lineTo(X(i), Y(v))));
    for (let i = s.min.length - 1; i >= 0; i -= 1) {
      ctx.lineTo(X(i), Y(s.min[i]));
    }
    ctx.closePath();
    ctx.fill();
    ctx.strokeStyle = s.colour;
    if (s.raw) {
      ctx.strokeStyle = s.rawColour ?? s.colour;
      ctx.globalAlpha = 0.45;
      ctx.lineWidth = 0.75;
      ctx.setLineDash(s.dash ?? []);
      ctx.beginPath();
      s.raw.forEach((v, i) => (i === 0 ? ctx.moveTo(X(i), Y(v)) : ctx.lineTo(X(i), Y(v))));
      ctx.stroke();
    }
    ctx.globalAlpha = 1;
    ctx.strokeStyle = s.colour;
    ctx.lineWidth = 2;
    ctx.setLineDash(s.dash ?? []);
    ctx.beginPath();
    s.mean.forEach((v, i) => (i === 0 ? ctx.moveTo(X(i), Y(v)) : ctx.lineTo(X(i), Y(v))));
    ctx.stroke();
    ctx.setLineDash([]);
  }
}
