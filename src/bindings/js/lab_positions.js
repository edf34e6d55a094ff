// EmbedLab's positional schemes that act inside attention, exposed one piece at a time: the RoPE rotation of
// one vector at one position, RoPE's (scaled) frequencies and the ALiBi slope of each head, as the tiny GPT
// computes them (C++ core: model/rotary_embedding.h, model/rope_scaling.h, model/attention.h). The functions
// take the lab's internals ({lab, raw}, see lab.js).
import { describe, requireInteger, requireNumber, requireOptions, requireVector } from './checks.js';
import { normalizeRopeScaling } from './rope_scaling.js';

export function ropeRotate({ lab, raw }, vector, position, options) {
  requireVector('vector', vector);
  if (vector.length < 2 || vector.length > lab.limits.maxDim || vector.length % 2 !== 0) {
    throw new RangeError(
      `RoPE rotates pairs, so vector.length must be even and in [2, ${lab.limits.maxDim}], got ${vector.length}`,
    );
  }
  requireInteger('position', position, 0, 0x7fffffff);
  const { base = 10000, layout = 'interleaved' } = requireOptions('options', options, ['base', 'layout']);
  requireNumber('base', base, 1, 1e12);
  if (!lab.ropeLayouts.includes(layout)) {
    throw new TypeError(`layout must be one of ${lab.ropeLayouts.join(', ')}, got ${describe(layout)}`);
  }
  return lab.call(() => raw.ropeRotate(vector, position, base, layout));
}

export function alibiSlopes({ lab, raw }, heads) {
  requireInteger('heads', heads, 1, lab.limits.maxDim);
  return lab.call(() => raw.alibiSlopes(heads));
}

export function ropeFrequencies({ lab, raw }, options) {
  const {
    headDim,
    base = 10000,
    scaling,
    length,
  } = requireOptions('options', options, ['headDim', 'base', 'scaling', 'length']);
  const minimum = scaling?.type === 'ntk' || scaling?.type === 'dynamic' ? 4 : 2;
  requireInteger('headDim', headDim, minimum, lab.limits.maxDim);
  if (headDim % 2 !== 0) {
    throw new RangeError(`RoPE rotates pairs, so headDim must be even, got ${headDim}`);
  }
  requireNumber('base', base, 1, 1e12);
  // Only dynamic NTK reads the length; there it is required, so a forgotten length cannot silently mean "unscaled".
  if (length !== undefined || scaling?.type === 'dynamic') {
    requireInteger('length', length, 1, lab.limits.maxSequenceLength);
  }
  const normalized = normalizeRopeScaling('scaling', scaling, lab);
  return lab.call(() => raw.ropeFrequencies(headDim, base, normalized, length ?? 1));
}
