// Section 4, below the rotation: the four terms of an attention score (x + PE(p))ᵀW(x′ + PE(p′)) with W = R_k and
// the key k tokens back, over 64 query positions, and the ±k symmetry of PE(p)·PE(p+k). Dot products from the
// library's kernel.
import { $ } from '../../ui/dom.js';
import { fixed3, scientific } from '../../ui/format.js';

const TOKEN_SEED = 5; // the two token vectors x and x′
const POSITIONS = 64; // query positions k…k+63; they stay below the encoding's 128 rows (k ≤ 32)

/** Rows of the table: the term, what it pairs, and which vectors it takes: aᵀW b = a·(R_k b). */
const TERMS = [
  { label: 'xᵀW x′', parts: 'content, content', query: 'x', key: 'x2' },
  { label: 'xᵀW PE(p′)', parts: 'content, position', query: 'x', key: 'pe2' },
  { label: 'PE(p)ᵀW x′', parts: 'position, content', query: 'pe', key: 'x2' },
  { label: 'PE(p)ᵀW PE(p′)', parts: 'position, position', query: 'pe', key: 'pe2' },
];

const spreadText = (s) => (s === 0 ? '0' : s < 0.0005 ? scientific(s) : s.toFixed(3));

/**
 * Fills the terms table and the symmetry line. `rotate(v, k, dim, base)` is section 4's R_k; `encoding` the
 * library's sinusoidal table (at least 128 rows).
 */
export function updateTerms(lab, encoding, rotate, { dim, base, p, k }) {
  const tokens = lab.tokenEmbedding({ vocabSize: 2, dim, seed: TOKEN_SEED, stddev: 1 });
  const table = tokens.table();
  tokens.dispose();
  const x = table.subarray(0, dim);
  const x2 = table.subarray(dim, 2 * dim);
  const Rx2 = rotate(x2, k, dim, base);
  const values = TERMS.map(() => []);
  for (let q = k; q < k + POSITIONS; q++) {
    const queries = { x, pe: encoding.row(q) };
    const keys = { x2: Rx2, pe2: rotate(encoding.row(q - k), k, dim, base) }; // R_k · key, the key at q − k
    TERMS.forEach((term, n) => values[n].push(lab.kernels.dot(queries[term.query], keys[term.key])));
  }
  const body = TERMS.map((term, n) => {
    const min = Math.min(...values[n]);
    const max = Math.max(...values[n]);
    const tr = document.createElement('tr');
    tr.dataset.min = String(min);
    tr.dataset.max = String(max);
    const th = document.createElement('th');
    th.scope = 'row';
    const parts = document.createElement('small');
    parts.textContent = term.parts;
    th.append(term.label, document.createElement('br'), parts);
    tr.append(th);
    for (const cell of [fixed3(min), fixed3(max), spreadText(max - min)]) {
      tr.insertCell().textContent = cell.replace('-', '−'); // a true minus, as the readouts write it
    }
    return tr;
  });
  $('sinusoidal-terms-body').replaceChildren(...body);
  $('sinusoidal-terms-settings').textContent =
    `d = ${dim}, base ${base}, k = ${k}; x and x′ the two rows of a table drawn N(0, 1) with seed ${TOKEN_SEED}.`;

  const q = p + k;
  const centre = encoding.row(q);
  const back = lab.kernels.dot(centre, encoding.row(p));
  const ahead = lab.kernels.dot(centre, encoding.row(q + k));
  const out = $('sinusoidal-symmetry');
  out.textContent = `From position ${q}: ${k} back, PE(${q})·PE(${p}) = ${fixed3(back)}; ${k} ahead, PE(${q})·PE(${q + k}) = ${fixed3(ahead)} (difference ${spreadText(Math.abs(back - ahead))}, float32 rounding).`;
  out.dataset.back = String(back);
  out.dataset.ahead = String(ahead);
  out.dataset.state = `${dim}/${base}/${p}/${k}`;
}
