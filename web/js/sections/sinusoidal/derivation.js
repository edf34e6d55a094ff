// Section 4's opening figure: position p handed to a model four ways, after Fleetwood (2024), "You could have
// designed state of the art positional encoding": the integer, p / T, the bits of p, the library's sinusoids; then
// the property that makes the sinusoids work, the rotation that takes PE(p) to PE(p + k). The bits are plain integer arithmetic; the sinusoids are the
// library's row p (lab.positionalEncoding).
import { $ } from '../../ui/dom.js';
import { divergingScale } from '../../draw/colour.js';
import { fixed3 } from '../../ui/format.js';

const BITS = 8; // positions up to 255: p + k stays below 96 on the sliders

/** The bits of n, lowest first: bit j is 1 on runs of 2^j positions, i.e. a square wave of period 2^(j+1). */
export function bitsOf(n, count = BITS) {
  return Array.from({ length: count }, (_, j) => Math.floor(n / 2 ** j) % 2);
}

/** A row of cells, one per value, after its label: coloured by css(v) or classOf(v), with text(v) inside. */
function cellRow(values, { label, css, classOf, text, changed }) {
  const row = document.createElement('div');
  row.className = 'cell-row';
  const name = document.createElement('span');
  name.className = 'cell-row-label';
  name.textContent = label;
  row.append(name);
  const cells = document.createElement('span');
  cells.className = 'cells';
  values.forEach((v, i) => {
    const cell = document.createElement('span');
    cell.className = ['cell', classOf?.(v), changed?.[i] && 'changed'].filter(Boolean).join(' ');
    if (css) {
      cell.style.background = css(v); // CSSOM, which the page's CSP allows (no style attribute)
    }
    if (text) {
      cell.textContent = text(v);
    }
    cells.append(cell);
  });
  row.append(cells);
  return row;
}

const minus = (s) => s.replace('-', '−');

/**
 * Fills the four tries and the rotation for {dim, base, p, k} and the text length T (> p); `encoding` is the library's sinusoidal encoding
 * (at least p + k + 1 rows).
 */
export function updateDerivation(encoding, { dim, base, p, k }, length) {
  $('sinusoidal-derive-p').textContent = String(p);
  $('sinusoidal-derive-int').textContent = String(p);
  $('sinusoidal-length-out').textContent = String(length);
  const frac = $('sinusoidal-derive-frac');
  frac.textContent = fixed3(p / length);
  frac.dataset.value = String(p / length);

  // Bits of p and of p + k, lowest first, the flipped ones marked.
  const now = bitsOf(p);
  const later = bitsOf(p + k);
  const flipped = now.map((b, i) => b !== later[i]);
  const bit = { classOf: (b) => `bit-${b}`, text: (b) => String(b) };
  const flips = flipped.filter(Boolean).length;
  const bits = $('sinusoidal-derive-bits');
  bits.replaceChildren(
    cellRow(now, { label: `${p}`, ...bit }),
    cellRow(later, { label: `${p + k}`, ...bit, changed: flipped }),
  );
  bits.setAttribute(
    'aria-label',
    `Bits of ${p}, lowest first: ${now.join(' ')}; of ${p} + ${k}: ${later.join(' ')}, ${flips} flipped`,
  );
  bits.dataset.bits = now.join('');
  bits.dataset.flips = String(flips);

  // The library's PE(p): dimension 0 (fastest) to d − 1 (slowest), as the bits run lowest first.
  const row = encoding.row(p);
  const scale = divergingScale(1);
  const waves = $('sinusoidal-derive-waves');
  waves.replaceChildren(cellRow(Array.from(row), { label: `PE(${p})`, css: scale.css }));
  waves.setAttribute('aria-label', `PE(${p}) at d = ${dim}, base ${base}: ${dim} values from −1 to 1`);
  const values = $('sinusoidal-derive-values');
  values.textContent = `d = ${dim}, base ${base}: sin ${p} = ${minus(fixed3(row[0]))}, cos ${p} = ${minus(fixed3(row[1]))}, …, PE(${p}, ${dim - 1}) = ${minus(fixed3(row[dim - 1]))}`;
  values.dataset.first = String(row[0]);

  // Every pair turns by k·θ_i, whatever p; the bits of p + k depend on p's carries.
  const theta = (i) => base ** ((-2 * i) / dim);
  const turns = [0, 1, 2]
    .filter((i) => i < dim / 2)
    .map((i) => (Number.isInteger(k * theta(i)) ? String(k * theta(i)) : fixed3(k * theta(i)))) // pair 0: θ = 1
    .join(', ');
  $('sinusoidal-derive-rotation').textContent =
    `${p} → ${p + k}: every pair turns by k·θᵢ = ${turns}, … radians, at any p; ` +
    `the bits flip ${flips} of ${BITS}, and which ones depends on p.`;
}
