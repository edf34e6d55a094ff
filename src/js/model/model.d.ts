// The tiny GPT: its config, optimizer settings, batches and training results.
import type { WasmHandle } from '../runtime/wasm_handle.js';
import type { EmbedLab } from '../lab.js';
import type { RopeScaling } from '../positions/positions.js';

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

/** A tiny GPT with its AdamW optimizer: hand-written forward and backward, checked against PyTorch. */
export declare class Model extends WasmHandle {
  /** The config with defaults filled in; `frozen` is not part of it (see {@link Model.frozen}). */
  readonly config: Required<Omit<ModelConfig, 'optimizer' | 'frozen'>> & { optimizer: Required<OptimizerOptions> };
  readonly parameterCount: number;
  /** Optimizer steps taken. */
  readonly step: number;
  /** Longest sequence accepted (contextLength for learned positions). */
  readonly maxLength: number;
  trainStep(batch: Batch): TrainStepResult;
  /** Trains, yielding to the event loop between steps. */
  train(options: TrainOptions): Promise<{ losses: number[]; aborted: boolean }>;
  /** Mean cross-entropy, parameters untouched. */
  evaluate(batch: Batch): number;
  /** batch × length × vocabSize logits. */
  logits(batch: Batch): Float32Array;
  /** wte: vocabSize × channels. */
  tokenEmbeddings(): Float32Array;
  /** Vectors added at positions [0, length): wpe rows or sinusoids; null for rope, alibi, t5 and none. */
  positionEmbeddings(length?: number): Float32Array | null;
  /** Residual stream of one sequence: layers + 1 arrays of length × channels. */
  hiddenStates(ids: ArrayLike<number>): Float32Array[];
  /** safetensors bytes: weights with GPT-2 names, optimizer state, config in the metadata. */
  save(): Uint8Array;
  setLearningRate(learningRate: number): void;
  /**
   * Replaces the RoPE scaling (positions 'rope' only; {type: 'none'} removes it): read a trained model
   * zero-shot at longer lengths, then train on. Weights and optimizer state are untouched; save() records it.
   * @example model.setRopeScaling({ type: 'yarn', factor: 4, originalContextLength: 64 })
   */
  setRopeScaling(scaling: RopeScaling): void;
  /**
   * Tensors training leaves as they are, values and AdamW moments alike (PyTorch's requires_grad = False),
   * e.g. ['wte.weight']; their gradients count nowhere, not even in the clipping norm. Replaces the previous
   * list; [] thaws all. A training setting: save() does not record it.
   */
  setFrozen(names: string[]): void;
  /** The names of the frozen tensors. */
  readonly frozen: string[];
}
