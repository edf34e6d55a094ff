// Keyboard and pointer readout for the drawn figures: a canvas is a picture, so every grid (heatmap, matrix, strips)
// and every scatter takes focus, moves a cursor with the arrow keys or the pointer, and names the value under it
// in a live text beside the figure. The draw functions call gridReadout after painting; it returns the cursor.

const states = new WeakMap();
const IDLE = 'Point at a cell, or focus the figure (Tab) and use the arrow keys, to read its value.';

/**
 * Creates a figure's readout before its first drawing, for figures drawn late (after a worker's result): the
 * page then does not move when the figure arrives.
 */
export function reserveReadout(canvas, idle = IDLE) {
  const out = readoutElement(canvas);
  if (!out.textContent) {
    out.textContent = idle;
  }
}

/** Number as the readout shows it: 4 decimals, or 4 significant digits for large or tiny values; − for minus. */
export function readoutNumber(v) {
  if (!Number.isFinite(v)) {
    return String(v);
  }
  const a = Math.abs(v);
  const s = a !== 0 && (a < 1e-3 || a >= 1e4) ? v.toExponential(3) : v.toFixed(4);
  // A true minus sign: screen readers say "minus", not "dash".
  return /^-0\.0+$/.test(s) ? s.slice(1) : s.replace(/^-/, '−');
}

/** The live text next to a canvas (created once, after the canvas or its .heatmap-frame), or the given one. */
function readoutElement(canvas, given) {
  if (given) {
    return given;
  }
  const extras = figureExtras(canvas);
  let p = extras.querySelector(':scope > .readout');
  if (!p) {
    p = document.createElement('p');
    p.className = 'readout';
    p.setAttribute('aria-live', 'polite');
    if (canvas.id) {
      p.id = `${canvas.id}-readout`;
      p.dataset.testid = p.id;
    }
    extras.prepend(p);
  }
  return p;
}

/** A box right after the figure's canvas (and its own readout, if any) that holds readout and legend. */
export function figureExtras(canvas) {
  let anchor = canvas.closest('.heatmap-frame') ?? canvas;
  if (anchor.nextElementSibling?.classList.contains('readout')) {
    anchor = anchor.nextElementSibling; // a readout written in the page's HTML comes first
  }
  let box = anchor.nextElementSibling;
  if (!box || !box.classList.contains('figure-extras')) {
    box = document.createElement('div');
    box.className = 'figure-extras';
    anchor.after(box);
  }
  return box;
}

/**
 * grid: {rows, cols, value(r, c), name(r, c) -> "row 2 (dog), column 1 (man)", cellAt(x, y) -> {row, col} | null,
 * repaint(), idle (text before any cell is chosen), linear (arrows step through one list), readout (element),
 * describe(r, c, v) (the whole text, when name + value is not enough), label (a name when the canvas has none)}.
 */
export function gridReadout(canvas, grid) {
  let state = states.get(canvas);
  if (!state) {
    state = { cursor: null, grid };
    states.set(canvas, state);
    wire(canvas, state);
  }
  state.grid = grid;
  if (!canvas.hasAttribute('tabindex')) {
    canvas.tabIndex = 0;
  }
  if (!canvas.hasAttribute('role')) {
    canvas.setAttribute('role', 'img');
  }
  nameFromCaption(canvas, grid.label);
  const out = readoutElement(canvas, grid.readout);
  if (out.id && !(canvas.getAttribute('aria-describedby') ?? '').split(' ').includes(out.id)) {
    canvas.setAttribute('aria-describedby', `${canvas.getAttribute('aria-describedby') ?? ''} ${out.id}`.trim());
  }
  if (state.cursor && (state.cursor.row >= grid.rows || state.cursor.col >= grid.cols)) {
    state.cursor = { row: Math.min(state.cursor.row, grid.rows - 1), col: Math.min(state.cursor.col, grid.cols - 1) };
  }
  announce(out, state);
  return state.cursor;
}

/** An image needs a name: a canvas without aria-label takes its figure's caption (or its figure-title). */
function nameFromCaption(canvas, fallback) {
  const named = canvas.hasAttribute('aria-label') || canvas.hasAttribute('aria-labelledby');
  if (named && !canvas.dataset.autoLabel) {
    return;
  }
  const caption = canvas.closest('figure')?.querySelector('figcaption');
  if (caption) {
    caption.id ||= `${canvas.id || 'figure'}-caption`;
    canvas.setAttribute('aria-labelledby', caption.id);
  } else if (fallback) {
    canvas.setAttribute('aria-label', fallback);
    canvas.dataset.autoLabel = 'true'; // ours: kept up to date with the rows
  }
}

function announce(out, state) {
  const { grid, cursor } = state;
  if (!cursor) {
    if (!out.dataset.row) {
      out.textContent = grid.idle ?? IDLE;
    }
    return;
  }
  const v = grid.value(cursor.row, cursor.col);
  const shown = Number.isFinite(v) ? readoutNumber(v) : 'masked';
  const text = grid.describe?.(cursor.row, cursor.col, v) ?? `${grid.name(cursor.row, cursor.col)}: ${shown}`;
  if (out.textContent !== text) {
    out.textContent = text;
  }
  out.dataset.row = String(cursor.row);
  out.dataset.col = String(cursor.col);
  out.dataset.value = String(v);
}

function move(canvas, state, row, col) {
  const { rows, cols } = state.grid;
  state.cursor = { row: Math.max(0, Math.min(rows - 1, row)), col: Math.max(0, Math.min(cols - 1, col)) };
  state.grid.repaint();
}

function wire(canvas, state) {
  canvas.addEventListener('keydown', (event) => {
    const { rows, cols, linear } = state.grid;
    const { row, col } = state.cursor ?? { row: 0, col: 0 };
    const page = Math.max(1, Math.round(rows / 8));
    let moves;
    if (linear) {
      // One list (scatter points): every arrow steps through it in order.
      const i = row * cols + col;
      const to = (k) => [Math.floor(k / cols), k % cols];
      const n = rows * cols;
      moves = {
        ArrowUp: to(Math.max(0, i - 1)),
        ArrowLeft: to(Math.max(0, i - 1)),
        ArrowDown: to(Math.min(n - 1, i + 1)),
        ArrowRight: to(Math.min(n - 1, i + 1)),
        Home: to(0),
        End: to(n - 1),
      };
    } else {
      moves = {
        ArrowUp: [row - 1, col],
        ArrowDown: [row + 1, col],
        ArrowLeft: [row, col - 1],
        ArrowRight: [row, col + 1],
        PageUp: [row - page, col],
        PageDown: [row + page, col],
        Home: [row, 0],
        End: [row, cols - 1],
      };
    }
    if (!(event.key in moves)) {
      return;
    }
    event.preventDefault();
    if (!state.cursor) {
      move(canvas, state, 0, 0); // the first key shows the first cell
      return;
    }
    move(canvas, state, ...moves[event.key]);
  });
  canvas.addEventListener('focus', () => {
    if (!state.cursor) {
      move(canvas, state, 0, 0);
    }
  });
  canvas.addEventListener('pointermove', (event) => {
    const rect = canvas.getBoundingClientRect();
    const cell = state.grid.cellAt(event.clientX - rect.left, event.clientY - rect.top);
    if (cell && (!state.cursor || state.cursor.row !== cell.row || state.cursor.col !== cell.col)) {
      move(canvas, state, cell.row, cell.col);
    }
  });
}

/** Outlines a cell (x, y, w, h) so it shows on every colour of the scale: a dark line under a light one. */
export function outlineCell(ctx, x, y, w, h) {
  const cw = Math.max(w, 5);
  const ch = Math.max(h, 5);
  const cx = x + w / 2 - cw / 2;
  const cy = y + h / 2 - ch / 2;
  for (const [style, width] of [
    ['#111111', 3],
    ['#ffffff', 1.2],
  ]) {
    ctx.strokeStyle = style;
    ctx.lineWidth = width;
    ctx.strokeRect(cx - 1, cy - 1, cw + 2, ch + 2);
  }
}
