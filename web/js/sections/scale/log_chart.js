// Section 8's charts: lines and dots on logarithmic (or linear) axes, with marked levels and a shaded range.
// Wavelengths, frequency ratios and distances span several powers of ten, which the linear charts of draw/plot.js
// cannot show.
import { drawPlotFrame, FONT, fitCanvas, theme } from '../../draw/canvas.js';

const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };

/** A power of ten as a tick, always in one notation: 10⁻¹, 10⁰, 10¹, 10², 10³, 10⁴ … */
function powerLabel(exponent) {
  return `10${String(exponent).replace(/./g, (c) => SUPERSCRIPT[c] ?? c)}`;
}

/** Ticks of an axis: the powers of ten inside a log range (every other one when many), or round values. */
function ticks(min, max, log) {
  if (!log) {
    // Multiples of 1, 2 or 5 × 10^k, three to six of them.
    const rough = (max - min) / 4;
    const power = 10 ** Math.floor(Math.log10(rough));
    const step = [1, 2, 5, 10].map((m) => m * power).find((v) => v >= rough);
    const out = [];
    for (let v = Math.ceil(min / step) * step; v <= max; v += step) {
      const value = Math.abs(v) < step * 1e-9 ? 0 : v;
      out.push({ v: value, label: Number(value.toPrecision(6)).toString().replace('-', '−') });
    }
    return out;
  }
  const lo = Math.ceil(Math.log10(min) - 1e-9);
  const hi = Math.floor(Math.log10(max) + 1e-9);
  const step = hi - lo > 6 ? 2 : 1;
  const out = [];
  for (let e = lo; e <= hi; e += step) {
    out.push({ v: 10 ** e, label: powerLabel(e) });
  }
  return out;
}

/**
 * Draws series [{xs, ys, colour, width, dash, dots}] on axes {xMin, xMax, yMin, yMax, xLog, yLog, xLabel, yLabel,
 * xTicks (values to label instead of the automatic ticks)},
 * with levels [{y, label}] (dashed horizontal lines), marks [{x, label}] (dashed vertical lines) and shadeFrom
 * (x from which the plot is shaded: offsets no training window contained). Points outside the axes are clipped.
 */
export function drawLogChart(canvas, series, axes) {
  const fit = fitCanvas(canvas);
  if (!fit) {
    return;
  }
  const { ctx, width, height } = fit;
  const colours = theme();
  const { xMin, xMax, yMin, yMax, xLog = false, yLog = false, levels = [], marks = [] } = axes;
  const left = 52;
  const right = 10;
  const top = 10;
  const bottom = 38;
  const w = width - left - right;
  const h = height - top - bottom;
  const scale = (v, lo, hi, log) => (log ? Math.log(v / lo) / Math.log(hi / lo) : (v - lo) / (hi - lo));
  const X = (x) => left + scale(x, xMin, xMax, xLog) * w;
  const Y = (y) => top + (1 - scale(y, yMin, yMax, yLog)) * h;
  ctx.font = FONT;
  if (axes.shadeFrom !== undefined && axes.shadeFrom < xMax) {
    ctx.fillStyle = colours.border;
    ctx.globalAlpha = 0.35;
    const x0 = Math.max(left, X(axes.shadeFrom));
    ctx.fillRect(x0, top, left + w - x0, h);
    ctx.globalAlpha = 1;
  }
  drawPlotFrame(
    ctx,
    colours,
    { left, top, w, h },
    ticks(yMin, yMax, yLog).map(({ v, label }) => ({ y: Y(v), label })),
  );
  ctx.textBaseline = 'top';
  const xTicks = axes.xTicks?.map((v) => ({ v, label: String(v) })) ?? ticks(xMin, xMax, xLog);
  xTicks.forEach(({ v, label }, i) => {
    ctx.textAlign = xTicks.length > 1 && i === xTicks.length - 1 && X(v) > left + w - 20 ? 'right' : 'center';
    ctx.fillText(label, X(v), top + h + 4);
  });
  ctx.textAlign = 'center';
  ctx.fillText(axes.xLabel ?? '', left + w / 2, top + h + 20);
  if (axes.yLabel) {
    ctx.save();
    ctx.translate(11, top + h / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.fillText(axes.yLabel, 0, -6);
    ctx.restore();
  }
  ctx.setLineDash([4, 3]);
  ctx.strokeStyle = colours.muted;
  ctx.fillStyle = colours.muted;
  ctx.textBaseline = 'bottom';
  for (const { y, label } of levels) {
    if (y > yMin && y < yMax) {
      ctx.beginPath();
      ctx.moveTo(left, Y(y));
      ctx.lineTo(left + w, Y(y));
      ctx.stroke();
      ctx.textAlign = 'left';
      ctx.fillText(label, left + 4, Y(y) - 1);
    }
  }
  ctx.textBaseline = 'top';
  for (const { x, label } of marks) {
    if (x > xMin && x <= xMax) {
      ctx.beginPath();
      ctx.moveTo(X(x), top);
      ctx.lineTo(X(x), top + h);
      ctx.stroke();
      ctx.textAlign = X(x) > left + w - 40 ? 'right' : 'left';
      ctx.fillText(label, X(x) + (ctx.textAlign === 'right' ? -3 : 3), top + 2);
    }
  }
  ctx.save();
  ctx.beginPath();
  ctx.rect(left, top, w, h);
  ctx.clip();
  for (const s of series) {
    ctx.strokeStyle = s.colour;
    ctx.fillStyle = s.colour;
    ctx.lineWidth = s.width ?? 2;
    ctx.setLineDash(s.dash ?? []);
    if (s.dots) {
      s.xs.forEach((x, i) => {
        ctx.beginPath();
        ctx.arc(X(x), Y(s.ys[i]), s.dots, 0, 2 * Math.PI);
        ctx.fill();
      });
    } else {
      ctx.beginPath();
      s.xs.forEach((x, i) => (i === 0 ? ctx.moveTo(X(x), Y(s.ys[i])) : ctx.lineTo(X(x), Y(s.ys[i]))));
      ctx.stroke();
    }
  }
  ctx.restore();
  ctx.setLineDash([]);
}
