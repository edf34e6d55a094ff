// Number formatting shared by the sections.

/** Three decimals, without a "-0.000". */
export function fixed3(x) {
  if (!Number.isFinite(x)) return '—';
  const s = x.toFixed(3);
  return s === '-0.000' ? '0.000' : s;
}

/** "1 − cos" shown so that differences hidden by 3 decimals are still honest. */
export function gapText(cosine) {
  if (!Number.isFinite(cosine)) return '\u00a0';
  const gap = 1 - cosine;
  if (Math.abs(gap) < 1e-6) return '1 − cos < 10⁻⁶ (equal up to float rounding)';
  if (Math.abs(gap) < 0.0005) return `1 − cos = ${gap.toExponential(1)}`;
  return `1 − cos = ${gap.toFixed(3)}`;
}
