// Comparing our token ids with a reference's, shared by the parity test and scripts/check-tiktoken-parity.mjs.
// Either side may be 'error' (the encoder threw).

/** The first index where the id lists differ, -1 when they are equal (0 when only one side is 'error'). */
export function firstDifference(a, b) {
  if (a === 'error' || b === 'error') {
    return a === b ? -1 : 0;
  }
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; ++i) {
    if (a[i] !== b[i]) {
      return i;
    }
  }
  return a.length === b.length ? -1 : n;
}
