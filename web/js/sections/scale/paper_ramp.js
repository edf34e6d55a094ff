// YaRN's frequencies as the paper defines them (Peng et al. 2023, "NTK-by-parts"): per pair, r = T/λᵢ (the turns
// the pair makes inside the trained window), γ(r) = 0 below α, 1 above β, (r − α)/(β − α) between, and
// θ′ᵢ = (1 − γ)·θᵢ/s + γ·θᵢ. The library follows transformers instead (a ramp over pair indices, rounded); this file
// lets the page set the two side by side, from the library's own unscaled θᵢ.

/** The paper's α and β for LLaMA: β_slow = 1 and β_fast = 32 turns, the same thresholds transformers uses. */
export const PAPER_ALPHA = 1;
export const PAPER_BETA = 32;

/** γ(r): 0 (divide by s) for r < α, 1 (keep) for r > β, linear in r between. */
export function paperGamma(turns, alpha = PAPER_ALPHA, beta = PAPER_BETA) {
  return Math.min(1, Math.max(0, (turns - alpha) / (beta - alpha)));
}

/** θ′ᵢ of the paper's YaRN for unscaled frequencies θ (Float64Array), factor s and window T. */
export function paperYarnFrequencies(theta, factor, window) {
  return Float64Array.from(theta, (t) => {
    const gamma = paperGamma((window * t) / (2 * Math.PI));
    return ((1 - gamma) * t) / factor + gamma * t;
  });
}
