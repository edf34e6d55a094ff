// The tiny GPT as a JS object: configs with defaults, batches as arrays of sequences, an async training
// loop that yields to the event loop (progress events, AbortSignal) between steps.
import {
  describe,
  requireBoolean,
  requireInteger,
  requireIntegerType,
  requireNumberType,
  requireOptions,
  requireSeed,
  requireSignal,
  requireVector,
} from '../runtime/checks.js';
import { WasmHandle } from '../runtime/wasm_handle.js';
import { normalizeRopeScaling } from '../positions/rope_scaling.js';
import { yieldToEventLoop } from '../runtime/scheduling.js';
import { normalizeBatch } from './batch.js';
/** @import { EmbedLab } from '../lab.js' */
/** @import { Batch, ModelConfig, ModelDefaults, OptimizerOptions, TrainOptions, TrainStepResult } from './types.js' */
/** @import { RopeScaling } from '../positions/types.js' */

// The options createModel takes (`frozen` is read by model/create.js), and those of config.optimizer.
const MODEL_OPTIONS = [
  'vocabSize',
  'contextLength',
  'channels',
  'layers',
  'heads',
  'positions',
  'ropeLayout',
  'ropeBase',
  'ropeScaling',
  'causal',
  't5NumBuckets',
  't5MaxDistance',
  'embeddingScale',
  'seed',
  'optimizer',
  'frozen',
];
const OPTIMIZER_OPTIONS = ['learningRate', 'beta1', 'beta2', 'eps', 'weightDecay', 'maxGradNorm'];

/**
 * The config with the core's defaults (lab.modelDefaults) filled in. Checked here: option names, JS types,
 * integer-ness, the seed (requireSeed) and the names of lab.positionSchemes and lab.ropeLayouts; every range and
 * relation (heads divides channels, ropeScaling needs positions 'rope', beta1 < 1) is the core's ValidateGptConfig and
 * ValidateAdamWOptions, whose messages name the option as here: config.heads, config.optimizer.beta1.
 * @param {ModelConfig} config
 * @param {EmbedLab} lab
 * @internal
 */
export function normalizeModelConfig(config, lab) {
  const { modelDefaults, positionSchemes, ropeLayouts } = lab;
  const options = requireOptions('config', config, MODEL_OPTIONS);
  const { optimizer: optimizerDefaults, ...fieldDefaults } = modelDefaults;
  const model = { ...fieldDefaults, vocabSize: options.vocabSize };
  for (const key of Object.keys(fieldDefaults)) {
    if (options[key] !== undefined) {
      model[key] = options[key];
    }
  }
  for (const key of ['vocabSize', 'contextLength', 'channels', 'layers', 'heads']) {
    requireIntegerType(`config.${key}`, model[key]);
  }
  if (!positionSchemes.includes(model.positions)) {
    throw new TypeError(
      `config.positions must be one of ${positionSchemes.join(', ')}, got ${describe(model.positions)}`,
    );
  }
  if (!ropeLayouts.includes(model.ropeLayout)) {
    throw new TypeError(
      `config.ropeLayout must be ${ropeLayouts.map((name) => `'${name}'`).join(' or ')}, got ${describe(model.ropeLayout)}`,
    );
  }
  requireNumberType('config.ropeBase', model.ropeBase);
  model.ropeScaling = normalizeRopeScaling('config.ropeScaling', options.ropeScaling, lab);
  requireBoolean('config.causal', model.causal);
  // T5's bucket options belong to positions 't5' (the core ignores them elsewhere: refuse rather than drop them).
  for (const key of ['t5NumBuckets', 't5MaxDistance']) {
    if (model.positions !== 't5' && options[key] !== undefined) {
      throw new TypeError(
        `config.${key} needs config.positions 't5', got config.positions ${describe(model.positions)}`,
      );
    }
    requireIntegerType(`config.${key}`, model[key]);
  }
  requireNumberType('config.embeddingScale', model.embeddingScale);
  requireSeed('config.seed', model.seed, lab.limits);
  const given = requireOptions('config.optimizer', options.optimizer, OPTIMIZER_OPTIONS);
  const optimizer = { ...optimizerDefaults };
  for (const [key, value] of Object.entries(given)) {
    if (value !== undefined) {
      optimizer[key] = requireNumberType(`config.optimizer.${key}`, value);
    }
  }
  return { model, optimizer };
}

/**
 * createModel's defaults as the core defines them (GptConfig and AdamWOptions), frozen, the float32 optimizer
 * settings as the shortest decimals (1e-3, as Model.config shows them).
 * @param {any} raw the Embind module
 * @returns {ModelDefaults}
 * @internal
 */
export function readModelDefaults(raw) {
  const defaults = raw.modelDefaults();
  for (const [key, value] of Object.entries(defaults.optimizer)) {
    defaults.optimizer[key] = shortestFloat32(value);
  }
  Object.freeze(defaults.optimizer);
  Object.freeze(defaults.ropeScaling);
  return Object.freeze(defaults);
}

/**
 * The shortest decimal that rounds to the same float32 as `value`.
 * @internal
 */
export function shortestFloat32(value) {
  for (let digits = 1; digits <= 9; digits++) {
    const candidate = Number(value.toPrecision(digits));
    if (Math.fround(candidate) === value) {
      return candidate;
    }
  }
  return value;
}

/**
 * @param {string} name
 * @param {unknown} names
 * @returns {asserts names is string[]}
 * @internal
 */
export function requireTensorNames(name, names) {
  if (!Array.isArray(names) || !names.every((entry) => typeof entry === 'string')) {
    throw new TypeError(`${name} must be an array of tensor names such as ['wte.weight'], got ${describe(names)}`);
  }
}

/** A tiny GPT with its AdamW optimizer: hand-written forward and backward, checked against PyTorch. */
export class Model extends WasmHandle {
  /**
   * The config with defaults filled in, with the optimizer's options under `optimizer`; `frozen` is not part of it
   * (see {@link Model.frozen}).
   * @returns {Required<Omit<ModelConfig, 'optimizer' | 'frozen'>> & { optimizer: Required<OptimizerOptions> }}
   */
  get config() {
    const config = this.raw().config();
    // The optimizer keeps float32 settings: show each as the shortest decimal that is that float (1e-3, not
    // 0.0010000000474974513), which is also what it was given.
    for (const [key, value] of Object.entries(config.optimizer)) {
      config.optimizer[key] = shortestFloat32(value);
    }
    return config;
  }

  /** @returns {number} */
  get parameterCount() {
    return this.raw().parameterCount();
  }

  /**
   * Optimizer steps taken so far.
   * @returns {number}
   */
  get step() {
    return this.raw().step();
  }

  /**
   * The longest sequence the model accepts (contextLength for learned positions).
   * @returns {number}
   */
  get maxLength() {
    return this.raw().maxLength();
  }

  /**
   * One AdamW step on {ids, targets}.
   * @param {Batch} batch
   * @returns {TrainStepResult}
   */
  trainStep(batch) {
    const raw = this.raw();
    const b = normalizeBatch(batch, true, this.lab.limits.maxSequenceLength);
    return this.lab.call(() => raw.trainStep(b.ids, b.targets, b.batch, b.length));
  }

  /**
   * Trains for options.steps steps on batches from options.batches(step) (a function returning a batch),
   * yielding to the event loop between steps. onProgress({step, loss, gradientNorm}) after each step;
   * options.signal (AbortSignal) stops early. Resolves to {losses, aborted}.
   * @param {TrainOptions} options
   * @returns {Promise<{ losses: number[]; aborted: boolean }>}
   */
  async train(options) {
    const { steps, batches, onProgress, signal } = requireOptions('options', options, [
      'steps',
      'batches',
      'onProgress',
      'signal',
    ]);
    requireInteger('steps', steps, 0, 1e9);
    if (typeof batches !== 'function') {
      throw new TypeError(`batches must be a function (step) => batch, got ${describe(batches)}`);
    }
    if (onProgress !== undefined && typeof onProgress !== 'function') {
      throw new TypeError(`onProgress must be a function, got ${describe(onProgress)}`);
    }
    requireSignal('signal', signal);
    /** @type {number[]} */
    const losses = [];
    let lastYield = performance.now();
    for (let i = 0; i < steps; i++) {
      if (signal?.aborted) {
        return { losses, aborted: true };
      }
      /** @type {any} a batch, or a promise of one */
      let batch = batches(i);
      if (typeof batch?.then === 'function') {
        batch = await batch; // an async source (reading a file, a worker) may return a promise
      }
      const result = this.trainStep(batch);
      losses.push(result.loss);
      onProgress?.(result);
      if (performance.now() - lastYield > 16) {
        await yieldToEventLoop();
        lastYield = performance.now();
      }
    }
    return { losses, aborted: false };
  }

  /**
   * Mean cross-entropy on {ids, targets}, parameters untouched.
   * @param {Batch} batch
   * @returns {number}
   */
  evaluate(batch) {
    const raw = this.raw();
    const b = normalizeBatch(batch, true, this.lab.limits.maxSequenceLength);
    return this.lab.call(() => raw.evaluate(b.ids, b.targets, b.batch, b.length));
  }

  /**
   * Logits for {ids}: a Float32Array of batch × length × vocabSize.
   * @param {Batch} batch
   * @returns {Float32Array}
   */
  logits(batch) {
    const raw = this.raw();
    const b = normalizeBatch(batch, false, this.lab.limits.maxSequenceLength);
    return this.lab.call(() => raw.logits(b.ids, b.batch, b.length));
  }

  /**
   * wte: a Float32Array of vocabSize × channels.
   * @returns {Float32Array}
   */
  tokenEmbeddings() {
    const raw = this.raw();
    return this.lab.call(() => raw.tokenEmbeddings());
  }

  /**
   * What is added to tokens at positions [0, length): wpe rows or the sinusoids; null for rope, alibi, t5, none.
   * @param {number} [length] default contextLength
   * @returns {Float32Array | null}
   */
  positionEmbeddings(length = this.config.contextLength) {
    const raw = this.raw();
    requireInteger('length', length, 0, this.maxLength);
    const additive = ['learned', 'sinusoidal'].includes(this.config.positions);
    if (length === 0) {
      return additive ? new Float32Array(0) : null;
    }
    return this.lab.call(() => raw.positionEmbeddings(length));
  }

  /**
   * Residual stream of one sequence: layers + 1 Float32Arrays of length × channels (0: after the embedding).
   * @param {ArrayLike<number>} ids
   * @returns {Float32Array[]}
   */
  hiddenStates(ids) {
    const raw = this.raw();
    const b = normalizeBatch({ ids: [ids] }, false, this.lab.limits.maxSequenceLength);
    return this.lab.call(() => raw.hiddenStates(b.ids));
  }

  /**
   * The model and optimizer state as safetensors bytes: weights with GPT-2 names (wte, wpe, h.0.attn.c_attn.weight,
   * ...), optimizer state, config in the metadata.
   * @returns {Uint8Array}
   */
  save() {
    const raw = this.raw();
    return this.lab.call(() => raw.save());
  }

  /**
   * A parameter tensor by name (as {@link Model.save} names it: 'wte.weight', 'h.0.attn.c_attn.weight', ...), a
   * Float32Array copy in the layout save() writes (Hugging Face GPT-2's: attention and MLP matrices as (in, out)).
   * @param {string} name
   * @returns {Float32Array}
   */
  tensor(name) {
    const raw = this.raw();
    if (typeof name !== 'string') {
      throw new TypeError(`name must be a tensor name such as 'wte.weight', got ${describe(name)}`);
    }
    return this.lab.call(() => raw.tensor(name));
  }

  /**
   * Replaces a parameter tensor's values (same layout as {@link Model.tensor}), e.g. wte from trained word vectors
   * (lab.trainWordVectors' vectors when dim = channels). Training goes on from them; the AdamW moments and step stay,
   * and a frozen tensor keeps the values given. An unknown name lists the model's tensors; a wrong length states the
   * shape.
   * @example model.setTensor('wte.weight', vectors) // vocabSize × channels
   * @param {string} name
   * @param {ArrayLike<number>} values
   * @returns {void}
   */
  setTensor(name, values) {
    const raw = this.raw();
    if (typeof name !== 'string') {
      throw new TypeError(`name must be a tensor name such as 'wte.weight', got ${describe(name)}`);
    }
    requireVector('values', values);
    this.lab.call(() => raw.setTensor(name, values));
  }

  /**
   * Tensors training leaves as they are, values and AdamW moments alike (PyTorch's requires_grad = False):
   * e.g. ['wte.weight'] to keep the token table at its initial values. Replaces the previous list; [] thaws all.
   * Their gradients count nowhere, not even in the clipping norm. Not saved by save() (a training setting, as in a
   * PyTorch state_dict).
   * @param {string[]} names
   * @returns {void}
   */
  setFrozen(names) {
    const raw = this.raw();
    requireTensorNames('names', names);
    this.lab.call(() => raw.setFrozen([...names]));
  }

  /**
   * The names of the frozen tensors (see setFrozen).
   * @returns {string[]}
   */
  get frozen() {
    return this.raw().frozen();
  }

  /**
   * Replaces the RoPE scaling of a model with positions 'rope' ({type: 'none'} removes it): read a trained
   * model zero-shot at longer lengths, then go on training. Weights and optimizer state are untouched; save()
   * records it.
   * @example model.setRopeScaling({ type: 'yarn', factor: 4, originalContextLength: 64 })
   * @param {RopeScaling} scaling
   * @returns {void}
   */
  setRopeScaling(scaling) {
    const raw = this.raw();
    const positions = raw.config().positions;
    if (positions !== 'rope') {
      throw new TypeError(`setRopeScaling needs a model with positions 'rope', this one has '${positions}'`);
    }
    const normalized = normalizeRopeScaling('scaling', scaling, /** @type {EmbedLab} */ (this.lab));
    this.lab.call(() => raw.setRopeScaling(normalized));
  }

  /**
   * Sets the AdamW learning rate for the next steps.
   * @param {number} learningRate in [0, 10] (the core's range)
   * @returns {void}
   */
  setLearningRate(learningRate) {
    const raw = this.raw();
    requireNumberType('learningRate', learningRate);
    this.lab.call(() => raw.setLearningRate(learningRate));
  }
}
