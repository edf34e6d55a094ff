// Section 7's race: what the long-context literature predicts, set against this run's numbers. Each verdict counts
// the seeds for which the comparison holds past a margin (verdicts.js), so a prediction is reported as seen, never
// assumed; a race of fewer than VERDICT_SEEDS seeds shows its numbers and no verdicts. A passkey run that never
// learned the task at T is no evidence about reading longer, so passkey verdicts count only the seeds that learned
// it (passkey_learning.js). No DOM.
import { learnedSeeds } from './passkey_learning.js';
import {
  INIT_STDDEV,
  LOSS_MARGIN,
  NTK_WIDE,
  passkeyMargin,
  RACE_EVAL_ROWS,
  RACE_OPTIONS,
  SCHEME_NAMES,
  VERDICT_SEEDS,
} from './plan.js';
import { accuracyCell, lossCurve } from './stats.js';
import { change, numbers, pct, verdict } from './verdicts.js';

const ABOVE = 1;
const BELOW = -1;
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
 * runs.passkey map a scheme to its runs (one per seed), T the training length, L the longest length read. With fewer
 * than VERDICT_SEEDS seeds every verdict is null and `seen` holds only the numbers.
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
  const seedCount = [...language.values(), ...passkey.values()][0]?.length ?? 0;
  const judged = seedCount >= VERDICT_SEEDS;
  const depthCount = [...passkey.values()][0]?.[0]?.readings[0]?.accuracyByDepth.length ?? 1;
  const keyMargin = passkeyMargin(RACE_EVAL_ROWS.passkey * depthCount);
  const loss = (a, b, sign, counted) => verdict(a, b, sign, { counted, margin: LOSS_MARGIN });
  const keys = (a, b, sign, counted) => verdict(a, b, sign, { counted, margin: keyMargin });
  /** A claim: its verdict sentences only when the race is judged. */
  const claim = (id, prediction, numbersSeen, verdictSeen, v) => ({
    id,
    prediction,
    seen: judged ? `${numbersSeen} ${verdictSeen}` : numbersSeen,
    verdict: judged ? v : null,
  });
  const claims = [];
  const meanAt = (scheme, length) => mean(accuracyAt(passkey.get(scheme), length));

  const rope = curve('rope', false);
  const ropeLearned = learned('rope');
  if (rope && ropeLearned) {
    const [inside, far] = [range(rope, 0, T), range(rope, 2 * T, L)];
    const v = loss(far.perSeed, inside.perSeed, ABOVE);
    const k = keys(accuracyAt(passkey.get('rope'), L), accuracyAt(passkey.get('rope'), T), BELOW, ropeLearned);
    const [a, b] = numbers(inside.mean, far.mean);
    claims.push(
      claim(
        'rope',
        'RoPE read past T with its trained frequencies breaks down (Press et al. 2022; Chen et al. 2023).',
        `Zero-shot loss ${a} at positions 0–${T - 1}, ${b} at ${2 * T}–${L - 1}; passkey ${pct(meanAt('rope', T))} at ${T}, ${pct(meanAt('rope', L))} at ${L}.`,
        `Loss higher at ${2 * T}–${L - 1}: ${v.text}. Passkey lower at ${L}: ${keysText(k, ropeLearned, T)}.`,
        v,
      ),
    );
  }

  const pi = curve('rope_pi', false);
  const piTuned = curve('rope_pi', true);
  const ropeTuned = curve('rope', true);
  if (rope && pi && piTuned && ropeTuned) {
    const [piInside, ropeInside] = [range(pi, 0, T), range(rope, 0, T)];
    const degrades = loss(piInside.perSeed, ropeInside.perSeed, ABOVE);
    const [zero, tuned, control] = [range(pi, T, L), range(piTuned, T, L), range(ropeTuned, T, L)];
    const beats = loss(tuned.perSeed, control.perSeed, BELOW);
    const [a, b] = numbers(piInside.mean, ropeInside.mean);
    const [c, e, cz, ez] = numbers(tuned.mean, control.mean, zero.mean, range(rope, T, L).mean);
    claims.push(
      claim(
        'pi',
        'Position Interpolation degrades zero-shot, and after a short fine-tune at the longer length it does better there than the unscaled model fine-tuned the same way (Chen et al. 2023, against direct fine-tuning).',
        `Read at ${L} zero-shot, PI squeezes every position ${L / T}×: loss ${a} at 0–${T - 1} against ${b} for the same model unscaled. Past T, after the same fine-tuning steps at ${L}: PI ${c} (${cz} zero-shot), the unscaled model ${e} (${ez} zero-shot; every scheme is still learning, so a fine-tune lowers them all).`,
        `PI higher inside T: ${degrades.text}. PI fine-tuned below the unscaled model fine-tuned: ${beats.text}.`,
        { k: Math.min(degrades.k, beats.k), n: degrades.n },
      ),
    );
  }

  const ntk = curve('rope_ntk', false);
  const ntkWide = curve(NTK_WIDE, false);
  const yarn = curve('rope_yarn', false);
  if (pi && ntk && yarn && ntkWide) {
    const [p, n, w, y] = [pi, ntk, ntkWide, yarn].map((c) => range(c, T, L));
    const ntkWins = loss(n.perSeed, p.perSeed, BELOW);
    const wideWins = loss(w.perSeed, p.perSeed, BELOW);
    const yarnWins = loss(y.perSeed, p.perSeed, BELOW);
    const [sp, sn, sw, sy] = numbers(p.mean, n.mean, w.mean, y.mean);
    const split = [
      [T, 2 * T],
      [2 * T, L],
    ].map(([from, to]) => {
      const [q, r, u, x] = numbers(...[pi, ntk, ntkWide, yarn].map((c) => range(c, from, to).mean));
      return `at ${from}–${to - 1} PI ${q}, NTK ${r} / ${u}, YaRN ${x}`;
    });
    claims.push(
      claim(
        'ntk-yarn',
        `NTK-aware scaling and YaRN beat PI without fine-tuning (Peng et al. 2023). Peng et al. also note that NTK-aware scaling at s = L/T sends some dimensions past the angles they were trained on, so in practice s is set above L/T: here s = ${L / T} and s = ${(2 * L) / T}.`,
        `Zero-shot loss at positions ${T}–${L - 1}: PI ${sp}, NTK with s = ${L / T} ${sn}, NTK with s = ${(2 * L) / T} ${sw} (scored on other held-out windows than every other row: not the same text), YaRN ${sy}. By range, ${split.join('; ')} (NTK at s = ${L / T} / ${(2 * L) / T}; each pair’s angles under “How the race is run”).`,
        `NTK (s = ${L / T}) below PI: ${ntkWins.text}. NTK (s = ${(2 * L) / T}, other windows, so its gap mixes text with scaling) below PI: ${wideWins.text}. YaRN below PI: ${yarnWins.text}.`,
        // The prediction as Peng et al. apply it: NTK with s above L/T.
        { k: Math.min(wideWins.k, yarnWins.k), n: wideWins.n },
      ),
    );
  }

  const alibi = curve('alibi', false);
  const alibiLearned = learned('alibi');
  if (rope && alibi && alibiLearned) {
    const [inside, far] = [range(alibi, 0, T), range(alibi, 2 * T, L)];
    const ropeRise = range(rope, 2 * T, L).mean - range(rope, 0, T).mean;
    const holds = loss(rise(alibi), rise(rope), BELOW);
    const kept = passkey.get('alibi').filter((_, i) => alibiLearned[i]);
    const cell = kept.length > 0 ? accuracyCell(kept, L, false) : null;
    const k = kept.length;
    const depths = cell
      ? ` Passkey at ${L}, no prediction (Press et al. measured perplexity, not retrieval): ${pct(cell.byDepth[0].mean)} with the key at the start, ${pct(cell.byDepth.at(-1).mean)} next to the question (${k === alibiLearned.length ? the(k, k) : `the ${k} of ${alibiLearned.length} seeds that learned it at ${T}`}).`
      : ` No ALiBi seed learned the passkey at ${T}.`;
    const [a, b] = numbers(inside.mean, far.mean);
    claims.push(
      claim(
        'alibi',
        'ALiBi holds its loss far past T (Press et al. 2022).',
        `Zero-shot loss ${a} at 0–${T - 1}, ${b} at ${2 * T}–${L - 1} (${change(far.mean - inside.mean, LOSS_MARGIN)}; RoPE: ${change(ropeRise, LOSS_MARGIN)}).${depths}`,
        `A smaller rise than RoPE’s: ${holds.text}.`,
        holds,
      ),
    );
  }

  const t5 = curve('t5', false);
  const t5Learned = learned('t5');
  if (rope && t5 && t5Learned && ropeLearned) {
    const degrades = loss(range(t5, 2 * T, L).perSeed, range(t5, 0, T).perSeed, ABOVE);
    const lessThanRope = loss(rise(t5), rise(rope), BELOW);
    const mask = both(t5Learned, ropeLearned);
    const k = keys(accuracyAt(passkey.get('t5'), L), accuracyAt(passkey.get('rope'), L), ABOVE, mask);
    const [a, b] = numbers(range(t5, 0, T).mean, range(t5, 2 * T, L).mean);
    claims.push(
      claim(
        't5',
        'T5’s bias degrades past T, but less than RoPE (Press et al. 2022, language modelling); in small decoder-only models it generalises to longer inputs better than RoPE (Kazemnejad et al. 2023, reasoning and arithmetic tasks).',
        `Zero-shot loss ${a} at 0–${T - 1}, ${b} at ${2 * T}–${L - 1}. Passkey at ${L}: T5 ${pct(meanAt('t5', L))}, RoPE ${pct(meanAt('rope', L))}.`,
        `Loss higher at ${2 * T}–${L - 1}: ${degrades.text}; a smaller rise than RoPE’s: ${lessThanRope.text}. T5 above RoPE in the passkey: ${keysText(k, mask, T, ' both')}.`,
        { k: Math.min(degrades.k, lessThanRope.k), n: degrades.n },
      ),
    );
  }

  const noneLearned = learned('none');
  if (noneLearned && ropeLearned && alibiLearned) {
    const nope = accuracyAt(passkey.get('none'), L);
    const overRope = keys(nope, accuracyAt(passkey.get('rope'), L), ABOVE, both(noneLearned, ropeLearned));
    const overAlibi = keys(nope, accuracyAt(passkey.get('alibi'), L), ABOVE, both(noneLearned, alibiLearned));
    claims.push(
      claim(
        'nope',
        'In small decoder-only models, no positional encoding generalises to longer inputs better than RoPE and ALiBi (Kazemnejad et al. 2023, reasoning and arithmetic tasks).',
        `Passkey at ${L}: NoPE ${pct(mean(nope))}, RoPE ${pct(meanAt('rope', L))}, ALiBi ${pct(meanAt('alibi', L))}.`,
        `NoPE above RoPE: ${keysText(overRope, both(noneLearned, ropeLearned), T, ' both')}; above ALiBi: ${keysText(overAlibi, both(noneLearned, alibiLearned), T, ' both')}.`,
        { k: Math.min(overRope.k, overAlibi.k), n: Math.min(overRope.n, overAlibi.n) },
      ),
    );
  }

  claims.push(...contextClaims({ language, passkey, curve, range, learned, meanAt, keyMargin }, T, L));

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

/**
 * Two lines with no verdict: how far the sinusoidal run is behind inside T, and why (section 6: its token rows start
 * at the library's N(0, 0.02), scaled by √C, against the sinusoids' norm √(C/2)); and each scheme's passkey at L.
 */
function contextClaims({ language, passkey, curve, range, learned, meanAt, keyMargin }, T, L) {
  const out = [];
  const sinusoidal = curve('sinusoidal', false);
  // Every other scheme's reading at L on the same windows (NTK at 2L/T reads other windows; learned refuses L).
  const others = [...language.keys()]
    .filter((s) => s !== 'sinusoidal' && s !== NTK_WIDE)
    .map((s) => curve(s, false))
    .filter(Boolean);
  if (sinusoidal && passkey.has('sinusoidal') && others.length > 1) {
    const C = RACE_OPTIONS.channels;
    const tokenNorm = INIT_STDDEV * Math.sqrt(C) * Math.sqrt(C);
    const sineNorm = Math.sqrt(C / 2);
    const inside = others.map((c) => range(c, 0, T).mean);
    const keysAtT = [...passkey.keys()].filter((s) => s !== 'sinusoidal').map((s) => meanAt(s, T));
    const ownLoss = range(sinusoidal, 0, T).mean;
    const ownKeys = meanAt('sinusoidal', T);
    const [own, low, high] = numbers(ownLoss, Math.min(...inside), Math.max(...inside));
    const lossSpan = spanText([low, high]);
    const behind = ownLoss > Math.max(...inside) + LOSS_MARGIN || ownKeys < Math.min(...keysAtT) - keyMargin;
    const start = `Its token rows start at N(0, σ = ${INIT_STDDEV})·√C, a norm of about ${INIT_STDDEV}·C = ${tokenNorm.toFixed(2)} against the sinusoids’ √(C/2) = ${sineNorm.toFixed(1)} (C = ${C}; section 6), so at the start position outweighs content ${(sineNorm / tokenNorm).toFixed(0)}×.`;
    const numbersInside = `Inside T its zero-shot loss is ${own} at 0–${T - 1} against ${lossSpan} for the other schemes, and its passkey accuracy at ${T} is ${pct(ownKeys)} against ${spanText(keysAtT.map(pct))}`;
    out.push({
      id: 'sinusoidal',
      prediction:
        'Sinusoidal positions may let a model read longer inputs than it was trained on (Vaswani et al. 2017, who chose them for that).',
      seen: behind
        ? `Not a fair test here: this run is behind before any extrapolation. ${start} ${numbersInside}: its numbers past T mix that handicap with extrapolation.`
        : `${start} ${numbersInside}: not behind the others inside T in this run (within the margins).`,
      verdict: null,
    });
  }
  const kept = [...passkey.keys()]
    .filter((s) => s !== 'learned')
    .map((scheme) => {
      const mask = learned(scheme);
      const runs = passkey.get(scheme).filter((_, i) => mask[i]);
      return { scheme, k: runs.length, n: mask.length, atL: runs.length ? mean(accuracyAt(runs, L)) : null };
    });
  if (kept.length > 1) {
    const ranked = kept
      .filter((r) => r.atL !== null)
      .sort((a, b) => b.atL - a.atL)
      .map((r) => `${SCHEME_NAMES[r.scheme]} ${pct(r.atL)}${r.k < r.n ? ` (${r.k} of ${r.n} seeds)` : ''}`);
    const none = kept.filter((r) => r.atL === null).map((r) => SCHEME_NAMES[r.scheme]);
    out.push({
      id: 'passkey-at-L',
      prediction:
        'No paper predicts this one: the passkey can be solved by a content match plus the offset-1 relation, so it mostly tests whether a scheme disturbs attention at new lengths.',
      seen: `Passkey at ${L}, zero-shot, over the seeds that learned it at ${T}, best first: ${ranked.length ? ranked.join(', ') : 'none'}${none.length ? `; no seed learned it: ${none.join(', ')}` : ''}.`,
      verdict: null,
    });
  }
  return out;
}

/** "a–b" from the lowest and highest of printed values, or "a" when they read alike. */
function spanText(printed) {
  const sorted = [...printed].sort((x, y) => Number.parseFloat(x) - Number.parseFloat(y));
  return sorted[0] === sorted.at(-1) ? sorted[0] : `${sorted[0]}–${sorted.at(-1)}`;
}

function mean(values) {
  return values.reduce((a, b) => a + b, 0) / values.length;
}
