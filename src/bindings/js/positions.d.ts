// Positional schemes that act inside attention, one piece at a time: RoPE's rotation and ALiBi's slopes.
import type { RopeLayout } from './model.js';

/** Options of {@link EmbedLab.ropeRotate}. */
export interface RopeRotateOptions {
  /** θ_i = base^(−2i/d); in [1, 1e12], default 10000 (createModel's ropeBase). */
  base?: number;
  /** Which entries form a pair: 'interleaved' (x_2i, x_2i+1, default) or 'rotate_half' (x_i, x_i+d/2). */
  layout?: RopeLayout;
}
