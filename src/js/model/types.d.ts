// The tiny GPT: its config, optimizer settings, batches and training results.
import type { Model } from './model.js';
import type { EmbedLab } from '../lab.js';
import type { RopeScaling } from '../positions/types.js';

/** Positional schemes of the tiny GPT ({@link EmbedLab.positionSchemes} lists them at run time). */
export type PositionScheme = 'learned' | 'sinusoidal' | 'rope' | 'alibi' | 't5' | 'none';
/** RoPE pairings ({@link EmbedLab.ropeLayouts} lists them at run time). */
export type RopeLayout = 'interleaved' | 'rotate_half';

/** AdamW settings (torch.optim.AdamW semantics, decay on 2-D weights only, global-norm clipping). */
export interface OptimizerOptions {
  /** Default 1e-3. */
  learningRate?: number;
  /** Default 0.9. */
  beta1?: number;
  /** Default 0.95. */
  beta2?: number;
  /** Default 1e-8. */
  eps?: number;
  /** Decoupled weight decay on matrices, wte and wpe. Default 0.1. */
  weightDecay?: number;
  /** Global gradient-norm clip; 0 turns clipping off. Default 1. */
  maxGradNorm?: number;
}

/** Shape and options of {@link EmbedLab.createModel}. */
export interface ModelConfig {
  vocabSize: number;
  /** Length of the learned position table; other schemes accept longer sequences. Default 32. */
  contextLength?: number;
  /** Width C. Default 32. */
  channels?: number;
  /** Transformer blocks. Default 2. */
  layers?: number;
  /** Attention heads; must divide channels. Default 2. */
  heads?: number;
  /** Default 'learned'. */
  positions?: PositionScheme;
  /** RoPE pairing: (x0,x1),(x2,x3)… or LLaMA's (x_i, x_{i+d/2}). Default 'interleaved'. */
  ropeLayout?: RopeLayout;
  /** RoPE base. Default 10000. */
  ropeBase?: number;
  /**
   * positions 'rope' only: how the frequencies stretch past the trained length (PI, NTK, dynamic NTK, YaRN,
   * Llama 3; see {@link RopeScaling}). Saved in the checkpoint under rope_scaling with transformers' keys.
   * Default {type: 'none'}.
   */
  ropeScaling?: RopeScaling;
  /** Causal mask (GPT). false: every token sees every token. Default true. */
  causal?: boolean;
  /**
   * positions 't5' only: T5's relative_attention_num_buckets, the rows of the bias table
   * h.0.attn.relative_attention_bias.weight (buckets × heads, shared by every layer as in T5). Buckets are causal
   * for a causal model, bidirectional (half per sign) otherwise; see {@link EmbedLab.relativePositionBuckets}.
   * In [2, 4096] causal, [4, 4096] bidirectional; default 32. Saved as relative_attention_num_buckets.
   */
  t5NumBuckets?: number;
  /**
   * positions 't5' only: T5's relative_attention_max_distance, the offset from which every key shares the last
   * bucket; above the exact buckets (t5NumBuckets / 2 causal, / 4 bidirectional). Default 128.
   */
  t5MaxDistance?: number;
  /**
   * s in x_t = s·wte[id] + position: 1 (GPT-2) or Math.sqrt(channels) (Transformer, 2017), which lifts
   * N(0, 0.02) token rows to the scale of the ±1 sinusoids. The tied output head uses wte unscaled.
   * In (0, 1024]; default 1. Saved in the checkpoint.
   */
  embeddingScale?: number;
  /** PRNG seed of the initial weights (N(0, 0.02), GPT-2 style). Default 0. */
  seed?: number;
  optimizer?: OptimizerOptions;
  /** Tensors training leaves as they are (see {@link Model.setFrozen}), e.g. ['wte.weight']. Default []. */
  frozen?: string[];
}

/**
 * {@link EmbedLab.modelDefaults}: every option createModel fills in, as the C++ core defines it, shaped as
 * {@link Model.config}; vocabSize has no default.
 */
export type ModelDefaults = Readonly<Required<Omit<ModelConfig, 'vocabSize' | 'optimizer' | 'frozen'>>> & {
  readonly optimizer: Readonly<Required<OptimizerOptions>>;
};

/** A batch: ids as sequences of equal length, or flat with batch and length; targets the same shape (-1 ignores). */
export interface Batch {
  ids: ArrayLike<number>[] | ArrayLike<number>;
  targets?: ArrayLike<number>[] | ArrayLike<number>;
  batch?: number;
  length?: number;
}

/** Result of one optimizer step. */
export interface TrainStepResult {
  loss: number;
  /** Global gradient norm before clipping. */
  gradientNorm: number;
  /** Steps taken so far, this one included. */
  step: number;
}

/** Options of {@link Model.train}. */
export interface TrainOptions {
  steps: number;
  /** The batch for each step, or a promise of it (an async source). */
  batches: (step: number) => Batch | Promise<Batch>;
  onProgress?: (result: TrainStepResult) => void;
  signal?: AbortSignal;
}

// The parameter count of a published transformer configuration: what its token tables cost at scale.

/**
 * A decoder-only transformer's configuration, with GPT-2's conventions as defaults. Llama 3 8B:
 * `{vocabSize: 128256, channels: 4096, layers: 32, heads: 32, kvHeads: 8, ffnHidden: 14336, gatedMlp: true,
 * tiedOutput: false, biases: false, norm: 'rmsnorm'}`.
 */
export interface TransformerConfig {
  /** V: rows of the token table, in [1, 2^24]. */
  vocabSize: number;
  /** d: the model width, in [1, 2^16]. */
  channels: number;
  /** In [1, 1024]. */
  layers: number;
  /** Query heads, in [1, channels]; must divide channels. */
  heads: number;
  /** Key/value heads (grouped-query attention), in [1, heads], dividing heads; default heads. */
  kvHeads?: number;
  /** The MLP's inner width F, in [1, 2^18]; or give mlpRatio. */
  ffnHidden?: number;
  /** F = mlpRatio × channels (must be whole); default 4 (GPT-2). Not with ffnHidden. */
  mlpRatio?: number;
  /** true: a gated MLP (SwiGLU: gate, up and down, 3dF); false (default): up and down, 2dF. */
  gatedMlp?: boolean;
  /** true (default): the output head is the token table (GPT-2); false: a second V × d table (Llama 3). */
  tiedOutput?: boolean;
  /** true (default): every attention and MLP projection has a bias (GPT-2); false: none (Llama). Never the head. */
  biases?: boolean;
  /** 'layernorm' (default: scale and shift, 2d per norm) or 'rmsnorm' (scale only, d); 2 per layer and a final one. */
  norm?: 'layernorm' | 'rmsnorm';
  /** Rows of a learned position table (GPT-2: 1024), in [0, 2^24]; default 0 (RoPE, ALiBi, sinusoidal, NoPE). */
  positionRows?: number;
}

/** Bytes at two precisions. */
export interface ParameterBytes {
  float32: number;
  bfloat16: number;
}

/** Result of {@link EmbedLab.transformerParameterCount}: exact counts (every one below 2^53). */
export interface TransformerParameterCount {
  /** V × d. */
  tokenEmbedding: number;
  /** V × d untied, 0 tied. */
  outputHead: number;
  /** positionRows × d. */
  positionTable: number;
  /** Every layer's q, k, v and output projections (with their biases). */
  attention: number;
  /** Every layer's MLP (with its biases). */
  mlp: number;
  /** Two norms per layer and the final one. */
  norms: number;
  total: number;
  /** tokenEmbedding + outputHead. */
  tokenTables: number;
  /** tokenTables / total. */
  tokenTableShare: number;
  /** The whole model's weights: 4 bytes per parameter (float32), 2 (bfloat16). */
  totalBytes: ParameterBytes;
  /** The token tables' weights alone. */
  tokenTableBytes: ParameterBytes;
}
