// Section 7's race: its configuration (a smaller run of the native experiment of docs/long-contexts.md, sized for a browser) and the
// jobs it splits into. No DOM: the configuration is also what the page states and what its tests compare against.

/** Options of every run (lab.longContextRun's names); steps and fine-tuning steps come from the page's inputs. */
export const RACE_OPTIONS = Object.freeze({
  trainLength: 32,
  factors: [1, 2, 4],
  batch: 16,
  learningRate: 3e-3,
  fineTuneLearningRate: 3e-4,
  channels: 32,
  layers: 2,
  heads: 4,
  depths: [0, 0.25, 0.5, 0.75, 1],
  digits: 2,
});

/** Per task: the rows read at each length (passkeys per depth × length cell; held-out windows for language). */
export const RACE_EVAL_ROWS = Object.freeze({ passkey: 50, language: 64 });

/** The model's RoPE base (lab.modelDefaults.ropeBase, which the runs keep): stated with every figure. */
export const RACE_ROPE_BASE = 10000;

/** A passkey run that answers fewer than this share at T zero-shot never learned the task (claims.js). */
export const LEARNED_AT_T = 0.9;

/**
 * The race's verdicts (verdicts.js): a loss comparison holds for a seed only past LOSS_MARGIN nats, since every
 * scheme's loss, NoPE's too, moves by a few hundredths from one position range of the same windows to the next
 * (the text, not the positions); a passkey comparison only past two standard errors of a difference of two shares
 * of its passkeys (see passkeyMargin). Fewer than VERDICT_SEEDS seeds (the small race) show numbers, no verdicts.
 */
export const LOSS_MARGIN = 0.05;
export const VERDICT_SEEDS = 3;

/** Two standard errors of the difference of two shares of `count` passkeys each, at its widest (shares of ½). */
export const passkeyMargin = (count) => 2 * Math.sqrt(0.5 / count);

/** The library's init of every weight matrix, token rows included: N(0, σ = 0.02), GPT-2's (parameter_layout.cc). */
export const INIT_STDDEV = 0.02;

/**
 * The race that runs by itself once the page is ready: one seed, fewer steps, the same schemes and readings, so
 * every panel fills in seconds. Its verdicts are its own, not the full race's.
 */
export const SMALL_RACE = Object.freeze({ steps: 100, fineTuneSteps: 10, firstSeed: 0, seedCount: 1 });

/** The corpus excerpt (written into the site by scripts/build-site.sh, through scripts/corpus-excerpt.mjs) and the size of the BPE trained on it. */
export const RACE_CORPUS = Object.freeze({ url: 'corpus/brown-excerpt.txt', vocabSize: 512 });

/** Trained once per seed and read with each scaling (longContextExperiment shares the model). */
export const ROPE_FAMILY = ['rope', 'rope_pi', 'rope_ntk', 'rope_yarn'];

/**
 * NTK-aware scaling at twice the length ratio (s = 2L/T, Peng et al.'s advice to set s above L/T), language only: the
 * RoPE family's trained model (the same run, not another training of it) read at 2L with s = 2L/T, of which the page
 * shows positions 0…L−1. The model is causal, so those positions' losses are those of L-token windows read with
 * s = 2L/T (other held-out windows of the same corpus).
 */
export const NTK_WIDE = 'rope_ntk_wide';

/** Every scheme of the race in the order shown; 'rope_dynamic' is left out (see the section's text). */
export const RACE_SCHEMES = ['learned', 'sinusoidal', ...ROPE_FAMILY, NTK_WIDE, 'alibi', 't5', 'none'];

export const SCHEME_NAMES = {
  learned: 'learned',
  sinusoidal: 'sinusoidal',
  rope: 'RoPE (extrapolated)',
  rope_pi: 'RoPE + PI',
  rope_ntk: 'RoPE + NTK',
  rope_yarn: 'RoPE + YaRN',
  [NTK_WIDE]: 'RoPE + NTK, s = 2L/T (other windows)',
  alibi: 'ALiBi',
  t5: 'T5 bias',
  none: 'NoPE',
};

/** The seeds a race runs: `count` consecutive seeds from `first`. */
export const raceSeeds = (first, count) => Array.from({ length: count }, (_, i) => first + i);

/**
 * The options of one job's runs, as the worker passes them to the library (corpus added for 'language'). `wide`: the
 * options of the NTK_WIDE reading, only at T and 2L, zero-shot.
 */
export function taskOptions(task, { steps, fineTuneSteps }, wide = false) {
  const factors = wide ? [1, 2 * RACE_OPTIONS.factors.at(-1)] : [...RACE_OPTIONS.factors];
  return {
    ...RACE_OPTIONS,
    factors,
    task,
    steps,
    fineTuneSteps: wide ? 0 : fineTuneSteps,
    evalRows: RACE_EVAL_ROWS[task],
  };
}

/**
 * The jobs of one task: per seed, the RoPE family as one job (one trained model read with each scaling, and for
 * language also NTK_WIDE's reading of it) and every other scheme alone. The largest jobs come first and the cheapest
 * (learned, which stops at T) last, so the workers finish close together.
 */
export function raceJobs(task, seeds) {
  const singles = ['sinusoidal', 't5', 'alibi', 'none', 'learned'];
  const family = task === 'language' ? [...ROPE_FAMILY, NTK_WIDE] : ROPE_FAMILY;
  return [
    ...seeds.map((seed) => ({ task, seed, schemes: family })),
    ...singles.flatMap((scheme) => seeds.map((seed) => ({ task, seed, schemes: [scheme] }))),
  ];
}

/**
 * The NTK_WIDE reading's run as the page draws it: the reading at T, and positions 0…L−1 of the reading at 2L as the
 * reading at L (by causality, see NTK_WIDE), marked `fromLength`.
 */
export function wideRun(run, L) {
  const atT = run.readings.find((r) => r.length < L && !r.fineTuned);
  const long = run.readings.find((r) => r.length === 2 * L && !r.fineTuned);
  const atL = long.available
    ? { ...long, length: L, fromLength: 2 * L, lossByPosition: Array.from(long.lossByPosition).slice(0, L) }
    : { ...long, length: L };
  return { ...run, scheme: NTK_WIDE, readings: [atT, atL] };
}
