// Grid figures: the heatmap of a table (positions × dimensions) and the similarity matrix with labelled rows and
// columns; each with its keyboard/pointer readout (readout.js) and its colour legend (legend.js).
import { ellipsize, FONT, fitCanvas, paintGrid, theme } from './canvas.js';
import { divergingScale, finiteExtent } from './colour.js';
import { reserveLegend, showLegend } from './legend.js';
import { gridReadout, outlineCell, reserveReadout } from './readout.js';

/** The scale a figure was given, or a diverging one of ±range (its negative half only when no value is > 0). */
function scaleOf(values, range, scale) {
  if (scale) {
    return scale;
  }
  return divergingScale(range, { nonPositive: finiteExtent(values)[1] <= 0 });
}

/** Line height of a column label of several lines, in CSS pixels (FONT is 12 px). */
const LABEL_LINE = 13;

/** A tick every `step` cells, step a power of two, so labels stay at least minGap pixels apart. */
function tickStep(cellSize, minGap) {
  let step = 1;
  while (step * cellSize < minGap) {
    step *= 2;
  }
  return step;
}

/** Geometry of a heatmap: axis titles above and on the left, then tick labels, then the cells. */
function heatmapLayout(width, height, rows, cols) {
  const left = 46;
  const top = 34;
  const w = width - left - 2;
  const h = height - top - 2;
  return { left, top, w, h, cellW: w / cols, cellH: h / rows };
}

function cellFinder(g, rows, cols) {
  return (x, y) => {
    const col = Math.floor((x - g.left) / g.cellW);
    const row = Math.floor((y - g.top) / g.cellH);
    return col >= 0 && row >= 0 && col < cols && row < rows ? { row, col } : null;
  };
}

/** Tick marks and labels of both axes, and the axis titles ("dimension →" above, "position ↓" on the left). */
function drawAxes(ctx, g, rows, cols, rowTitle, colTitle, colours) {
  ctx.font = FONT;
  ctx.fillStyle = colours.muted;
  ctx.strokeStyle = colours.muted;
  ctx.lineWidth = 1;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'right';
  const rowStep = tickStep(g.cellH, 22);
  for (let r = 0; r < rows; r += rowStep) {
    const y = g.top + (r + 0.5) * g.cellH;
    ctx.fillText(String(r), g.left - 16, y);
    ctx.beginPath();
    ctx.moveTo(g.left - 13, y);
    ctx.lineTo(g.left - 10, y);
    ctx.stroke();
  }
  ctx.textAlign = 'center';
  ctx.textBaseline = 'alphabetic';
  const colStep = tickStep(g.cellW, 30);
  for (let c = 0; c < cols; c += colStep) {
    const x = g.left + (c + 0.5) * g.cellW;
    ctx.fillText(String(c), x, g.top - 6);
    ctx.beginPath();
    ctx.moveTo(x, g.top - 4);
    ctx.lineTo(x, g.top - 1);
    ctx.stroke();
  }
  ctx.textAlign = 'left';
  ctx.fillText(`${colTitle} →`, g.left, 12);
  // Read top to bottom, so the arrow points the way the rows count.
  ctx.save();
  ctx.translate(8, g.top);
  ctx.rotate(Math.PI / 2);
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  ctx.fillText(`${rowTitle} →`, 0, 0);
  ctx.restore();
}

/** A heatmap's readout and legend before its first drawing, for figures drawn after a worker's result. */
export function reserveHeatmap(canvas, { legend = '' } = {}) {
  reserveReadout(canvas);
  reserveLegend(canvas, legend);
}

/**
 * Heatmap of a rows × cols table (positions × dimensions). range: ±range diverging scale, or scale (colour.js);
 * marks: [{from, to}] rows outlined, with a bracket in the gutter; rowTitle/colTitle name the axes; legend: a note
 * under the colour bar, or false for none; describe(r, c, v) and readout: see gridReadout.
 */
export function drawHeatmap(canvas, options) {
  const { values, rows, cols, range = 1, marks = [], rowTitle = 'position', colTitle = 'dimension' } = options;
  const fit = fitCanvas(canvas);
  if (!fit) {
    return;
  }
  const { ctx, width, height } = fit;
  const colours = theme();
  const scale = scaleOf(values, range, options.scale);
  const g = heatmapLayout(width, height, rows, cols);
  paintGrid(ctx, values, rows, cols, scale, g.left, g.top, g.w, g.h);
  drawAxes(ctx, g, rows, cols, rowTitle, colTitle, colours);

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

  const cursor = gridReadout(canvas, {
    rows,
    cols,
    value: (r, c) => values[r * cols + c],
    name: (r, c) => `${rowTitle} ${r}, ${colTitle} ${c}`,
    cellAt: cellFinder(g, rows, cols),
    repaint: () => drawHeatmap(canvas, options),
    describe: options.describe,
    readout: options.readout,
  });
  if (cursor) {
    outlineCell(ctx, g.left + cursor.col * g.cellW, g.top + cursor.row * g.cellH, g.cellW, g.cellH);
  }
  if (options.legend !== false) {
    showLegend(canvas, scale, { note: options.legend ?? '' });
  }
}

/**
 * Similarity matrix with row labels (sentence A) and column labels (sentence B) and values in cells (none in a
 * non-finite cell: masked). A column label may hold '\n' (lines stacked above the column when the cells are wide
 * enough, else one rotated line). range: ±range diverging scale, or scale (colour.js); rowTitle/colTitle name rows
 * and columns in the readout; legend: a note under the colour bar, or false for none. Writes what it labelled to
 * canvas.dataset.drawnText ({rows, cols, rotated, cells}).
 */
export function drawMatrix(canvas, options) {
  const { values, rows, cols, rowLabels, colLabels, range = 1, rowTitle = 'row', colTitle = 'column' } = options;
  const fit = fitCanvas(canvas);
  if (!fit) {
    return;
  }
  const { ctx, width, height } = fit;
  const colours = theme();
  const scale = scaleOf(values, range, options.scale);
  ctx.font = FONT;
  const longest = Math.max(...rowLabels.map((s) => ctx.measureText(s).width), 20);
  const left = Math.min(Math.ceil(longest) + 10, width * 0.3);
  // A column label may have several lines ("64\nft"): side by side they need only their widest line's width.
  const colLines = colLabels.map((s) => s.split('\n'));
  const lineCount = Math.max(1, ...colLines.map((l) => l.length));
  const labelWidth = colLines.map((lines) => Math.max(...lines.map((s) => ctx.measureText(s).width), 20));
  let top = 22 + LABEL_LINE * (lineCount - 1);
  let size = Math.min((width - left - 2) / cols, (height - top - 2) / rows);
  // Side by side while each label shown (every `step` columns) fits its span and keeps 4 px from the next one.
  const step = tickStep(size, 14);
  const rotateColumns = labelWidth.some(
    (w, c) =>
      c % step === 0 && (w > step * size || (c + step < cols && (w + labelWidth[c + step]) / 2 + 4 > step * size)),
  );
  if (rotateColumns) {
    top = Math.min(Math.ceil(Math.max(...colLabels.map((s) => ctx.measureText(s).width), 20)) + 10, height * 0.3);
    size = Math.min((width - left - 2) / cols, (height - top - 2) / rows);
  }
  // What was written, for tests and for a reader of the DOM: the labels shown and each cell's number ('' if none).
  const drawnText = { rows: [], cols: [], rotated: rotateColumns, cells: [] };

  ctx.fillStyle = colours.fg;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'right';
  const every = tickStep(size, 14);
  rowLabels.forEach((label, r) => {
    if (r % every === 0) {
      const shown = ellipsize(ctx, label, left - 8);
      ctx.fillText(shown, left - 6, top + (r + 0.5) * size);
      drawnText.rows.push(shown);
    }
  });
  colLabels.forEach((label, c) => {
    if (c % every !== 0) {
      return;
    }
    const x = left + (c + 0.5) * size;
    ctx.save();
    if (rotateColumns) {
      const shown = ellipsize(ctx, label.replace(/\n/g, ' '), top - 10);
      ctx.translate(x, top - 6);
      ctx.rotate(-Math.PI / 2);
      ctx.textAlign = 'left';
      ctx.fillText(shown, 0, 0);
      drawnText.cols.push(shown);
    } else {
      ctx.textAlign = 'center';
      ctx.textBaseline = 'alphabetic';
      const lines = colLines[c];
      lines.forEach((line, k) => ctx.fillText(line, x, top - 6 - LABEL_LINE * (lines.length - 1 - k)));
      drawnText.cols.push(label);
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
      ctx.fillStyle = scale.css(v);
      ctx.fillRect(x, y, size, size);
      // A masked or undefined cell (NaN) stays a plain grey square: the readout names it.
      if (showNumbers && Number.isFinite(v)) {
        ctx.fillStyle = scale.text(v);
        const s = v.toFixed(size >= 56 ? 3 : 2);
        const shown = s === '-0.000' || s === '-0.00' ? s.slice(1) : s;
        ctx.fillText(shown, x + size / 2, y + size / 2);
        drawnText.cells.push(shown);
      } else if (showNumbers) {
        drawnText.cells.push('');
      }
    }
  }
  canvas.dataset.drawnText = JSON.stringify(drawnText);
  ctx.strokeStyle = colours.border;
  ctx.lineWidth = 1;
  ctx.strokeRect(left + 0.5, top + 0.5, cols * size - 1, rows * size - 1);

  const g = { left, top, cellW: size, cellH: size };
  const cursor = gridReadout(canvas, {
    rows,
    cols,
    value: (r, c) => values[r * cols + c],
    name: (r, c) => `${rowTitle} ${rowLabels[r]}, ${colTitle} ${colLabels[c].replace(/\n/g, ' ')}`,
    cellAt: cellFinder(g, rows, cols),
    repaint: () => drawMatrix(canvas, options),
    idle: options.compact ? '' : undefined, // small multiples: the instruction once is enough (the section says it)
  });
  if (cursor) {
    outlineCell(ctx, left + cursor.col * size, top + cursor.row * size, size, size);
  }
  if (options.legend !== false) {
    showLegend(canvas, scale, { note: options.legend ?? '', compact: options.compact });
  }
}
