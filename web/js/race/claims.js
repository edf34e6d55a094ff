// Section 7's race: what the long-context literature predicts, set against this run's numbers. Each verdict counts
// the seeds for which the comparison holds, so a prediction is reported as seen, never assumed. No DOM.
import { accuracyCell, lossCurve } from './stats.js';

const f2 = (x) =>
  x
    .toFixed(2)
    .replace(/^-(?=.*[1-9])/, '−')
    .replace(/^-/, '');
const pct = (x) => `${Math.round(100 * x)} %`;

/** "holds for every seed (3 of 3)", "holds for 2 of 3 seeds", or "does not hold (0 of 3 seeds)". */
export function verdict(a, b, better) {
  const n = a.length;
  const k = a.filter((x, i) => better(x, b[i])).length;
  if (k === n) {
    return { k, n, text: `holds for every seed (${k} of ${n})` };
  }
  return { k, n, text: k === 0 ? `does not hold (0 of ${n} seeds)` : `holds for ${k} of ${n} seeds` };
}

const above = (x, y) => x > y;
const below = (x, y) => x < y;

/**
 * The claims, [{id, prediction, seen, verdict}], for the schemes whose runs are all in: runs.language and
 * runs.passkey map a scheme to its runs (one per seed), T the training length, L the longest length read.
 */
export function raceClaims({ language, passkey }, T, L) {
  const ranges = [
    [0, T],
    [2 * T, L],
    [T, L],
  ];
  const curve = (scheme, fineTuned) =>
    language.has(scheme) ? lossCurve(language.get(scheme), L, fineTuned, ranges) : null;
  const range = (c, from, to) => c.byRange.find((r) => r.from === from && r.to === to);
  const cell = (scheme, length, fineTuned) =>
    passkey.has(scheme) ? accuracyCell(passkey.get(scheme), length, fineTuned) : null;
  const claims = [];

  const rope = curve('rope', false);
  const ropeKeyT = cell('rope', T, false);
  const ropeKeyL = cell('rope', L, false);
  if (rope && ropeKeyT && ropeKeyL) {
    const inside = range(rope, 0, T);
    const far = range(rope, 2 * T, L);
    const v = verdict(far.perSeed, inside.perSeed, above);
    const keys = verdict(ropeKeyL.perSeed, ropeKeyT.perSeed, below);
    claims.push({
      id: 'rope',
      prediction: 'RoPE read past T with its trained frequencies breaks down (Press et al. 2022; Chen et al. 2023).',
      seen: `Zero-shot loss ${f2(inside.mean)} at positions 0–${T - 1}, ${f2(far.mean)} at ${2 * T}–${L - 1}: higher there ${v.text}. Passkey accuracy ${pct(ropeKeyT.mean)} at ${T}, ${pct(ropeKeyL.mean)} at ${L}: lower ${keys.text}.`,
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
  const yarn = curve('rope_yarn', false);
  if (pi && ntk && yarn) {
    const p = range(pi, T, L);
    const n = range(ntk, T, L);
    const y = range(yarn, T, L);
    const ntkWins = verdict(n.perSeed, p.perSeed, below);
    const yarnWins = verdict(y.perSeed, p.perSeed, below);
    claims.push({
      id: 'ntk-yarn',
      prediction: 'NTK-aware scaling and YaRN beat PI without fine-tuning (Peng et al. 2023).',
      seen: `Zero-shot loss at positions ${T}–${L - 1}: NTK ${f2(n.mean)}, YaRN ${f2(y.mean)}, PI ${f2(p.mean)}. NTK below PI ${ntkWins.text}; YaRN below PI ${yarnWins.text}.`,
      verdict: { k: Math.min(ntkWins.k, yarnWins.k), n: ntkWins.n },
    });
  }

  const alibi = curve('alibi', false);
  const alibiKeys = cell('alibi', L, false);
  if (rope && alibi && alibiKeys) {
    const inside = range(alibi, 0, T);
    const far = range(alibi, 2 * T, L);
    const ropeRise = range(rope, 2 * T, L).mean - range(rope, 0, T).mean;
    const holds = verdict(
      far.perSeed.map((x, i) => x - inside.perSeed[i]),
      range(rope, 2 * T, L).perSeed.map((x, i) => x - range(rope, 0, T).perSeed[i]),
      below,
    );
    const first = alibiKeys.byDepth[0].mean;
    const last = alibiKeys.byDepth.at(-1).mean;
    const atDepth = (d) =>
      passkey.get('alibi').map((run) => {
        const accuracy = run.readings.find((r) => r.length === L && !r.fineTuned).accuracyByDepth;
        return accuracy[d < 0 ? accuracy.length + d : d];
      });
    const farWorse = verdict(atDepth(0), atDepth(-1), below);
    claims.push({
      id: 'alibi',
      prediction: 'ALiBi holds its loss far past T (Press et al. 2022) but retrieves poorly from far back.',
      seen: `Zero-shot loss ${f2(inside.mean)} at 0–${T - 1}, ${f2(far.mean)} at ${2 * T}–${L - 1} (a rise of ${f2(far.mean - inside.mean)}, against RoPE’s ${f2(ropeRise)}: smaller ${holds.text}). Passkey at ${L}: ${pct(first)} with the key at the start, ${pct(last)} with it next to the question: worse far back ${farWorse.text}.`,
      verdict: { k: Math.min(holds.k, farWorse.k), n: holds.n },
    });
  }

  const learned = passkey.get('learned')?.[0]?.readings.find((r) => !r.available);
  if (learned) {
    claims.push({
      id: 'learned',
      prediction: 'Learned positions have no row past T: they cannot be read longer at all.',
      seen: `Asked for ${learned.length} tokens, the library answers “${learned.reason}”.`,
      verdict: null,
    });
  }
  return claims;
}
