// Training data from the project PRNG: seeded uniforms, random training windows of a token stream and
// evenly spaced evaluation windows. A seed gives the same numbers in both wasm flavours and natively.
import type { TokenIds } from '../runtime/types.js';
import type { Model } from '../model/model.js';
import type { EmbedLab } from '../lab.js';

/** A batch of windows as flat arrays: what {@link Model.trainStep} and {@link Model.evaluate} accept. */
export interface WindowBatch {
  /** batch × length token ids, window after window. */
  ids: Int32Array;
  /** The token after each id (the next-token targets), same shape. */
  targets: Int32Array;
  batch: number;
  length: number;
}

/** Options of {@link EmbedLab.evenlySpacedWindows}. */
export interface WindowOptions {
  /** Windows per batch, in [1, limits.maxSequenceLength]. */
  batch: number;
  /** Tokens per window, in [1, limits.maxSequenceLength]; the stream needs at least length + 1 tokens. */
  length: number;
}

/** Options of {@link EmbedLab.corpusBatches}. */
export interface CorpusBatchesOptions extends WindowOptions {
  /** Integer in [0, 2^53]; default 0. */
  seed?: number;
}

/** Options of {@link EmbedLab.randomUniform}. */
export interface RandomUniformOptions {
  /** Integer in [0, 2^53]; default 0. */
  seed?: number;
}

// Types of the long-context experiment (lab.longContextRun, lab.longContextExperiment) and its task generators.

/** 'passkey' (a key in filler, asked for at the end), 'recall' (key-value pairs, then a key), 'language' (a corpus). */
export type LongContextTask = 'passkey' | 'recall' | 'language';

/**
 * How a model trained at trainLength reads longer sequences: 'learned' (refused past T), 'sinusoidal' (tokens
 * scaled by sqrt(C)), 'rope' (extrapolated), 'rope_pi', 'rope_ntk', 'rope_dynamic', 'rope_yarn', 'alibi', 't5',
 * 'none'. lab.longContextSchemes lists those the model has.
 */
export type LongContextScheme = string;

/** Progress of one run: phase 'train' | 'evaluate' | 'fine-tune' | 'done', units done of total. */
export interface LongContextProgress {
  scheme: LongContextScheme;
  seed: number;
  phase: 'train' | 'evaluate' | 'fine-tune' | 'done';
  done: number;
  total: number;
}

/** Options shared by one run and the experiment; every field has the default shown. */
export interface LongContextOptions {
  /** Default 'passkey'. */
  task?: LongContextTask;
  /** Training length T. Default 64. */
  trainLength?: number;
  /** Read at T x factor for each (increasing integers). Default [1, 2, 4, 8]. */
  factors?: readonly number[];
  /** Training steps at T. Default 1500. */
  steps?: number;
  /** Fine-tuning steps at each longer length (PI's protocol); 0 for zero-shot only. Default 100. */
  fineTuneSteps?: number;
  /** Rows per step at T; fine-tuning keeps batch x T tokens per step. Default 16. */
  batch?: number;
  /** AdamW learning rate. Default 3e-3. */
  learningRate?: number;
  /** Learning rate of the fine-tuning (PI fine-tunes with a smaller one). Default 3e-4. */
  fineTuneLearningRate?: number;
  /** AdamW weight decay. Default 0. */
  weightDecay?: number;
  /** Model width, depth and heads. Defaults 64, 2, 4. */
  channels?: number;
  layers?: number;
  heads?: number;
  /** Depths of the answer read by the retrieval tasks (0: first token, 1: last). Default [0, 0.25, 0.5, 0.75, 1]. */
  depths?: readonly number[];
  /** Sequences per depth (retrieval) or held-out windows (language) per reading. Default 32. */
  evalRows?: number;
  /** Passkey digits. Default 2. */
  digits?: number;
  /** Recall keys (at least the pairs of the longest sequence) and values. Defaults 256, 16. */
  recallKeys?: number;
  recallValues?: number;
  /** task 'language': the corpus's token ids (its last tenth is held out) and its vocabulary size. */
  corpus?: TokenIds;
  vocabSize?: number;
  onProgress?: (progress: LongContextProgress) => void;
  /** Stops between units of work; the result then has aborted: true. */
  signal?: AbortSignal;
}

export interface LongContextRunOptions extends LongContextOptions {
  /** Default 'rope'. */
  scheme?: LongContextScheme;
  /** Model seed (its data follow from it). Default 0. */
  seed?: number;
  /**
   * The trained model of an earlier run (its result's parameters, with keepParameters) to read instead of training
   * one: a RoPE model read with another scaling, as longContextExperiment shares one per seed. Its options must give
   * the same model (task, vocabulary, channels, layers, heads, trainLength); steps are then skipped.
   */
  trained?: LongContextTrainedModel;
  /** Add the trained model's parameters to the result (to pass as trained to other runs). Default false. */
  keepParameters?: boolean;
}

/** A run's trained model: its parameters and the mean of its last 50 training losses. */
export interface LongContextTrainedModel {
  parameters: Float32Array;
  trainLoss: number;
}

export interface LongContextExperimentOptions extends LongContextOptions {
  /** Default: every scheme of lab.longContextSchemes. */
  schemes?: readonly LongContextScheme[];
  /** Default [0, 1, 2]. */
  seeds?: readonly number[];
}

/**
 * lab.longContextDefaults: what a run uses for each option left out (the C++ core's defaults, read once), the
 * seeds of an experiment, and the tasks in the core's order.
 */
export interface LongContextDefaults extends Readonly<
  Required<Omit<LongContextRunOptions, 'corpus' | 'vocabSize' | 'onProgress' | 'signal'>>
> {
  /** longContextExperiment's seeds when none are given. */
  readonly seeds: readonly number[];
  /** 'passkey', 'recall', 'language'. */
  readonly tasks: readonly LongContextTask[];
}

/** One cell: a length, zero-shot or after fine-tuning there. */
export interface LongContextReading {
  length: number;
  factor: number;
  fineTuned: boolean;
  /** false for learned positions past T; reason holds the model's refusal. */
  available: boolean;
  reason: string | null;
  /** language: mean held-out loss (nats) at each position 0..length-1. */
  lossByPosition: Float64Array | null;
  /** retrieval: exact-match accuracy and mean answer loss at each depth. */
  accuracyByDepth: Float64Array | null;
  lossByDepth: Float64Array | null;
}

export interface LongContextRunResult {
  scheme: LongContextScheme;
  seed: number;
  aborted: boolean;
  /** Mean of the last 50 training losses. */
  trainLoss: number;
  /** The answer's entropy given the context: 0 for the retrieval tasks, null (none known) for language. */
  entropyFloor: number | null;
  /** Loss of a model that cannot find the answer: ln 10 per passkey digit, ln(values) for recall. */
  chanceLoss: number | null;
  readings: LongContextReading[];
  /** With keepParameters: the trained model's parameters (with trainLoss, a LongContextTrainedModel). */
  parameters?: Float32Array;
}

/** Mean and range over seeds. */
export interface SeedSpread {
  mean: number;
  min: number;
  max: number;
}

export interface LongContextSummaryEntry {
  scheme: LongContextScheme;
  length: number;
  factor: number;
  fineTuned: boolean;
  available: boolean;
  reason: string | null;
  /** retrieval: accuracy averaged over depths, spread over seeds; and the mean over seeds at each depth. */
  accuracy?: SeedSpread;
  accuracyByDepth?: Float64Array;
  /** language: mean loss over positions [from, to): [0, T), [T, f1 T), ... up to the reading's length. */
  lossByRange?: (SeedSpread & { from: number; to: number })[];
}

export interface LongContextExperimentResult {
  task: LongContextTask;
  trainLength: number;
  factors: number[];
  depths: number[] | null;
  schemes: LongContextScheme[];
  seeds: number[];
  entropyFloor: number | null;
  chanceLoss: number | null;
  aborted: boolean;
  runs: LongContextRunResult[];
  /** null when aborted. */
  summary: LongContextSummaryEntry[] | null;
}

/** One generated sequence: ids, targets (-1 = none) and where the key (passkey: KEY marker; recall: queried key) is. */
export interface LongContextSequence {
  ids: Int32Array;
  targets: Int32Array;
  keyPosition: number;
  vocabSize: number;
}

export interface PasskeySampleOptions {
  /** Default 2. */
  digits?: number;
  length: number;
  /** Default 0.5. */
  depth?: number;
  /** Default 0. */
  seed?: number;
}

export interface RecallSampleOptions {
  /** Defaults 256 and 16. */
  keys?: number;
  values?: number;
  length: number;
  depth?: number;
  seed?: number;
}
