// The DOM helpers every section shares: element lookup, table header cells and redrawing canvases.
import { needsDrawing } from '../draw/canvas.js';

/** The element with this id (every id on the page starts with its section's id). */
export const $ = (id) => document.getElementById(id);

/** A table header cell with this text; scope 'col' or 'row', or none for a corner cell. */
export function headerCell(text, scope) {
  const th = document.createElement('th');
  if (scope) {
    th.scope = scope;
  }
  th.textContent = text;
  return th;
}

/**
 * Redraws on the next frame when a canvas of this section changes size and so lacks its drawing (canvases draw at
 * their pixel size). Not when observing starts: each canvas is then reported at the size it was just drawn at.
 */
export function redrawOnResize(sectionId, draw) {
  const observer = new ResizeObserver((entries) => {
    if (entries.some(({ target }) => needsDrawing(target))) {
      requestAnimationFrame(draw);
    }
  });
  for (const canvas of document.querySelectorAll(`#${sectionId} canvas`)) {
    observer.observe(canvas);
  }
}

/** Redraws when the reader switches between light and dark (canvas colours come from the scheme). */
export function redrawOnColourScheme(draw) {
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', draw);
}
