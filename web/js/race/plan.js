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

/** Per task: the rows read at each length (passkeys per depth; held-out windows for language). */
export const RACE_EVAL_ROWS = Object.freeze({ passkey: 20, language: 64 });

/** The corpus excerpt (written into the site by scripts/build-site.sh, through scripts/corpus-excerpt.mjs) and the size of the BPE trained on it. */
export const RACE_CORPUS = Object.freeze({ url: 'corpus/brown-excerpt.txt', vocabSize: 512 });

/** Trained once per seed and read with each scaling (longContextExperiment shares the model). */
export const ROPE_FAMILY = ['rope', 'rope_pi', 'rope_ntk', 'rope_yarn'];

/** Every scheme of the race in the order shown; 'rope_dynamic' is left out (see the section's text). */
export const RACE_SCHEMES = ['learned', 'sinusoidal', ...ROPE_FAMILY, 'alibi', 't5', 'none'];

export const SCHEME_NAMES = {
  learned: 'learned',
  sinusoidal: 'sinusoidal',
  rope: 'RoPE (extrapolated)',
  rope_pi: 'RoPE + PI',
  rope_ntk: 'RoPE + NTK',
  rope_yarn: 'RoPE + YaRN',
  alibi: 'ALiBi',
  t5: 'T5 bias',
  none: 'NoPE',
};

/** The options of one task's runs, as the worker passes them to the library (corpus added for 'language'). */
export function taskOptions(task, { steps, fineTuneSteps }) {
  return {
    ...RACE_OPTIONS,
    factors: [...RACE_OPTIONS.factors],
    task,
    steps,
    fineTuneSteps,
    evalRows: RACE_EVAL_ROWS[task],
  };
}

/**
 * The jobs of one task: per seed, the RoPE family as one job and every other scheme alone. The largest jobs come
 * first and the cheapest (learned, which stops at T) last, so the workers finish close together.
 */
export function raceJobs(task, seeds) {
  const singles = ['sinusoidal', 't5', 'alibi', 'none', 'learned'];
  return [
    ...seeds.map((seed) => ({ task, seed, schemes: ROPE_FAMILY })),
    ...singles.flatMap((scheme) => seeds.map((seed) => ({ task, seed, schemes: [scheme] }))),
  ];
}
