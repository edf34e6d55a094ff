// Vector strips: one row of colour per vector (token, position, input; or labelled rows), each strip readable with
// the keyboard like every other grid (readout.js).
import { ellipsize, fitCanvas, FONT, paintGrid, theme } from './canvas.js';
import { divergingScale } from './colour.js';
import { showLegend } from './legend.js';
import { gridReadout, outlineCell } from './readout.js';

const STRIP = { height: 14, gap: 3, blockGap: 14, top: 4 };
const PARTS = ['token', '+ position', '= input'];

/** CSS height for the strips of n tokens. */
export function stripsHeight(n) {
  return STRIP.top + Math.max(n, 1) * (3 * STRIP.height + 2 * STRIP.gap + STRIP.blockGap);
}

/**
 * Three strips per token: token embedding, position vector, input vector. tokens: [{word, position}];
 * token/position/input: Float32Array(n × dim). The colour legend is the section's own (two canvases share it).
 */
export function drawStrips(canvas, options) {
  const { tokens, dim, token, position, input, range } = options;
  const fit = fitCanvas(canvas);
  if (!fit) {
    return;
  }
  const { ctx, width } = fit;
  const colours = theme();
  const scale = options.scale ?? divergingScale(range);
  const narrow = width < 420;
  const labelW = narrow ? 76 : 110;
  const partW = narrow ? 64 : 74;
  const stripX = labelW + partW;
  const stripW = Math.max(10, width - stripX - 2);
  const parts = [token, position, input];
  const blockH = 3 * STRIP.height + 2 * STRIP.gap;
  const stripY = (r) =>
    STRIP.top + Math.floor(r / 3) * (blockH + STRIP.blockGap) + (r % 3) * (STRIP.height + STRIP.gap);
  ctx.font = FONT;
  ctx.textBaseline = 'middle';
  tokens.forEach((t, i) => {
    const y = stripY(3 * i);
    ctx.fillStyle = colours.fg;
    ctx.textAlign = 'left';
    ctx.font = `600 ${FONT}`;
    ctx.fillText(ellipsize(ctx, t.word, labelW - 8), 0, y + blockH / 2 - 7);
    ctx.font = FONT;
    ctx.fillStyle = colours.muted;
    ctx.fillText(`position ${t.position}`, 0, y + blockH / 2 + 8);
    parts.forEach((values, k) => {
      const sy = stripY(3 * i + k);
      ctx.fillStyle = colours.muted;
      ctx.textAlign = 'right';
      ctx.fillText(PARTS[k], stripX - 6, sy + STRIP.height / 2);
      paintGrid(ctx, values.subarray(i * dim, (i + 1) * dim), 1, dim, scale, stripX, sy, stripW, STRIP.height);
    });
  });
  const cellW = stripW / dim;
  const cursor = gridReadout(canvas, {
    rows: 3 * tokens.length,
    cols: dim,
    value: (r, c) => parts[r % 3][Math.floor(r / 3) * dim + c],
    name: (r, c) => {
      const t = tokens[Math.floor(r / 3)];
      return `${t.word} (position ${t.position}), ${PARTS[r % 3].replace(/^[+=] /, '')} vector, dimension ${c}`;
    },
    cellAt: (x, y) => {
      const col = Math.floor((x - stripX) / cellW);
      const row = Array.from({ length: 3 * tokens.length }, (_, r) => r).find(
        (r) => y >= stripY(r) && y < stripY(r) + STRIP.height,
      );
      return row === undefined || col < 0 || col >= dim ? null : { row, col };
    },
    repaint: () => drawStrips(canvas, options),
  });
  if (cursor) {
    outlineCell(ctx, stripX + cursor.col * cellW, stripY(cursor.row), cellW, STRIP.height);
  }
}

/** Labelled rows of dim values, one strip each: rows = [{label, values}]. options.legend: note, or false. */
export function drawRows(canvas, rows, dim, range, options = {}) {
  const fit = fitCanvas(canvas);
  if (!fit) {
    return;
  }
  const { ctx, width } = fit;
  const colours = theme();
  const scale = options.scale ?? divergingScale(range);
  const labelW = Math.min(150, width * 0.35);
  const stripW = width - labelW - 2;
  const rowY = (i) => STRIP.top + i * (STRIP.height + 8);
  ctx.font = FONT;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'right';
  rows.forEach((row, i) => {
    const y = rowY(i);
    ctx.fillStyle = colours.fg;
    ctx.fillText(ellipsize(ctx, row.label, labelW - 8), labelW - 6, y + STRIP.height / 2);
    paintGrid(ctx, row.values, 1, dim, scale, labelW, y, stripW, STRIP.height);
  });
  const cellW = stripW / dim;
  const cursor = gridReadout(canvas, {
    rows: rows.length,
    cols: dim,
    value: (r, c) => rows[r].values[c],
    name: (r, c) => `${rows[r].label}, dimension ${c}`,
    cellAt: (x, y) => {
      const row = Math.floor((y - STRIP.top) / (STRIP.height + 8));
      const col = Math.floor((x - labelW) / cellW);
      const inside = row >= 0 && row < rows.length && y - rowY(row) < STRIP.height && col >= 0 && col < dim;
      return inside ? { row, col } : null;
    },
    repaint: () => drawRows(canvas, rows, dim, range, options),
    label: `${rows.length} rows of ${dim} values: ${rows.map((row) => row.label).join('; ')}`,
  });
  if (cursor) {
    outlineCell(ctx, labelW + cursor.col * cellW, rowY(cursor.row), cellW, STRIP.height);
  }
  if (options.legend !== false) {
    showLegend(canvas, scale, { note: options.legend ?? '' });
  }
}
