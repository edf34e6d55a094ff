// Section 7's race, the RoPE scalings it reads with, at its own head (d_head, T, L, base): for each method, each
// pair's frequency over the trained one and its largest angle at L − 1 over the largest it turned at T − 1, from
// lab.ropeFrequencies. This says why NTK at s = L/T can fail here and what the race's "YaRN" does.
import { $, headerCell } from '../../ui/dom.js';

const TURN = 2 * Math.PI;

/** The scalings the race reads at L: [{name, scaling}] for factor s = L/T (and NTK at 2L/T). */
function scalings(T, L) {
  const s = L / T;
  const original = { originalContextLength: T };
  return [
    { name: `PI, s = ${s}`, scaling: { type: 'linear', factor: s, ...original } },
    { name: `NTK, s = ${s}`, scaling: { type: 'ntk', factor: s, ...original } },
    { name: `NTK, s = ${2 * s}`, scaling: { type: 'ntk', factor: 2 * s, ...original } },
    { name: `YaRN, s = ${s}`, scaling: { type: 'yarn', factor: s, ...original } },
  ];
}

/**
 * Per method and pair: ratio θ′/θ and reach, the largest angle at L − 1 over the largest at T − 1 (for a pair that
 * turned less than once in training: above 1 means angles it never saw). Returns {pairs, turns, rows}.
 */
export function scalingTable(lab, { headDim, base, T, L }) {
  const trained = lab.ropeFrequencies({ headDim, base }).inverseFrequencies;
  const turns = Array.from(trained, (theta) => ((T - 1) * theta) / TURN);
  const cycles = Array.from(trained, (theta) => (T * theta) / TURN); // the YaRN paper's r = T/λ
  const rows = scalings(T, L).map(({ name, scaling }) => {
    const scaled = lab.ropeFrequencies({ headDim, base, scaling });
    const ratio = Array.from(scaled.inverseFrequencies, (theta, i) => theta / trained[i]);
    const reach = ratio.map((r) => (r * (L - 1)) / (T - 1));
    return { name, ratio, reach, attentionFactor: scaled.attentionFactor };
  });
  return { pairs: trained.length, turns, cycles, rows };
}

const two = (x) => x.toFixed(2);

/** Fills the table and the sentence under "How the race is run". */
export function showScalings(lab, { headDim, base, T, L }) {
  const { pairs, turns, cycles, rows } = scalingTable(lab, { headDim, base, T, L });
  const head = document.createElement('tr');
  head.append(headerCell('scaling', 'col'));
  for (let i = 0; i < pairs; i += 1) {
    head.append(headerCell(`pair ${i}: θ′/θ, reach`, 'col'));
  }
  head.append(headerCell('attention factor', 'col'));
  const body = rows.map((row) => {
    const tr = document.createElement('tr');
    tr.append(headerCell(row.name, 'row'));
    row.ratio.forEach((r, i) => {
      // A pair that turned a full circle in training has seen every angle: its reach says nothing.
      tr.insertCell().textContent = `${two(r)}, ${turns[i] >= 1 ? 'all angles seen' : two(row.reach[i])}`;
    });
    tr.insertCell().textContent = row.attentionFactor.toFixed(3);
    return tr;
  });
  $('beyond-race-angles-head').replaceChildren(head);
  $('beyond-race-angles-body').replaceChildren(...body);
  $('beyond-race-angles-caption').textContent =
    `Each pair of the race’s heads (d_head = ${headDim}, base ${base}, T = ${T}, L = ${L}): its frequency over the trained one (θ′/θ), and its reach, the largest angle it turns at position ${L - 1} over the largest it turned in training (position ${T - 1}; above 1: angles it never saw). Pair 0 turned ${turns[0].toFixed(1)} times by position ${T - 1} (r = T/λ = ${((turns[0] * T) / (T - 1)).toFixed(2)}).`;
  const [, ntk, ntkWide, yarn] = rows;
  const beyond = (row) => row.reach.map((r, i) => (turns[i] < 1 && r > 1.05 ? i : -1)).filter((i) => i >= 0);
  const list = (pairsOut) =>
    pairsOut.length === 0
      ? 'none'
      : pairsOut.length === 1
        ? `pair ${pairsOut[0]}`
        : `pairs ${pairsOut.slice(0, -1).join(', ')} and ${pairsOut.at(-1)}`;
  const kept = yarn.ratio.map((r, i) => (Math.abs(r - 1) < 1e-9 ? i : -1)).filter((i) => i >= 0);
  const divided = yarn.ratio.map((r, i) => (Math.abs(r * (L / T) - 1) < 1e-9 ? i : -1)).filter((i) => i >= 0);
  const r0 = cycles[0];
  const gamma = Math.min(1, Math.max(0, (r0 - 1) / (32 - 1)));
  $('beyond-race-scalings').textContent =
    `NTK-aware scaling raises the base so that the highest-frequency pair keeps its frequency and the lowest is divided by s; the pairs between are divided by less than s. At s = L/T = ${L / T} that leaves ${list(beyond(ntk))} turning more than 5 % past any angle seen in training (Peng et al. 2023 describe this and set s above L/T in practice); at s = ${(2 * L) / T}, ${list(beyond(ntkWide))}. YaRN here follows transformers’ implementation, which ramps over pair indices (floor and ceiling of the pairs where a pair turns 32 times and once over T): at this head it keeps ${list(kept)} and divides ${list(divided)} by s, so the race’s YaRN is PI except ${list(kept)}, plus the attention factor 0.1·ln s + 1 = ${yarn.attentionFactor.toFixed(3)}. The YaRN paper defines its ramp on r = T/λ, the turns a pair makes over the training window: γ(r) = 0 below α = 1, 1 above β = 32, linear between; pair 0 (r = ${r0.toFixed(1)}) would then be blended, ${Math.round(100 * gamma)} % kept and ${Math.round(100 * (1 - gamma))} % divided by s.`;
}
