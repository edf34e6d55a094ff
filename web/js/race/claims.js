// Section 7's race: what the long-context literature predicts, set against this run's numbers. Each verdict counts
// the seeds for which the comparison holds, so a prediction is reported as seen, never assumed; a passkey run that
// never learned the task at T is no evidence about reading longer, so passkey verdicts count only the seeds that
// learned it (passkey_learning.js). No DOM.
import { learnedSeeds } from './passkey_learning.js';
import { NTK_WIDE } from './plan.js';
import { accuracyCell, lossCurve } from './stats.js';

const signed = (x) =>
  x
    .toFixed(2)
    .replace(/^-(?=.*[1-9])/, '−')
    .replace(/^-/, '');
const f2 = signed;
const pct = (x) => `${Math.round(100 * x)} %`;
/** A change in words: "a rise of 0.21", "a fall of 0.01", "no change (0.00)". */
const change = (x) =>
  x.toFixed(2) === '0.00' || x.toFixed(2) === '-0.00'
    ? 'no change (0.00)'
    : `a ${x > 0 ? 'rise' : 'fall'} of ${f2(Math.abs(x))}`;

/**
 * How many seeds a comparison holds for: a[i] better than b[i], over the seeds i that `counted` keeps (all by
 * default). {k, n, text}: "holds for every seed (3 of 3)", "holds for 2 of 3 seeds", "does not hold (0 of 3
 * seeds)", or, when no seed counts, "cannot be checked (no seed counts)".
 */
export function verdict(a, b, better, counted = a.map(() => true)) {
  const kept = a.map((_, i) => i).filter((i) => counted[i]);
  const n = kept.length;
  const k = kept.filter((i) => better(a[i], b[i])).length;
  if (n === 0) {
    return { k, n, text: 'cannot be checked (no seed counts)' };
  }
  if (k === n) {
    return { k, n, text: `holds for every seed (${k} of ${n})` };
  }
  return { k, n, text: k === 0 ? `does not hold (0 of ${n} seeds)` : `holds for ${k} of ${n} seeds` };
}

const above = (x, y) => x > y;
const below = (x, y) => x < y;
const both = (a, b) => a.map((x, i) => x && b[i]);
const the = (k, n) => (n === 1 ? 'the one seed' : k === n ? `all ${n} seeds` : `${k} of ${n} seeds`);

/**
 * A passkey verdict with the seeds it counts: "holds for every seed (2 of 2) (counting the 2 of 3 seeds that learned
 * it at 32)", or "cannot be checked: no seed learned it at 32". `which` names whose learning counts.
 */
function keysText(v, mask, T, which = '') {
  if (v.n === 0) {
    return `cannot be checked: no seed${which} learned the passkey at ${T}`;
  }
  const k = mask.filter(Boolean).length;
  const counted =
    which !== ''
      ? `seeds where${which} learned it at ${T}`
      : k === mask.length
        ? `${the(k, mask.length)} learned it at ${T}`
        : `counting the ${k} of ${mask.length} seeds that learned it at ${T}`;
  return `${v.text} (${counted})`;
}

/** Per run (seed), the passkey accuracy at `length` averaged over depths, zero-shot. */
const accuracyAt = (runs, length) => accuracyCell(runs, length, false)?.perSeed ?? null;

/**
 * The claims, [{id, prediction, seen, verdict}], for the schemes whose runs are all in: runs.language and
 * runs.passkey map a scheme to its runs (one per seed), T the training length, L the longest length read.
 */
export function raceClaims({ language, passkey }, T, L) {
  const ranges = [
    [0, T],
    [T, 2 * T],
    [2 * T, L],
    [T, L],
  ];
  const curve = (scheme, fineTuned) =>
    language.has(scheme) ? lossCurve(language.get(scheme), L, fineTuned, ranges) : null;
  const range = (c, from, to) => c.byRange.find((r) => r.from === from && r.to === to);
  const rise = (c) => range(c, 2 * T, L).perSeed.map((x, i) => x - range(c, 0, T).perSeed[i]);
  const learned = (scheme) => (passkey.has(scheme) ? learnedSeeds(passkey.get(scheme), T) : null);
  const claims = [];

  const rope = curve('rope', false);
  const ropeLearned = learned('rope');
  if (rope && ropeLearned) {
    const inside = range(rope, 0, T);
    const far = range(rope, 2 * T, L);
    const v = verdict(far.perSeed, inside.perSeed, above);
    const keys = verdict(accuracyAt(passkey.get('rope'), L), accuracyAt(passkey.get('rope'), T), below, ropeLearned);
    claims.push({
      id: 'rope',
      prediction: 'RoPE read past T with its trained frequencies breaks down (Press et al. 2022; Chen et al. 2023).',
      seen: `Zero-shot loss ${f2(inside.mean)} at positions 0–${T - 1}, ${f2(far.mean)} at ${2 * T}–${L - 1}: higher there ${v.text}. Passkey accuracy at ${L} below that at ${T} ${keysText(keys, ropeLearned, T)}.`,
      verdict: v,
    });
  }

  const pi = curve('rope_pi', false);
  const piTuned = curve('rope_pi', true);
  if (rope && pi && piTuned) {
    const piInside = range(pi, 0, T);
    const ropeInside = range(rope, 0, T);
    const degrades = verdict(piInside.perSeed, ropeInside.perSeed, above);
    const zero = range(pi, T, L);
    const tuned = range(piTuned, T, L);
    const recovers = verdict(tuned.perSeed, zero.perSeed, below);
    claims.push({
      id: 'pi',
      prediction:
        'Position Interpolation degrades zero-shot and recovers with a short fine-tune at the longer length (Chen et al. 2023).',
      seen: `Read at ${L} zero-shot, PI squeezes every position ${L / T}×: loss ${f2(piInside.mean)} at 0–${T - 1} against ${f2(ropeInside.mean)} for the same model unscaled, higher ${degrades.text}. Past T it falls from ${f2(zero.mean)} zero-shot to ${f2(tuned.mean)} after fine-tuning: lower ${recovers.text}.`,
      verdict: { k: Math.min(degrades.k, recovers.k), n: degrades.n },
    });
  }

  const ntk = curve('rope_ntk', false);
  const ntkWide = curve(NTK_WIDE, false);
  const yarn = curve('rope_yarn', false);
  if (pi && ntk && yarn && ntkWide) {
    const p = range(pi, T, L);
    const n = range(ntk, T, L);
    const w = range(ntkWide, T, L);
    const y = range(yarn, T, L);
    const ntkWins = verdict(n.perSeed, p.perSeed, below);
    const wideWins = verdict(w.perSeed, p.perSeed, below);
    const yarnWins = verdict(y.perSeed, p.perSeed, below);
    const split = [
      [T, 2 * T],
      [2 * T, L],
    ].map(
      ([from, to]) =>
        `at ${from}–${to - 1} PI ${f2(range(pi, from, to).mean)}, NTK ${f2(range(ntk, from, to).mean)} / ${f2(range(ntkWide, from, to).mean)}, YaRN ${f2(range(yarn, from, to).mean)}`,
    );
    claims.push({
      id: 'ntk-yarn',
      prediction: `NTK-aware scaling and YaRN beat PI without fine-tuning (Peng et al. 2023). Peng et al. also note that NTK-aware scaling at s = L/T sends some dimensions past the angles they were trained on, so in practice s is set above L/T: here s = ${L / T} and s = ${(2 * L) / T}.`,
      seen: `Zero-shot loss at positions ${T}–${L - 1}: PI ${f2(p.mean)}, NTK with s = ${L / T} ${f2(n.mean)}, NTK with s = ${(2 * L) / T} ${f2(w.mean)}, YaRN ${f2(y.mean)}. NTK (s = ${L / T}) below PI ${ntkWins.text}; NTK (s = ${(2 * L) / T}) below PI ${wideWins.text}; YaRN below PI ${yarnWins.text}. By range, ${split.join('; ')} (NTK at s = ${L / T} / ${(2 * L) / T}; each pair’s angles under “How the race is run”).`,
      // The prediction as Peng et al. apply it: NTK with s above L/T.
      verdict: { k: Math.min(wideWins.k, yarnWins.k), n: wideWins.n },
    });
  }

  const alibi = curve('alibi', false);
  const alibiLearned = learned('alibi');
  if (rope && alibi && alibiLearned) {
    const inside = range(alibi, 0, T);
    const far = range(alibi, 2 * T, L);
    const ropeRise = range(rope, 2 * T, L).mean - range(rope, 0, T).mean;
    const holds = verdict(rise(alibi), rise(rope), below);
    const kept = passkey.get('alibi').filter((_, i) => alibiLearned[i]);
    const cell = kept.length > 0 ? accuracyCell(kept, L, false) : null;
    const k = kept.length;
    const depths = cell
      ? ` Passkey at ${L}, no prediction (Press et al. measured perplexity, not retrieval): ${pct(cell.byDepth[0].mean)} with the key at the start, ${pct(cell.byDepth.at(-1).mean)} next to the question (${k === alibiLearned.length ? the(k, k) : `the ${k} of ${alibiLearned.length} seeds that learned it at ${T}`}).`
      : ` No ALiBi seed learned the passkey at ${T}.`;
    claims.push({
      id: 'alibi',
      prediction: 'ALiBi holds its loss far past T (Press et al. 2022).',
      seen: `Zero-shot loss ${f2(inside.mean)} at 0–${T - 1}, ${f2(far.mean)} at ${2 * T}–${L - 1} (${change(far.mean - inside.mean)}, against ${change(ropeRise)} for RoPE): smaller ${holds.text}.${depths}`,
      verdict: holds,
    });
  }

  const t5 = curve('t5', false);
  const t5Learned = learned('t5');
  if (rope && t5 && t5Learned && ropeLearned) {
    const degrades = verdict(range(t5, 2 * T, L).perSeed, range(t5, 0, T).perSeed, above);
    const lessThanRope = verdict(rise(t5), rise(rope), below);
    const mask = both(t5Learned, ropeLearned);
    const keys = verdict(accuracyAt(passkey.get('t5'), L), accuracyAt(passkey.get('rope'), L), above, mask);
    claims.push({
      id: 't5',
      prediction:
        'T5’s bias degrades past T, but less than RoPE (Press et al. 2022, language modelling); in small decoder-only models it generalises to longer inputs better than RoPE (Kazemnejad et al. 2023, reasoning and arithmetic tasks).',
      seen: `Zero-shot loss ${f2(range(t5, 0, T).mean)} at 0–${T - 1}, ${f2(range(t5, 2 * T, L).mean)} at ${2 * T}–${L - 1}: higher there ${degrades.text}; a smaller rise than RoPE’s ${lessThanRope.text}. Passkey at ${L}: T5 ${pct(mean(accuracyAt(passkey.get('t5'), L)))}, RoPE ${pct(mean(accuracyAt(passkey.get('rope'), L)))}; T5 above RoPE ${keysText(keys, mask, T, ' both')}.`,
      verdict: { k: Math.min(degrades.k, lessThanRope.k), n: degrades.n },
    });
  }

  const noneLearned = learned('none');
  if (noneLearned && ropeLearned && alibiLearned) {
    const nope = accuracyAt(passkey.get('none'), L);
    const overRope = verdict(nope, accuracyAt(passkey.get('rope'), L), above, both(noneLearned, ropeLearned));
    const overAlibi = verdict(nope, accuracyAt(passkey.get('alibi'), L), above, both(noneLearned, alibiLearned));
    claims.push({
      id: 'nope',
      prediction:
        'In small decoder-only models, no positional encoding generalises to longer inputs better than RoPE and ALiBi (Kazemnejad et al. 2023, reasoning and arithmetic tasks).',
      seen: `Passkey at ${L}: NoPE ${pct(mean(nope))}, RoPE ${pct(mean(accuracyAt(passkey.get('rope'), L)))}, ALiBi ${pct(mean(accuracyAt(passkey.get('alibi'), L)))}. NoPE above RoPE ${keysText(overRope, both(noneLearned, ropeLearned), T, ' both')}; above ALiBi ${keysText(overAlibi, both(noneLearned, alibiLearned), T, ' both')}.`,
      verdict: { k: Math.min(overRope.k, overAlibi.k), n: Math.min(overRope.n, overAlibi.n) },
    });
  }

  const refused = passkey.get('learned')?.[0]?.readings.find((r) => !r.available);
  if (refused) {
    claims.push({
      id: 'learned',
      prediction: 'Learned positions have no row past T: they cannot be read longer at all.',
      seen: `Asked for ${refused.length} tokens, the library answers “${refused.reason}”.`,
      verdict: null,
    });
  }
  return claims;
}

function mean(values) {
  return values.reduce((a, b) => a + b, 0) / values.length;
}
