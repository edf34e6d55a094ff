// Section 7's race: how a comparison becomes a verdict, and how its numbers are printed. A seed counts for a claim
// only when its difference passes a margin (plan.js: LOSS_MARGIN, passkeyMargin); a smaller difference is "within
// noise", whichever way it points. Numbers that tie at two decimals are printed with three. No DOM.

/** A number with a true minus sign and no "-0". */
export function signed(x, digits = 2) {
  return x
    .toFixed(digits)
    .replace(/^-(?=.*[1-9])/, '−')
    .replace(/^-/, '');
}

/** Numbers printed together: two decimals, or three when two of them would read alike. */
export function numbers(...values) {
  const two = values.map((v) => signed(v, 2));
  const digits = new Set(two).size < two.length ? 3 : 2;
  return values.map((v) => signed(v, digits));
}

export const pct = (x) => `${Math.round(100 * x)} %`;

/** A change in words past a margin: "a rise of 0.21", "a fall of 0.07", "a change of 0.012, within noise". */
export function change(x, margin) {
  if (Math.abs(x) <= margin) {
    return `a change of ${signed(x, Math.abs(x) < 0.005 ? 3 : 2)}, within noise`;
  }
  return `a ${x > 0 ? 'rise' : 'fall'} of ${signed(Math.abs(x))}`;
}

/**
 * How many seeds a comparison holds for: sign·(a[i] − b[i]) above `margin`, over the seeds `counted` keeps (all by
 * default); sign +1 asks "a above b", −1 "a below b". {k, n, noise, against, text}, the text one of "holds for every
 * seed (3 of 3)", "holds for 2 of 3 seeds (1 within noise)", "within noise for every seed (3 of 3)", "does not
 * hold (0 of 3 seeds; 2 the other way, 1 within noise)", "cannot be checked (no seed counts)".
 */
export function verdict(a, b, sign, { counted = a.map(() => true), margin = 0 } = {}) {
  const kept = a.map((_, i) => i).filter((i) => counted[i]);
  const n = kept.length;
  const gaps = kept.map((i) => sign * (a[i] - b[i]));
  const k = gaps.filter((g) => g > margin).length;
  const against = gaps.filter((g) => g < -margin).length;
  const noise = n - k - against;
  if (n === 0) {
    return { k, n, noise, against, text: 'cannot be checked (no seed counts)' };
  }
  const rest = [against > 0 ? `${against} the other way` : '', noise > 0 ? `${noise} within noise` : '']
    .filter(Boolean)
    .join(', ');
  let text;
  if (k === n) {
    text = `holds for every seed (${k} of ${n})`;
  } else if (noise === n) {
    text = `within noise for every seed (${n} of ${n})`;
  } else if (k === 0) {
    text = `does not hold (0 of ${n} seeds; ${rest})`;
  } else {
    text = `holds for ${k} of ${n} seeds (${rest})`;
  }
  return { k, n, noise, against, text };
}
