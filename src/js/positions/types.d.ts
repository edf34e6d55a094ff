// Positional schemes that act inside attention, one piece at a time: RoPE's rotation, ALiBi's slopes, T5's buckets.
import type { RopeLayout } from '../model/types.js';

/** Options of {@link EmbedLab.ropeRotate}. */
export interface RopeRotateOptions {
  /** θ_i = base^(−2i/d); in [1, 1e12], default 10000 (createModel's ropeBase). */
  base?: number;
  /** Which entries form a pair: 'interleaved' (x_2i, x_2i+1, default) or 'rotate_half' (x_i, x_i+d/2). */
  layout?: RopeLayout;
}

/** How RoPE stretches to sequences longer than it was trained on (see {@link RopeScaling}). */
export type RopeScalingType = 'none' | 'linear' | 'ntk' | 'dynamic' | 'yarn' | 'llama3';

/**
 * A RoPE scaling, with Hugging Face transformers' semantics (θ_i = base^(−2i/d) unscaled):
 * - 'linear' (Position Interpolation): θ_i / factor;
 * - 'ntk' (static NTK-aware): base · factor^(d/(d−2)) in place of base;
 * - 'dynamic' (dynamic NTK): base · (factor · length / originalContextLength − (factor − 1))^(d/(d−2)) when the
 *   sequence is longer than originalContextLength, else unscaled; recomputed for every sequence length;
 * - 'yarn': a linear ramp, over the pairs that turn between betaSlow and betaFast times inside
 *   originalContextLength, from θ_i (fast pairs, kept) to θ_i / factor (slow pairs, interpolated); cos and sin
 *   multiplied by attentionFactor;
 * - 'llama3': wavelengths above originalContextLength / lowFrequencyFactor interpolated (θ_i / factor), below
 *   originalContextLength / highFrequencyFactor kept, a smooth blend between.
 */
export interface RopeScaling {
  /** Default 'none'. */
  type?: RopeScalingType;
  /** Every type but 'none': the extension factor, in [1, 1e6]. */
  factor?: number;
  /** 'dynamic', 'yarn', 'llama3': the trained context length, an integer in [1, limits.maxSequenceLength]. */
  originalContextLength?: number;
  /** 'yarn': in (0, 1e6], default 32; must exceed betaSlow. */
  betaFast?: number;
  /** 'yarn': in (0, 1e6], default 1. */
  betaSlow?: number;
  /** 'yarn': multiplies cos and sin, in (0, 16]; default (left out, or 0) 0.1 · ln(factor) + 1. */
  attentionFactor?: number;
  /** 'yarn': floor/ceil the correction range (default true, as transformers). */
  truncate?: boolean;
  /** 'llama3': in (0, 1e6], default 1. */
  lowFrequencyFactor?: number;
  /** 'llama3': in (0, 1e6], default 4; must exceed lowFrequencyFactor. */
  highFrequencyFactor?: number;
}

/** Options of {@link EmbedLab.ropeFrequencies}. */
export interface RopeFrequenciesOptions {
  /** Even, in [2, limits.maxDim] ([4, …] for 'ntk' and 'dynamic', whose exponent is d/(d−2)). */
  headDim: number;
  /** In [1, 1e12], default 10000. */
  base?: number;
  /** Default {type: 'none'}. */
  scaling?: RopeScaling;
  /** The sequence length, in [1, limits.maxSequenceLength]; required by 'dynamic', unused by the others. */
  length?: number;
}

/** Result of {@link EmbedLab.ropeFrequencies}. */
export interface RopeFrequencies {
  /** θ_i for i < headDim / 2: pair i at position t turns by t · θ_i. */
  inverseFrequencies: Float64Array;
  /** Multiplies cos and sin ('yarn'; 1 otherwise), so q · k by its square. */
  attentionFactor: number;
}

/** Options of {@link EmbedLab.relativePositionBuckets}. */
export interface RelativePositionBucketsOptions {
  /** Positions: the result has length × length buckets. An integer in [1, 4096]. */
  length: number;
  /** T5's relative_attention_num_buckets: in [2, 4096] causal, [4, 4096] bidirectional. Default 32. */
  numBuckets?: number;
  /** T5's relative_attention_max_distance: above the E exact buckets, at most 2^30. Default 128. */
  maxDistance?: number;
  /** true: T5's encoder (half the buckets per sign); false (default): causal, as the tiny GPT. */
  bidirectional?: boolean;
}
