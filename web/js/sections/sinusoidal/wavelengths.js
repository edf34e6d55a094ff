// Section 4's table of every (sin, cos) pair for the sliders' d and base: its angle per position θ_i, read off the
// library's PE(1) (sin θ_i and cos θ_i), and its wavelength 2π/θ_i.
import { $ } from '../../ui/dom.js';
import { scientific } from '../../ui/format.js';

/** Thin-space thousands, as the page writes counts (62 832); one decimal below 1000. */
export function positionsText(x) {
  if (x < 1000) {
    return x.toFixed(1);
  }
  return String(Math.round(x)).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
}

const angleText = (x) => (x >= 0.001 ? x.toPrecision(4) : scientific(x));

/** θ_i of every pair from the library's row 1: atan2(PE(1, 2i), PE(1, 2i+1)), exact for θ_i ≤ 1 < π. */
export function pairAngles(encoding, dim) {
  const one = encoding.row(1);
  return Array.from({ length: dim / 2 }, (_, i) => Math.atan2(one[2 * i], one[2 * i + 1]));
}

export function updateWavelengths(encoding, { dim, base }) {
  const angles = pairAngles(encoding, dim);
  const rows = angles.map((theta, i) => {
    const tr = document.createElement('tr');
    tr.dataset.theta = String(theta);
    for (const text of [String(i), `${2 * i}, ${2 * i + 1}`, angleText(theta), positionsText((2 * Math.PI) / theta)]) {
      tr.insertCell().textContent = text;
    }
    return tr;
  });
  $('sinusoidal-wavelengths-body').replaceChildren(...rows);
  const note = $('sinusoidal-wavelengths-note');
  note.textContent = `d = ${dim}, base ${base}: ${dim / 2} pairs, θᵢ = ${base}^(−2i/${dim}), from ${positionsText(2 * Math.PI)} to ${positionsText((2 * Math.PI) / angles.at(-1))} positions per turn; scroll the table for every pair.`;
  note.dataset.pairs = String(angles.length);
}
