// Section 8's charts over the pairs of a head: each pair's wavelength against the window, how far each method
// slows each pair (θ′ᵢ/θᵢ), the table of pairs each method keeps, blends and divides by s, and what YaRN amounts to
// at the head shown. Every θ′ᵢ is the library's (lab.ropeFrequencies) except the paper's YaRN (paper_ramp.js).
import { showKey } from '../../draw/legend.js';
import { PALETTE } from '../../draw/plot.js';
import { $ } from '../../ui/dom.js';
import { subscript } from '../../ui/format.js';
import { drawLogChart } from './log_chart.js';
import { PAPER_ALPHA, PAPER_BETA, paperGamma } from './paper_ramp.js';
import { METHODS, YARN_PAPER, number } from './settings.js';

const TWO_PI = 2 * Math.PI;
/** Ratios this close to 1 or to 1/s count as kept or divided (float64 rounding of base^(−2i/d) / s). */
const SAME = 1e-9;

/** Pair indices to label on a chart of `half` pairs: every one when they fit, else the first, middle and last. */
const pairTicks = (half) =>
  half <= 16 ? Array.from({ length: half }, (_, i) => i) : [...new Set([0, Math.floor(half / 2), half - 1])];

/** Width of YaRN's line, drawn first and wider: a method drawn over it at the same ratios leaves its edges showing. */
const UNDER_WIDTH = 8;

export function drawWavelengths(s, unscaled) {
  const wavelengths = Array.from(unscaled.inverseFrequencies, (theta) => TWO_PI / theta);
  const half = wavelengths.length;
  const pairs = wavelengths.map((_, i) => i);
  const slow = pairs.filter((i) => wavelengths[i] > s.window);
  const fast = pairs.filter((i) => wavelengths[i] <= s.window);
  drawLogChart(
    $('scale-wavelengths'),
    [
      { xs: fast, ys: fast.map((i) => wavelengths[i]), colour: PALETTE[0], dots: 3 },
      { xs: slow, ys: slow.map((i) => wavelengths[i]), colour: PALETTE[4], dots: 3 },
    ],
    {
      xMin: -0.5,
      xMax: half - 0.5,
      xTicks: pairTicks(half),
      yMin: Math.min(wavelengths[0], s.window / 32) / 2,
      yMax: Math.max(wavelengths[half - 1], s.window) * 2,
      yLog: true,
      xLabel: `pair i (0 … ${half - 1})`,
      yLabel: 'λᵢ (tokens)',
      levels: [
        { y: s.window, label: 'T' },
        { y: s.window / 4, label: 'T/4' },
        { y: s.window / 32, label: 'T/32' },
      ],
    },
  );
  showKey($('scale-wavelengths'), [
    { label: 'λᵢ ≤ T', colour: PALETTE[0] },
    { label: 'λᵢ > T: never a whole turn inside a window', colour: PALETTE[4] },
  ]);
  const out = $('scale-wavelengths-result');
  const longest = wavelengths[half - 1];
  out.textContent =
    slow.length === 0
      ? `All ${half} pairs have λᵢ ≤ T = ${number(s.window)}: each sweeps its whole circle within a window.`
      : `${slow.length} of the ${half} pairs (i = ${slow[0]} … ${half - 1}) have λᵢ > T = ${number(s.window)}: they never complete a turn inside a window. The slowest, λ${subscript(half - 1)} = ${number(longest)} tokens, turns ${(s.window / longest).toPrecision(3)} times in T; the fastest (λ₀ = 2π) turns ${number(s.window / wavelengths[0])} times.`;
  out.dataset.count = String(slow.length);
  out.dataset.pairs = String(half);
  out.dataset.first = String(slow[0] ?? half);
}

/** Runs of consecutive pair indices as text: "0–12 (13)", or "—". */
function runs(indices) {
  if (indices.length === 0) {
    return '—';
  }
  const parts = [];
  let start = indices[0];
  for (let k = 1; k <= indices.length; k++) {
    if (k === indices.length || indices[k] !== indices[k - 1] + 1) {
      const end = indices[k - 1];
      parts.push(end === start ? String(start) : `${start}–${end}`);
      start = indices[k];
    }
  }
  return `${parts.join(', ')} (${indices.length})`;
}

/** The pairs a method keeps, divides by s, and blends, from its ratios θ′ᵢ/θᵢ. */
function bands(ratios, factor) {
  const pairs = ratios.map((_, i) => i);
  const kept = pairs.filter((i) => Math.abs(ratios[i] - 1) <= SAME);
  const divided = pairs.filter((i) => !kept.includes(i) && Math.abs(ratios[i] * factor - 1) <= SAME);
  const between = pairs.filter((i) => !kept.includes(i) && !divided.includes(i));
  return { kept, divided, between };
}

function bandRow(method, ratios, factor, attentionFactor) {
  const { kept, divided, between } = bands(ratios, factor);
  const tr = document.createElement('tr');
  tr.dataset.method = method.type;
  tr.dataset.kept = String(kept.length);
  tr.dataset.divided = String(divided.length);
  tr.dataset.ratios = JSON.stringify(ratios);
  tr.dataset.attentionFactor = String(attentionFactor);
  const th = document.createElement('th');
  th.scope = 'row';
  th.textContent = method.label;
  tr.append(th);
  for (const text of [runs(kept), runs(between), runs(divided), attentionFactor.toFixed(4)]) {
    tr.append(Object.assign(document.createElement('td'), { textContent: text }));
  }
  return tr;
}

/** scaled: method type → the library's frequencies; paper: the paper's YaRN θ′ᵢ (attention factor as YaRN's). */
export function drawRatios(s, unscaled, scaled, paper) {
  const theta = unscaled.inverseFrequencies;
  const pairs = Array.from(theta, (_, i) => i);
  const ratiosOf = (frequencies) => pairs.map((i) => frequencies[i] / theta[i]);
  const series = [
    ...METHODS.map((m) => ({
      ...m,
      xs: pairs,
      ys: ratiosOf(scaled.get(m.type).inverseFrequencies),
      width: m.type === 'yarn' ? UNDER_WIDTH : m.type === 'dynamic' ? 2 : 2.5,
    })),
    { ...YARN_PAPER, xs: pairs, ys: ratiosOf(paper), width: 2 },
  ];
  // YaRN first: it shares its ratios with PI, Llama 3.1 or the paper's ramp over many pairs, sometimes all of them.
  const drawn = [...series.filter((m) => m.type === 'yarn'), ...series.filter((m) => m.type !== 'yarn')];
  drawLogChart($('scale-ratios'), drawn, {
    xMin: -0.5,
    xMax: pairs.length - 0.5,
    xTicks: pairTicks(pairs.length),
    yMin: 1 / s.factor / 1.6,
    yMax: 1.6,
    yLog: true,
    xLabel: `pair i (0 … ${pairs.length - 1})`,
    yLabel: 'θ′ᵢ / θᵢ',
    levels: [{ y: 1, label: 'kept' }, ...(s.factor > 1 ? [{ y: 1 / s.factor, label: '÷ s' }] : [])],
  });
  const same = (a, b) => a.ys.every((y, i) => Math.abs(y - b.ys[i]) <= SAME);
  showKey(
    $('scale-ratios'),
    series.map((m) => {
      const notes = [];
      if (m.dash) {
        notes.push(`dashed${m.type === 'dynamic' ? '; one pass over L' : ''}`);
      }
      if (m.width === UNDER_WIDTH) {
        notes.push('wide, under the others');
      }
      // At s = 1 every method keeps every pair (the YaRN result says so): no pair of lines is singled out.
      const twins = s.factor > 1 ? series.filter((o) => o !== m && !o.dash && !m.dash && same(m, o)) : [];
      if (twins.length > 0) {
        notes.push(`the same as ${twins.map((o) => o.label).join(' and ')} here`);
      }
      return { label: notes.length > 0 ? `${m.label} (${notes.join('; ')})` : m.label, colour: m.colour };
    }),
  );
  $('scale-ratios').dataset.twins = JSON.stringify(
    series.flatMap((m, i) =>
      series
        .slice(i + 1)
        .filter((o) => same(m, o))
        .map((o) => [m.type, o.type]),
    ),
  );
  const yarnA = scaled.get('yarn').attentionFactor;
  $('scale-bands-body').replaceChildren(
    ...METHODS.map((m) =>
      bandRow(m, ratiosOf(scaled.get(m.type).inverseFrequencies), s.factor, scaled.get(m.type).attentionFactor),
    ),
    bandRow(YARN_PAPER, ratiosOf(paper), s.factor, yarnA),
  );
  describeYarn(s, unscaled, ratiosOf(scaled.get('yarn').inverseFrequencies), ratiosOf(paper), yarnA);
}

const pairList = (indices) =>
  indices.length === 1 ? `pair ${indices[0]}` : `pairs ${runs(indices).replace(/ \(\d+\)$/, '')}`;

/** What transformers' YaRN amounts to at this head, and where the paper's ramp differs from it. */
function describeYarn(s, unscaled, ratios, paperRatios, a) {
  const out = $('scale-yarn-result');
  const settings = `At d = ${s.headDim}, T = ${number(s.window)}, s = ${s.factor}`;
  if (s.factor === 1) {
    out.textContent = `${settings} no method changes any frequency (YaRN’s a = ${a.toFixed(4)}).`;
    out.dataset.piExcept = '';
    return;
  }
  const { kept, divided, between } = bands(ratios, s.factor);
  let text;
  if (between.length === 0 && kept.length > 0 && divided.length > 0) {
    text = `${settings} the library’s YaRN (transformers’ rule) keeps ${pairList(kept)} and divides ${pairList(divided)} by s, with no pair between: it is PI except ${pairList(kept)}, with the attention factor a = ${a.toFixed(4)} (scores × a² = ${(a * a).toFixed(4)}).`;
    out.dataset.piExcept = JSON.stringify(kept);
  } else {
    text = `${settings} the library’s YaRN (transformers’ rule) keeps ${kept.length}, blends ${between.length} and divides ${divided.length} of the ${ratios.length} pairs by s (a = ${a.toFixed(4)}).`;
    out.dataset.piExcept = '';
  }
  const theta = unscaled.inverseFrequencies;
  const differ = ratios.map((_, i) => i).filter((i) => Math.abs(ratios[i] - paperRatios[i]) > SAME);
  if (differ.length === 0) {
    text += ' The paper’s γ(r) gives the same frequencies.';
  } else {
    const shown = differ.slice(0, 2).map((i) => {
      const turns = (s.window * theta[i]) / (2 * Math.PI);
      return `pair ${i} (r = ${turns.toPrecision(3)} turns, γ = ${paperGamma(turns).toFixed(3)}): θ′/θ = ${paperRatios[i].toPrecision(3)} with the paper’s ramp, ${ratios[i].toPrecision(3)} with transformers’`;
    });
    const more = differ.length > 2 ? `; and ${differ.length - 2} more` : '';
    text += ` The paper’s γ(r) (α = ${PAPER_ALPHA}, β = ${PAPER_BETA}, linear in r) differs at ${differ.length} pair${differ.length === 1 ? '' : 's'}: ${shown.join('; ')}${more}.`;
  }
  out.textContent = text;
  out.dataset.differ = String(differ.length);
}
