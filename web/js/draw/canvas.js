// The canvas every figure draws on: sized from CSS (no layout shift) with a backing store that follows
// devicePixelRatio, the theme's colours, the figures' font and the few painting steps they share. Imports nothing:
// every drawing module (grids, strips, legends, plots) builds on it.

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
    panel: get('--panel'),
    bg: get('--bg'),
  };
}

const fitted = new WeakSet(); // canvases fitCanvas sized: they hold a drawing
const skipped = new WeakSet(); // canvases asked to draw while hidden, not drawn since

/** Backing-store pixels per CSS pixel. */
const pixelRatio = () => Math.min(window.devicePixelRatio || 1, 3);

/** Sizes the backing store to the CSS box; returns a context in CSS pixels, or null when hidden. */
export function fitCanvas(canvas) {
  const width = canvas.clientWidth;
  const height = canvas.clientHeight;
  if (width === 0 || height === 0) {
    skipped.add(canvas);
    return null;
  }
  skipped.delete(canvas);
  fitted.add(canvas);
  const dpr = pixelRatio();
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

/**
 * True when a shown canvas lacks the drawing its figure asked for at its present size: it holds one made at another
 * size, or its last one was skipped while it was hidden. A canvas no figure has drawn yet needs nothing.
 */
export function needsDrawing(canvas) {
  const width = canvas.clientWidth;
  const height = canvas.clientHeight;
  if (width === 0 || height === 0) {
    return false; // drawn when it shows again
  }
  const dpr = pixelRatio();
  return (
    skipped.has(canvas) ||
    (fitted.has(canvas) && (canvas.width !== Math.round(width * dpr) || canvas.height !== Math.round(height * dpr)))
  );
}

export const FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

/** Paints a rows × cols value grid into the rectangle (x, y, w, h), one cell per value. */
export function paintGrid(ctx, values, rows, cols, scale, x, y, w, h) {
  const image = new ImageData(cols, rows);
  for (let i = 0; i < rows * cols; i++) {
    const [r, g, b] = scale.rgb(values[i]);
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

/** Text cut to maxWidth pixels, with an ellipsis when it did not fit. */
export function ellipsize(ctx, text, maxWidth) {
  if (ctx.measureText(text).width <= maxWidth) {
    return text;
  }
  let s = text;
  while (s.length > 1 && ctx.measureText(s + '…').width > maxWidth) {
    s = s.slice(0, -1);
  }
  return s + '…';
}

/** The plot area's border and its y-axis labels, right-aligned left of it: ticks are [{y (pixels), label}]. */
export function drawPlotFrame(ctx, colours, { left, top, w, h }, ticks) {
  ctx.strokeStyle = colours.border;
  ctx.lineWidth = 1;
  ctx.strokeRect(left + 0.5, top + 0.5, w, h);
  ctx.fillStyle = colours.muted;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const { y, label } of ticks) {
    ctx.fillText(label, left - 4, y);
  }
}
