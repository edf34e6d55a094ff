// Colour scales. Diverging: blue – white – orange, readable with the common colour-vision deficiencies (blue and
// orange stay apart for deuteranopes, protanopes and tritanopes; lightness carries the sign too). Stops are from
// ColorBrewer's RdBu (blue half) and PuOr (orange half). Sequential: the orange half alone, for values that all
// share one sign and sit far from zero (cosines after attention), where a scale centred on 0 shows one colour.

const STOPS = [
  [-1.0, [33, 102, 172]],
  [-0.5, [146, 197, 222]],
  [0.0, [247, 247, 247]],
  [0.5, [253, 184, 99]],
  [1.0, [179, 88, 6]],
];

/** RGB of a value in [-1, 1] (clamped). Returns [r, g, b] with 0..255 integers; grey for NaN (masked cells). */
function divergingRgb(t) {
  if (!Number.isFinite(t)) {
    return [128, 128, 128];
  }
  const x = Math.max(-1, Math.min(1, t));
  for (let i = 1; i < STOPS.length; i++) {
    const [x1, c1] = STOPS[i];
    if (x <= x1) {
      const [x0, c0] = STOPS[i - 1];
      const f = (x - x0) / (x1 - x0);
      return [0, 1, 2].map((k) => Math.round(c0[k] + (c1[k] - c0[k]) * f));
    }
  }
  return STOPS[STOPS.length - 1][1];
}

/**
 * A colour scale: {min, max, rgb(v), css(v), text(v), kind}. divergingScale(range) spans [-range, range] with white
 * at 0 (nonPositive: only [-range, 0] is in use, so the legend shows that half); sequentialScale(min, max) runs
 * white → orange → brown. Values outside [min, max] show at the end colour.
 */
export function divergingScale(range, { nonPositive = false } = {}) {
  const r = range > 0 && Number.isFinite(range) ? range : 1;
  return makeScale('diverging', -r, nonPositive ? 0 : r, (v) => divergingRgb(v / r));
}

export function sequentialScale(min, max) {
  const lo = Number.isFinite(min) ? min : 0;
  const hi = Number.isFinite(max) && max > lo ? max : lo + 1;
  return makeScale('sequential', lo, hi, (v) =>
    Number.isFinite(v) ? divergingRgb(Math.max(0, Math.min(1, (v - lo) / (hi - lo)))) : divergingRgb(NaN),
  );
}

function makeScale(kind, min, max, rgb) {
  return {
    kind,
    min,
    max,
    rgb,
    css: (v) => {
      const [r, g, b] = rgb(v);
      return `rgb(${r} ${g} ${b})`;
    },
    // Relative luminance decides between dark and white text, whatever the scale.
    text: (v) => {
      const [r, g, b] = rgb(v);
      return 0.2126 * r + 0.7152 * g + 0.0722 * b < 150 ? '#ffffff' : '#1d1f23';
    },
  };
}

/** Smallest and largest finite value of an array ([0, 0] when there is none). */
export function finiteExtent(values) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (Number.isFinite(v)) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
  }
  return lo <= hi ? [lo, hi] : [0, 0];
}

/**
 * A figure's own scale, where a shared one would paint it one colour: values of one sign get a sequential scale
 * from their smallest to their largest (white is then the minimum, not 0); mixed signs a diverging ±max|v|.
 */
export function ownScale(values) {
  const [lo, hi] = finiteExtent(values);
  if (lo >= 0 && hi > lo) {
    return { ...sequentialScale(lo, hi), note: 'White is its smallest value, dark orange its largest.' };
  }
  const scale = divergingScale(Math.max(Math.abs(lo), Math.abs(hi)), { nonPositive: hi <= 0 });
  return { ...scale, note: 'White is 0, full colour ± its largest |value|.' };
}
