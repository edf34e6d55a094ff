// Canvas drawing for heatmaps, vector strips, similarity matrices and colour legends.
// Canvases take their size from CSS (no layout shift); the backing store follows devicePixelRatio.
import { divergingCss, divergingRgb, textOn } from './colour.js';

/** Theme colours read from the CSS custom properties (light or dark). */
export function theme() {
  const style = getComputedStyle(document.documentElement);
  const get = (name) => style.getPropertyValue(name).trim();
  return {
    fg: get('--fg'),
    muted: get('--muted'),
    border: get('--border'),
    mark: get('--mark'),
    focus: get('--focus'),
  };
}

/** Sizes the backing store to the CSS box; returns a context in CSS pixels, or null when hidden. */
export function fitCanvas(canvas) {
  const width = canvas.clientWidth;
  const height = canvas.clientHeight;
  if (width === 0 || height === 0) {
    return null;
  }
  const dpr = Math.min(window.devicePixelRatio || 1, 3);
  const w = Math.round(width * dpr);
  const h = Math.round(height * dpr);
  if (canvas.width !== w) {
    canvas.width = w;
  }
  if (canvas.height !== h) {
    canvas.height = h;
  }
  const ctx = canvas.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, width, height);
  return { ctx, width, height };
}

const FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

/** Paints a rows × cols value grid into the rectangle (x, y, w, h), one cell per value. */
function paintGrid(ctx, values, rows, cols, range, x, y, w, h) {
  const image = new ImageData(cols, rows);
  for (let i = 0; i < rows * cols; i++) {
    const [r, g, b] = divergingRgb(values[i] / range);
    image.data[4 * i] = r;
    image.data[4 * i + 1] = g;
    image.data[4 * i + 2] = b;
    image.data[4 * i + 3] = 255;
  }
  const offscreen = document.createElement('canvas');
  offscreen.width = cols;
  offscreen.height = rows;
  offscreen.getContext('2d').putImageData(image, 0, 0);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(offscreen, x, y, w, h);
}

/** Geometry of the positional heatmap, shared with the pointer handling. */
export function heatmapLayout(width, height, rows, cols) {
  const left = 30;
  const top = 16;
  const w = width - left - 2;
  const h = height - top - 2;
  return { left, top, w, h, cellW: w / cols, cellH: h / rows };
}

/**
 * Heatmap of a rows × cols table (positions × dimensions). marks: [{from, to, label}] brackets on the
 * left; cursor: {row, col} outlined.
 */
export function drawHeatmap(canvas, { values, rows, cols, range, marks = [], cursor = null }) {
  const fit = fitCanvas(canvas);
  if (!fit) {
    return;
  }
  const { ctx, width, height } = fit;
  const colours = theme();
  const g = heatmapLayout(width, height, rows, cols);
  paintGrid(ctx, values, rows, cols, range, g.left, g.top, g.w, g.h);

  ctx.font = FONT;
  ctx.fillStyle = colours.muted;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'right';
  const rowStep = rows <= 16 ? 4 : rows <= 32 ? 8 : 16;
  for (let r = 0; r < rows; r += rowStep) {
    ctx.fillText(String(r), g.left - 12, g.top + (r + 0.5) * g.cellH);
  }
  ctx.textAlign = 'center';
  ctx.textBaseline = 'alphabetic';
  const colStep = cols <= 16 ? 4 : cols <= 64 ? 16 : 32;
  for (let c = 0; c < cols; c += colStep) {
    ctx.fillText(String(c), g.left + (c + 0.5) * g.cellW, g.top - 4);
  }

  // Rows used by the sentences: an outline across the table and a bracket in the gutter.
  // A dark line under a light one reads on every colour of the scale, in light and dark themes.
  marks.forEach((mark, k) => {
    const y0 = g.top + mark.from * g.cellH;
    const y1 = g.top + (mark.to + 1) * g.cellH;
    ctx.setLineDash(k === 0 ? [] : [6, 4]);
    for (const [style, lineWidth] of [
      ['#111111', 3.5],
      ['#ffffff', 1.5],
    ]) {
      ctx.strokeStyle = style;
      ctx.lineWidth = lineWidth;
      ctx.strokeRect(g.left + 2, y0 + 1.5, g.w - 4, y1 - y0 - 3);
    }
    ctx.setLineDash([]);
    ctx.strokeStyle = colours.mark;
    ctx.lineWidth = 2;
    const x = g.left - 5 - k * 5;
    ctx.beginPath();
    ctx.moveTo(x + 4, y0 + 1);
    ctx.lineTo(x, y0 + 1);
    ctx.lineTo(x, y1 - 1);
    ctx.lineTo(x + 4, y1 - 1);
    ctx.stroke();
  });

  if (cursor) {
    ctx.strokeStyle = '#111111';
    ctx.lineWidth = 2;
    const cw = Math.max(g.cellW, 4);
    const ch = Math.max(g.cellH, 4);
    const cx = g.left + (cursor.col + 0.5) * g.cellW - cw / 2;
    const cy = g.top + (cursor.row + 0.5) * g.cellH - ch / 2;
    ctx.strokeRect(cx - 1, cy - 1, cw + 2, ch + 2);
  }
}

const STRIP = { height: 14, gap: 3, blockGap: 14, top: 4 };

/** CSS height for the strips of n tokens. */
export function stripsHeight(n) {
  return STRIP.top + Math.max(n, 1) * (3 * STRIP.height + 2 * STRIP.gap + STRIP.blockGap);
}

/**
 * Three strips per token: token embedding, position vector, input vector. tokens: [{word, position}];
 * token/position/input: Float32Array(n × dim).
 */
export function drawStrips(canvas, { tokens, dim, token, position, input, range }) {
  const fit = fitCanvas(canvas);
  if (!fit) {
    return;
  }
  const { ctx, width } = fit;
  const colours = theme();
  const narrow = width < 420;
  const labelW = narrow ? 76 : 110;
  const partW = narrow ? 64 : 74;
  const stripX = labelW + partW;
  const stripW = Math.max(10, width - stripX - 2);
  const parts = [
    ['token', token],
    ['+ position', position],
    ['= input', input],
  ];
  ctx.font = FONT;
  ctx.textBaseline = 'middle';
  let y = STRIP.top;
  tokens.forEach((t, i) => {
    const blockH = 3 * STRIP.height + 2 * STRIP.gap;
    ctx.fillStyle = colours.fg;
    ctx.textAlign = 'left';
    ctx.font = `600 ${FONT}`;
    ctx.fillText(ellipsize(ctx, t.word, labelW - 8), 0, y + blockH / 2 - 7);
    ctx.font = FONT;
    ctx.fillStyle = colours.muted;
    ctx.fillText(`position ${t.position}`, 0, y + blockH / 2 + 8);
    parts.forEach(([name, values], k) => {
      const sy = y + k * (STRIP.height + STRIP.gap);
      ctx.fillStyle = colours.muted;
      ctx.textAlign = 'right';
      ctx.fillText(name, stripX - 6, sy + STRIP.height / 2);
      paintGrid(ctx, values.subarray(i * dim, (i + 1) * dim), 1, dim, range, stripX, sy, stripW, STRIP.height);
    });
    y += blockH + STRIP.blockGap;
  });
}

function ellipsize(ctx, text, maxWidth) {
  if (ctx.measureText(text).width <= maxWidth) {
    return text;
  }
  let s = text;
  while (s.length > 1 && ctx.measureText(s + '…').width > maxWidth) {
    s = s.slice(0, -1);
  }
  return s + '…';
}

/** Similarity matrix with row labels (sentence A) and column labels (sentence B) and values in cells. */
export function drawMatrix(canvas, { values, rows, cols, rowLabels, colLabels, range = 1 }) {
  const fit = fitCanvas(canvas);
  if (!fit) {
    return;
  }
  const { ctx, width, height } = fit;
  const colours = theme();
  ctx.font = FONT;
  const longest = Math.max(...rowLabels.map((s) => ctx.measureText(s).width), 20);
  const left = Math.min(Math.ceil(longest) + 10, width * 0.3);
  const widest = Math.max(...colLabels.map((s) => ctx.measureText(s).width), 20);
  let top = 22;
  let size = Math.min((width - left - 2) / cols, (height - top - 2) / rows);
  const rotateColumns = size < widest + 6;
  if (rotateColumns) {
    top = Math.min(Math.ceil(widest) + 10, height * 0.3);
    size = Math.min((width - left - 2) / cols, (height - top - 2) / rows);
  }

  ctx.fillStyle = colours.fg;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'right';
  rowLabels.forEach((label, r) => {
    if (size >= 9 || r % Math.ceil(9 / size) === 0) {
      ctx.fillText(ellipsize(ctx, label, left - 8), left - 6, top + (r + 0.5) * size);
    }
  });
  colLabels.forEach((label, c) => {
    if (size < 9 && c % Math.ceil(9 / size) !== 0) {
      return;
    }
    const x = left + (c + 0.5) * size;
    ctx.save();
    if (rotateColumns) {
      ctx.translate(x, top - 6);
      ctx.rotate(-Math.PI / 2);
      ctx.textAlign = 'left';
      ctx.fillText(ellipsize(ctx, label, top - 10), 0, 0);
    } else {
      ctx.textAlign = 'center';
      ctx.textBaseline = 'alphabetic';
      ctx.fillText(label, x, top - 6);
    }
    ctx.restore();
  });

  const showNumbers = size >= 38;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.font = size >= 56 ? '600 14px system-ui, sans-serif' : '600 11px system-ui, sans-serif';
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const v = values[r * cols + c];
      const x = left + c * size;
      const y = top + r * size;
      ctx.fillStyle = divergingCss(v, range);
      ctx.fillRect(x, y, size, size);
      if (showNumbers) {
        ctx.fillStyle = textOn(v, range);
        const s = v.toFixed(size >= 56 ? 3 : 2);
        ctx.fillText(s === '-0.000' || s === '-0.00' ? s.slice(1) : s, x + size / 2, y + size / 2);
      }
    }
  }
  ctx.strokeStyle = colours.border;
  ctx.lineWidth = 1;
  ctx.strokeRect(left + 0.5, top + 0.5, cols * size - 1, rows * size - 1);
}

/** A horizontal colour bar from -1 to 1. */
export function drawLegend(canvas) {
  const fit = fitCanvas(canvas);
  if (!fit) {
    return;
  }
  const { ctx, width, height } = fit;
  for (let x = 0; x < width; x++) {
    ctx.fillStyle = divergingCss((2 * x) / Math.max(1, width - 1) - 1, 1);
    ctx.fillRect(x, 0, 1, height);
  }
}

/** Labelled rows of dim values, one strip each: rows = [{label, values}]. */
export function drawRows(canvas, rows, dim, range) {
  const fit = fitCanvas(canvas);
  if (!fit) {
    return;
  }
  const { ctx, width } = fit;
  const colours = theme();
  const labelW = Math.min(150, width * 0.35);
  ctx.font = FONT;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'right';
  rows.forEach((row, i) => {
    const y = STRIP.top + i * (STRIP.height + 8);
    ctx.fillStyle = colours.fg;
    ctx.fillText(ellipsize(ctx, row.label, labelW - 8), labelW - 6, y + STRIP.height / 2);
    paintGrid(ctx, row.values, 1, dim, row.range ?? range, labelW, y, width - labelW - 2, STRIP.height);
  });
}
