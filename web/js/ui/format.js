// Number formatting shared by the sections.

/** Three decimals, without a "-0.000". */
export function fixed3(x) {
  if (!Number.isFinite(x)) {
    return '—';
  }
  const s = x.toFixed(3);
  return s === '-0.000' ? '0.000' : s;
}

/** "1 − cos" shown so that differences hidden by 3 decimals are still honest. */
export function gapText(cosine) {
  if (!Number.isFinite(cosine)) {
    return '\u00a0';
  }
  const gap = 1 - cosine;
  if (Math.abs(gap) < 1e-6) {
    return '1 − cos < 10⁻⁶ (equal up to float rounding)';
  }
  if (Math.abs(gap) < 0.0005) {
    return `1 − cos = ${scientific(gap)}`;
  }
  return `1 − cos = ${gap.toFixed(3)}`;
}

const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };

/** 4.5e-5 → "4.5 × 10⁻⁵" */
export function scientific(x) {
  const [mantissa, exponent] = x.toExponential(1).split('e');
  const power = String(Number(exponent)).replace(/./g, (c) => SUPERSCRIPT[c] ?? c);
  return `${mantissa.replace('-', '−')} × 10${power}`;
}

/** A token's text with its spaces shown as ␣ and line breaks as ↵ (BPE keeps them inside tokens). */
export function visibleWhitespace(text) {
  return text.replace(/ /g, '␣').replace(/\n/g, '↵');
}

const SUBSCRIPT = { '-': '₋', 0: '₀', 1: '₁', 2: '₂', 3: '₃', 4: '₄', 5: '₅', 6: '₆', 7: '₇', 8: '₈', 9: '₉' };

/** 12 → "₁₂", for indices in running text (R₁₂ q). */
export function subscript(n) {
  return String(n).replace(/./g, (c) => SUBSCRIPT[c] ?? c);
}

/**
 * An integer with its thousands apart: 100256 → "100 256" (narrow no-break spaces, as the page writes numbers).
 * Not toLocaleString: its first call loads the locale's data, some 30 ms of the page's start.
 */
export function grouped(n) {
  const digits = String(Math.abs(n));
  return `${n < 0 ? '-' : ''}${digits.replace(/\B(?=(\d{3})+$)/g, '\u202f')}`;
}
