// Colour legends drawn next to their figure: a bar with the scale's range in numbers, so a figure with its own
// scale (one per ALiBi head, per matrix, per table) says which numbers its colours stand for; the categorical key
// under a scatter; and the fixed −1 to 1 bars written in the sections' HTML.
import { fitCanvas } from './canvas.js';
import { divergingScale } from './colour.js';
import { figureExtras, readoutNumber } from './readout.js';

/** A legend end: the readout's number without trailing zeros (−0.875, not −0.8750); whole above 100. */
function tick(v) {
  if (Math.abs(v) >= 100) {
    return v.toFixed(0).replace(/^-/, '−');
  }
  const s = readoutNumber(v);
  return s.includes('e') ? s : s.replace(/0+$/, '').replace(/\.$/, '');
}

/** The legend element of a figure (bar, ticks, note), created on first use in the figure's extras box. */
function legendElement(canvas, compact) {
  const extras = figureExtras(canvas);
  let legend = extras.querySelector(':scope > .legend');
  if (!legend) {
    legend = document.createElement('div');
    legend.className = compact ? 'legend compact' : 'legend';
    if (canvas.id) {
      legend.dataset.testid = `${canvas.id}-legend`;
    }
    const bar = document.createElement('canvas');
    bar.className = 'scale-bar';
    bar.setAttribute('aria-hidden', 'true');
    const ticks = document.createElement('div');
    ticks.className = 'legend-ticks';
    const text = document.createElement('p');
    text.className = 'note legend-note';
    legend.append(bar, ticks, text);
    extras.append(legend);
  }
  return legend;
}

/** A legend with its note and no numbers yet, before the figure's first drawing (see reserveReadout). */
export function reserveLegend(canvas, note) {
  const [, ticks, text] = legendElement(canvas, false).children;
  if (!ticks.childElementCount) {
    ticks.replaceChildren(...[0, 1, 2].map(() => Object.assign(document.createElement('span'), { textContent: '…' })));
  }
  text.textContent = note;
}

/**
 * Shows the legend of scale ({kind, min, max, css}) under canvas. options: {note (text after the bar), compact}.
 * The legend element carries data-min and data-max for tests, and its ticks are text (not only colour).
 */
export function showLegend(canvas, scale, { note = '', compact = false } = {}) {
  const legend = legendElement(canvas, compact);
  const [bar, ticks, text] = legend.children;
  const mid = scale.kind === 'diverging' && scale.max > 0 ? 0 : (scale.min + scale.max) / 2;
  const labels = [scale.min, mid, scale.max].map(tick);
  if (compact) {
    labels[1] = ''; // a small legend has room for its two ends only
  }
  if (scale.kind === 'diverging' && scale.max > 0) {
    labels[2] = `+${labels[2]}`; // a signed scale says so at both ends
  }
  if (ticks.textContent !== labels.join('')) {
    ticks.replaceChildren(
      ...labels.map((label) => {
        const span = document.createElement('span');
        span.textContent = label;
        return span;
      }),
    );
  }
  ticks.setAttribute('aria-label', `Colour scale from ${labels[0]} to ${labels[2]}`);
  // A figure's own scale says how it was chosen (colour.js ownScale), after the section's note.
  const full = [note, scale.note].filter(Boolean).join(' ');
  text.textContent = full;
  text.hidden = !full;
  legend.dataset.min = String(scale.min);
  legend.dataset.max = String(scale.max);
  paintScaleBar(bar, scale);
}

/** A horizontal bar of scale from its min (left) to its max (also for a legend written in a section's HTML). */
export function paintScaleBar(canvas, scale) {
  const fit = fitCanvas(canvas);
  if (!fit) {
    return;
  }
  const { ctx, width, height } = fit;
  for (let x = 0; x < width; x++) {
    ctx.fillStyle = scale.css(scale.min + ((scale.max - scale.min) * x) / Math.max(1, width - 1));
    ctx.fillRect(x, 0, 1, height);
  }
}

/** A key of categorical colours under a scatter: items = [{label, colour}]. */
export function showKey(canvas, items) {
  const extras = figureExtras(canvas);
  let key = extras.querySelector(':scope > .key');
  if (!key) {
    key = document.createElement('ul');
    key.className = 'key';
    if (canvas.id) {
      key.dataset.testid = `${canvas.id}-key`;
    }
    extras.append(key);
  }
  const signature = items.map((i) => `${i.label}/${i.colour}`).join('|');
  if (key.dataset.signature === signature) {
    return;
  }
  key.dataset.signature = signature;
  key.replaceChildren(
    ...items.map(({ label, colour }) => {
      const li = document.createElement('li');
      const swatch = document.createElement('canvas');
      swatch.className = 'swatch';
      swatch.width = 12;
      swatch.height = 12;
      swatch.setAttribute('aria-hidden', 'true');
      const c = swatch.getContext('2d');
      c.fillStyle = colour;
      c.beginPath();
      c.arc(6, 6, 5, 0, 2 * Math.PI);
      c.fill();
      li.append(swatch, label);
      return li;
    }),
  );
}

/** A horizontal colour bar from -1 to 1 (the static legends written in the sections' HTML). */
export function drawLegend(canvas) {
  const fit = fitCanvas(canvas);
  if (!fit) {
    return;
  }
  const { ctx, width, height } = fit;
  const scale = divergingScale(1);
  for (let x = 0; x < width; x++) {
    ctx.fillStyle = scale.css((2 * x) / Math.max(1, width - 1) - 1);
    ctx.fillRect(x, 0, 1, height);
  }
}
