// A diverging colour scale, blue – white – orange, readable with the common colour-vision deficiencies
// (blue and orange stay apart for deuteranopes, protanopes and tritanopes; lightness carries the sign too).
// Stops are from ColorBrewer's RdBu (blue half) and PuOr (orange half).

const STOPS = [
  [-1.0, [33, 102, 172]],
  [-0.5, [146, 197, 222]],
  [0.0, [247, 247, 247]],
  [0.5, [253, 184, 99]],
  [1.0, [179, 88, 6]],
];

/** RGB of a value in [-1, 1] (clamped). Returns [r, g, b] with 0..255 integers. */
export function divergingRgb(t) {
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

/** CSS colour for value v on a symmetric scale [-range, range]. */
export function divergingCss(v, range) {
  const [r, g, b] = divergingRgb(v / range);
  return `rgb(${r} ${g} ${b})`;
}

/** Text colour that reads on top of the cell colour for value v. */
export function textOn(v, range) {
  return Math.abs(v / range) > 0.6 ? '#ffffff' : '#1d1f23';
}
