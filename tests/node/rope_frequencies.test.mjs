// lab.ropeFrequencies (SIMD and fallback modules) against an independent double-precision transcription of
// Hugging Face transformers' modeling_rope_utils (_compute_default/linear/dynamic_ntk/yarn/llama3_parameters,
// and static NTK-aware scaling, base · factor^(d/(d−2))), written in its own structure: HF's pos_freqs, its
// find_correction_dim/find_correction_range and linear_ramp_factor, its torch.where bands.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import createEmbedLab from '../../dist/index.js';

const arange = (start, stop, step = 1) => {
  const out = [];
  for (let x = start; x < stop; x += step) {
    out.push(x);
  }
  return out;
};

function hfDefault(dim, base) {
  return arange(0, dim, 2).map((j) => 1 / base ** (j / dim));
}

function hfReference(dim, base, s, seqLen) {
  const factor = s.factor;
  switch (s.type) {
    case 'none':
      return { inv: hfDefault(dim, base), attention: 1 };
    case 'linear':
      return { inv: hfDefault(dim, base).map((x) => x / factor), attention: 1 };
    case 'ntk':
      return { inv: hfDefault(dim, base * factor ** (dim / (dim - 2))), attention: 1 };
    case 'dynamic': {
      const max = s.originalContextLength;
      const len = Math.max(seqLen, max); // at or below max the formula gives back base
      return { inv: hfDefault(dim, base * ((factor * len) / max - (factor - 1)) ** (dim / (dim - 2))), attention: 1 };
    }
    case 'yarn': {
      const max = s.originalContextLength;
      const getMscale = (scale) => (scale <= 1 ? 1 : 0.1 * Math.log(scale) + 1);
      const attention = s.attentionFactor ?? getMscale(factor);
      const betaFast = s.betaFast ?? 32;
      const betaSlow = s.betaSlow ?? 1;
      const findCorrectionDim = (rotations) => (dim * Math.log(max / (rotations * 2 * Math.PI))) / (2 * Math.log(base));
      let low = findCorrectionDim(betaFast);
      let high = findCorrectionDim(betaSlow);
      if (s.truncate ?? true) {
        low = Math.floor(low);
        high = Math.ceil(high);
      }
      low = Math.max(low, 0);
      high = Math.min(high, dim - 1);
      if (low === high) {
        high += 0.001;
      }
      const ramp = arange(0, dim / 2).map((i) => Math.min(Math.max((i - low) / (high - low), 0), 1));
      const posFreqs = arange(0, dim, 2).map((j) => base ** (j / dim));
      const extrapolationFactor = ramp.map((r) => 1 - r);
      const inv = posFreqs.map(
        (p, i) => (1 / (factor * p)) * (1 - extrapolationFactor[i]) + (1 / p) * extrapolationFactor[i],
      );
      return { inv, attention };
    }
    case 'llama3': {
      const old = s.originalContextLength;
      const lowFactor = s.lowFrequencyFactor ?? 1;
      const highFactor = s.highFrequencyFactor ?? 4;
      const lowWavelen = old / lowFactor;
      const highWavelen = old / highFactor;
      const inv = hfDefault(dim, base).map((x) => {
        const wavelen = (2 * Math.PI) / x;
        const llama = wavelen > lowWavelen ? x / factor : x;
        const smooth = (old / wavelen - lowFactor) / (highFactor - lowFactor);
        const smoothed = ((1 - smooth) * llama) / factor + smooth * llama;
        const medium = !(wavelen < highWavelen) && !(wavelen > lowWavelen);
        return medium ? smoothed : llama;
      });
      return { inv, attention: 1 };
    }
  }
  throw new Error(`no reference for ${s.type}`);
}

function assertClose(actual, expected, what) {
  assert.equal(actual.length, expected.length, what);
  for (let i = 0; i < expected.length; i++) {
    const error = Math.abs(actual[i] - expected[i]) / Math.abs(expected[i]);
    assert.ok(error <= 1e-12, `${what}: [${i}] ${actual[i]} vs ${expected[i]} (relative ${error})`);
  }
}

const SCALINGS = [
  { type: 'none' },
  { type: 'linear', factor: 4 },
  { type: 'linear', factor: 1.5 },
  { type: 'ntk', factor: 8 },
  { type: 'dynamic', factor: 4, originalContextLength: 64 },
  { type: 'dynamic', factor: 2, originalContextLength: 4096 },
  { type: 'yarn', factor: 4, originalContextLength: 64 },
  { type: 'yarn', factor: 16, originalContextLength: 4096 },
  { type: 'yarn', factor: 8, originalContextLength: 2048, betaFast: 16, betaSlow: 2, attentionFactor: 1.3 },
  { type: 'yarn', factor: 4, originalContextLength: 512, truncate: false },
  { type: 'yarn', factor: 4, originalContextLength: 8 }, // a correction range below pair 0: all extrapolated
  { type: 'llama3', factor: 8, originalContextLength: 8192 },
  { type: 'llama3', factor: 4, originalContextLength: 64, lowFrequencyFactor: 0.5, highFrequencyFactor: 2 },
];

for (const simd of [true, false]) {
  describe(`ropeFrequencies (${simd ? 'SIMD128' : 'fallback'})`, () => {
    let lab;
    before(async () => {
      lab = await createEmbedLab({ simd });
    });

    test('every type matches the transcribed transformers formulas to 1e-12 relative', () => {
      assert.deepEqual(lab.ropeScalingTypes, ['none', 'linear', 'ntk', 'dynamic', 'yarn', 'llama3']);
      let checked = 0;
      for (const scaling of SCALINGS) {
        for (const [headDim, base] of [
          [4, 10000],
          [16, 10000],
          [64, 10000],
          [128, 500000],
        ]) {
          for (const length of [1, 64, 100, 8192, 30000]) {
            const what = `${JSON.stringify(scaling)} d=${headDim} base=${base} length=${length}`;
            const got = lab.ropeFrequencies({ headDim, base, scaling, length });
            const expected = hfReference(headDim, base, scaling, length);
            assert.ok(got.inverseFrequencies instanceof Float64Array, what);
            assertClose(got.inverseFrequencies, expected.inv, what);
            assert.ok(Math.abs(got.attentionFactor - expected.attention) <= 1e-12 * expected.attention, what);
            checked++;
          }
        }
      }
      assert.equal(checked, SCALINGS.length * 20);
    });

    test('the scalings move the frequencies the way the papers say', () => {
      const plain = lab.ropeFrequencies({ headDim: 64 }).inverseFrequencies;
      const yarn = lab.ropeFrequencies({
        headDim: 64,
        scaling: { type: 'yarn', factor: 4, originalContextLength: 4096 },
      });
      // Fast pairs kept, slow pairs interpolated by the factor; default attention factor 0.1 ln 4 + 1.
      assert.equal(yarn.inverseFrequencies[0], plain[0]);
      assert.ok(Math.abs(yarn.inverseFrequencies[31] - plain[31] / 4) <= 1e-15 * plain[31]);
      assert.ok(Math.abs(yarn.attentionFactor - (0.1 * Math.log(4) + 1)) < 1e-15);
      // NTK keeps the first pair and divides the last by exactly the factor.
      const ntk = lab.ropeFrequencies({ headDim: 64, scaling: { type: 'ntk', factor: 8 } }).inverseFrequencies;
      assert.equal(ntk[0], 1);
      assert.ok(Math.abs(ntk[31] - plain[31] / 8 ** (62 / 62)) <= 1e-12 * plain[31]);
      // Dynamic NTK is unscaled up to the original length and scaled past it.
      const dynamic = (length) =>
        lab.ropeFrequencies({ headDim: 64, scaling: { type: 'dynamic', factor: 2, originalContextLength: 64 }, length })
          .inverseFrequencies;
      assert.deepEqual(dynamic(64), plain);
      assert.ok(dynamic(128)[31] < plain[31]);
    });

    test('extreme YaRN betas give finite frequencies (the fuzzer found inf/inf = NaN)', () => {
      const { inverseFrequencies } = lab.ropeFrequencies({
        headDim: 8,
        scaling: { type: 'yarn', factor: 4, originalContextLength: 64, betaFast: 2e-310, betaSlow: 1e-310 },
      });
      assert.ok(inverseFrequencies.every((x) => Number.isFinite(x) && x > 0 && x <= 1));
    });

    test('bad input: errors name the argument and its range', () => {
      const bad = [
        [{}, /headDim must be an integer in \[2, 16384\]/],
        [{ headDim: 7 }, /headDim must be even/],
        [{ headDim: 2, scaling: { type: 'ntk', factor: 2 } }, /headDim must be an integer in \[4, 16384\], got 2/],
        [{ headDim: 8, base: 0.5 }, /base must be a finite number in \[1, 1000000000000\]/],
        [
          { headDim: 8, scaling: { type: 'rope' } },
          /scaling.type must be one of none, linear, ntk, dynamic, yarn, llama3/,
        ],
        [{ headDim: 8, scaling: 'yarn' }, /scaling must be an options object/],
        [
          { headDim: 8, scaling: { type: 'linear', factor: 0.5 } },
          /scaling.factor must be a finite number in \[1, 1000000\]/,
        ],
        [{ headDim: 8, scaling: { type: 'linear', factor: NaN } }, /scaling.factor/],
        [
          { headDim: 8, scaling: { type: 'yarn', factor: 2 } },
          /scaling.originalContextLength must be an integer in \[1, 65536\], got 0/,
        ],
        [
          { headDim: 8, scaling: { type: 'dynamic', factor: 2, originalContextLength: 8 } },
          /length must be an integer in \[1, 65536\], got undefined/,
        ],
        [{ headDim: 8, length: 0 }, /length must be an integer in \[1, 65536\], got 0/],
        [
          { headDim: 8, scaling: { type: 'yarn', factor: 2, originalContextLength: 8, betaFast: 1, betaSlow: 2 } },
          /scaling.betaFast \(1\) must exceed scaling.betaSlow \(2\)/,
        ],
        [
          { headDim: 8, scaling: { type: 'yarn', factor: 2, originalContextLength: 8, betaSlow: 0 } },
          /scaling.betaSlow must be a finite number in \(0, 1000000\]/,
        ],
        [
          { headDim: 8, scaling: { type: 'yarn', factor: 2, originalContextLength: 8, attentionFactor: -1 } },
          /scaling.attentionFactor must be a finite number in \(0, 16\]/,
        ],
        [
          { headDim: 8, scaling: { type: 'llama3', factor: 2, originalContextLength: 8, lowFrequencyFactor: 4 } },
          /scaling.highFrequencyFactor \(4\) must exceed scaling.lowFrequencyFactor \(4\)/,
        ],
        // Found by the rope_scaling fuzzer: ln(base) = 0 made every YaRN frequency NaN.
        [
          { headDim: 8, base: 1, scaling: { type: 'yarn', factor: 4, originalContextLength: 64 } },
          /type 'yarn' needs a RoPE base > 1/,
        ],
      ];
      for (const [options, message] of bad) {
        assert.throws(() => lab.ropeFrequencies(options), message, JSON.stringify(options));
      }
    });
  });
}
