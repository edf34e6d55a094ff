// The long-context experiment (C++ core: training/long_context_run.h): train at trainLength, read at
// trainLength x factor zero-shot and after a short fine-tune, for one scheme and seed (longContextRun, the unit a
// page runs in a worker) or for a grid of schemes x seeds with the spread over seeds (longContextExperiment).
// Plus single passkey / recall sequences for a seed. Functions take the lab's internals ({lab, raw}, see runtime/wasm_instance.js).
// Defaults come from the core (lab.longContextDefaults); here only what the core cannot see: option names, the
// task's name, JS types and integer-ness (Embind would coerce a string to NaN and truncate 1.5). Every range is
// the core's (training/long_context_run.cc, recall_task.cc, passkey_task.cc), named as these options are.
import {
  describe,
  requireIds,
  requireIntegerType,
  requireNumberType,
  requireOptions,
  requireSeed,
  requireSignal,
} from '../runtime/checks.js';
import { yieldToEventLoop } from '../runtime/scheduling.js';
/** @import { EmbedLab } from '../lab.js' */
/** @import { LabInternals, TokenIds } from '../runtime/types.js' */
/** @import * as types from './types.js' */

const CALLBACK_KEYS = ['onProgress', 'signal'];

/**
 * The core's defaults and task names (LongContextSpec, training/long_context_run.h), frozen: lab.longContextDefaults.
 * @param {any} raw the Embind module
 * @returns {types.LongContextDefaults}
 */
export function readDefaults(raw) {
  const defaults = raw.longContextDefaults();
  for (const value of Object.values(defaults)) {
    if (Array.isArray(value)) {
      Object.freeze(value);
    }
  }
  return Object.freeze(defaults);
}

// The options of one run: every default's name but the experiment's (seeds) and the name list (tasks), and the
// language task's corpus.
function specKeys(lab) {
  const keys = Object.keys(lab.longContextDefaults).filter((key) => key !== 'seeds' && key !== 'tasks');
  return [...keys, 'corpus', 'vocabSize'];
}

function requireList(name, value, check) {
  if (!Array.isArray(value) || value.length === 0) {
    throw new TypeError(`${name} must be a non-empty array, got ${describe(value)}`);
  }
  value.forEach((item, i) => check(`${name}[${i}]`, item));
  return value;
}

// An array (its length is the core's to check) of items that pass `check`.
function requireArray(name, value, check) {
  if (!Array.isArray(value)) {
    throw new TypeError(`${name} must be an array, got ${describe(value)}`);
  }
  value.forEach((item, i) => check(`${name}[${i}]`, item));
}

const INTEGER_OPTIONS = ['trainLength', 'steps', 'fineTuneSteps', 'batch', 'channels', 'layers', 'heads'];
INTEGER_OPTIONS.push('evalRows', 'digits', 'recallKeys', 'recallValues');
const NUMBER_OPTIONS = ['learningRate', 'fineTuneLearningRate', 'weightDecay'];

/**
 * The checked spec with every field present, as the raw module reads it.
 * @param {EmbedLab} lab
 * @param {(types.LongContextRunOptions & types.LongContextExperimentOptions) | undefined} options
 * @param {string[]} extraKeys
 */
function normalizeSpec(lab, options, extraKeys) {
  const keys = specKeys(lab);
  const given = requireOptions('options', options, [...keys, ...CALLBACK_KEYS, ...extraKeys]);
  const defaults = lab.longContextDefaults;
  const { tasks } = defaults;
  /** @type {Required<Omit<types.LongContextRunOptions, 'onProgress' | 'signal' | 'corpus'>> & { corpus: TokenIds | null }} */
  const spec = /** @type {any} */ ({ corpus: null, vocabSize: 0 });
  for (const key of keys) {
    if (given[key] !== undefined) {
      spec[key] = given[key];
    } else if (key in defaults) {
      spec[key] = defaults[key];
    }
  }
  if (!tasks.includes(spec.task)) {
    throw new TypeError(`task must be one of ${tasks.join(', ')}, got ${describe(spec.task)}`);
  }
  INTEGER_OPTIONS.forEach((key) => requireIntegerType(key, spec[key]));
  NUMBER_OPTIONS.forEach((key) => requireNumberType(key, spec[key]));
  requireArray('factors', spec.factors, requireIntegerType);
  requireSeed('seed', spec.seed, lab.limits);
  requireArray('depths', spec.depths, requireNumberType);
  if (spec.task === 'language') {
    if (spec.corpus === null) {
      throw new TypeError("task 'language' needs corpus (the token ids of a text) and its vocabSize");
    }
    spec.corpus = requireIds('corpus', spec.corpus, Infinity);
    requireIntegerType('vocabSize', spec.vocabSize);
  } else if (given.corpus !== undefined || given.vocabSize !== undefined) {
    throw new TypeError(`corpus and vocabSize belong to task 'language', not '${spec.task}'`);
  }
  const { onProgress, signal } = given;
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw new TypeError(`onProgress must be a function, got ${describe(onProgress)}`);
  }
  requireSignal('signal', signal);
  return { spec, onProgress, signal, given };
}

// Runs a raw runner to its end in slices of about 16 ms; false when the signal stopped it.
async function drive(lab, runner, label, onProgress, signal) {
  let units = 1;
  for (;;) {
    if (signal?.aborted) {
      return false;
    }
    const start = performance.now();
    const finished = lab.call(() => runner.advance(units));
    const elapsed = performance.now() - start;
    units = elapsed < 8 ? units * 2 : elapsed > 32 ? Math.max(1, units >> 1) : units;
    onProgress?.({ ...label, ...runner.progress() });
    if (finished) {
      return true;
    }
    await yieldToEventLoop();
  }
}

async function runOne({ lab, raw }, spec, onProgress, signal, shared) {
  const runner = lab.call(() => raw.createLongContextRunner(spec));
  try {
    if (shared) {
      lab.call(() => runner.useTrainedParameters(shared.parameters, shared.trainLoss));
    }
    const finished = await drive(lab, runner, { scheme: spec.scheme, seed: spec.seed }, onProgress, signal);
    const result = { scheme: spec.scheme, seed: spec.seed, aborted: !finished, ...runner.result() };
    return { result, parameters: finished ? runner.trainedParameters() : null };
  } finally {
    runner.delete();
  }
}

/**
 * @param {LabInternals} internals
 * @param {types.LongContextRunOptions} [options]
 * @returns {Promise<types.LongContextRunResult>}
 */
export async function longContextRun(internals, options) {
  const { spec, onProgress, signal, given } = normalizeSpec(internals.lab, options, ['trained', 'keepParameters']);
  requireScheme(internals.lab, 'scheme', spec.scheme);
  const trained = given.trained === undefined ? null : requireTrained(given.trained);
  const { keepParameters = false } = given;
  if (typeof keepParameters !== 'boolean') {
    throw new TypeError(`keepParameters must be true or false, got ${describe(keepParameters)}`);
  }
  const { result, parameters } = await runOne(internals, spec, onProgress, signal, trained);
  return keepParameters ? { ...result, parameters } : result;
}

// {parameters, trainLoss} of an earlier run (its result with keepParameters): the size is the core's to check
// against this run's model.
function requireTrained(trained) {
  if (trained === null || typeof trained !== 'object') {
    throw new TypeError(
      `trained must be {parameters, trainLoss} of a run with keepParameters, got ${describe(trained)}`,
    );
  }
  const { parameters, trainLoss } = trained;
  if (!(parameters instanceof Float32Array)) {
    throw new TypeError(
      `trained.parameters must be a Float32Array (a result's parameters), got ${describe(parameters)}`,
    );
  }
  if (!Number.isFinite(requireNumberType('trained.trainLoss', trainLoss))) {
    throw new RangeError(`trained.trainLoss must be a finite number, got ${describe(trainLoss)}`);
  }
  return { parameters, trainLoss };
}

function requireScheme(lab, name, scheme) {
  if (!lab.longContextSchemes.includes(scheme)) {
    throw new TypeError(`${name} must be one of ${lab.longContextSchemes.join(', ')}, got ${describe(scheme)}`);
  }
}

function spread(values) {
  if (values.some((v) => v === null)) {
    return null;
  }
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return { mean, min: Math.min(...values), max: Math.max(...values) };
}

const average = (array, from = 0, to = array.length) => {
  let sum = 0;
  for (let i = from; i < to; i += 1) {
    sum += array[i];
  }
  return sum / (to - from);
};

// Per scheme and reading, the mean and min-max over seeds: accuracy (mean over depths) and accuracy by depth for
// the retrieval tasks; for language, the loss over position ranges [0, T), [T, f1 T), [f1 T, f2 T), ...
function summarize(runs, schemes, seeds, trainLength, factors) {
  const summary = [];
  for (const scheme of schemes) {
    const mine = seeds.map((seed) => runs.find((r) => r.scheme === scheme && r.seed === seed));
    mine[0].readings.forEach((first, index) => {
      const readings = mine.map((run) => run.readings[index]);
      const available = readings.every((r) => r.available);
      const entry = { scheme, length: first.length, factor: first.factor, fineTuned: first.fineTuned, available };
      entry.reason = available ? null : readings.find((r) => !r.available).reason;
      if (available && first.accuracyByDepth) {
        entry.accuracy = spread(readings.map((r) => average(r.accuracyByDepth)));
        entry.accuracyByDepth = first.accuracyByDepth.map((_, d) => average(readings.map((r) => r.accuracyByDepth[d])));
      }
      if (available && first.lossByPosition) {
        const edges = [0, ...factors.map((f) => f * trainLength).filter((end) => end <= first.length)];
        entry.lossByRange = edges.slice(1).map((to, i) => ({
          from: edges[i],
          to,
          ...spread(readings.map((r) => average(r.lossByPosition, edges[i], to))),
        }));
      }
      summary.push(entry);
    });
  }
  return summary;
}

/**
 * @param {LabInternals} internals
 * @param {types.LongContextExperimentOptions} [options]
 * @returns {Promise<types.LongContextExperimentResult>}
 */
export async function longContextExperiment(internals, options) {
  const { lab } = internals;
  const { spec, onProgress, signal, given } = normalizeSpec(lab, options, ['schemes', 'seeds']);
  const schemes = given.schemes ?? lab.longContextSchemes;
  requireList('schemes', schemes, (name, s) => requireScheme(lab, name, s));
  const seeds = requireList('seeds', given.seeds ?? lab.longContextDefaults.seeds, (name, s) =>
    requireSeed(name, s, lab.limits),
  );
  if (given.scheme !== undefined || given.seed !== undefined) {
    throw new TypeError('longContextExperiment takes schemes and seeds (arrays), not scheme and seed');
  }
  const runs = [];
  let aborted = false;
  for (const seed of seeds) {
    let shared = null; // the RoPE rows of a seed read one trained model, as separate runs would train it
    for (const scheme of schemes) {
      const rope = scheme.startsWith('rope');
      const { result, parameters } = await runOne(
        internals,
        { ...spec, scheme, seed },
        onProgress,
        signal,
        rope ? shared : null,
      );
      if (rope && !shared && parameters) {
        shared = { parameters, trainLoss: result.trainLoss };
      }
      runs.push(result);
      if (result.aborted) {
        aborted = true;
      }
      if (aborted) {
        break;
      }
    }
    if (aborted) {
      break;
    }
  }
  const first = runs[0];
  return {
    task: spec.task,
    trainLength: spec.trainLength,
    factors: [...spec.factors],
    depths: spec.task === 'language' ? null : [...spec.depths],
    schemes: [...schemes],
    seeds: [...seeds],
    entropyFloor: first?.entropyFloor ?? null,
    chanceLoss: first?.chanceLoss ?? null,
    aborted,
    runs,
    summary: aborted ? null : summarize(runs, schemes, seeds, spec.trainLength, spec.factors),
  };
}

/**
 * @param {LabInternals} internals
 * @param {types.PasskeySampleOptions} options
 * @returns {types.LongContextSequence & { text: string }}
 */
export function passkeySample({ lab, raw }, options) {
  const given = requireOptions('options', options, ['digits', 'length', 'depth', 'seed']);
  const { digits = lab.longContextDefaults.digits, length, depth = 0.5, seed = 0 } = given;
  requireIntegerType('digits', digits);
  requireIntegerType('length', length);
  requireNumberType('depth', depth);
  requireSeed('seed', seed, lab.limits);
  return lab.call(() => raw.passkeySample(digits, length, depth, seed));
}

/**
 * @param {LabInternals} internals
 * @param {types.RecallSampleOptions} options
 * @returns {types.LongContextSequence}
 */
export function recallSample({ lab, raw }, options) {
  const given = requireOptions('options', options, ['keys', 'values', 'length', 'depth', 'seed']);
  const { recallKeys, recallValues } = lab.longContextDefaults;
  const { keys = recallKeys, values = recallValues, length, depth = 0.5, seed = 0 } = given;
  requireIntegerType('keys', keys);
  requireIntegerType('values', values);
  requireIntegerType('length', length);
  requireNumberType('depth', depth);
  requireSeed('seed', seed, lab.limits);
  return lab.call(() => raw.recallSample(keys, values, length, depth, seed));
}
