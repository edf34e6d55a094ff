// `embedlab long-context`: the long-context experiment of the package (lab.longContextExperiment) on the command
// line. Prints the tables the README shows: answer accuracy by length (passkey, recall) or held-out loss by
// position range (language, on a text file tokenized by a BPE trained on it), mean (min–max) over seeds.
import { readFileSync } from 'node:fs';

export const LONG_CONTEXT_USAGE =
  'embedlab long-context [--task passkey|recall|language] [--corpus FILE] [--schemes a,b] [--seeds 0,1,2] ' +
  '[--train-length 64] [--factors 1,2,4,8] [--steps 1500] [--fine-tune-steps 100] [--json]';

// Options of this command only; cli.js merges them into its parser.
/** @type {NonNullable<import('node:util').ParseArgsConfig['options']>} */
export const LONG_CONTEXT_OPTIONS = {
  task: { type: 'string', default: 'passkey' },
  corpus: { type: 'string' },
  schemes: { type: 'string' },
  seeds: { type: 'string', default: '0,1,2' },
  'train-length': { type: 'string', default: '64' },
  factors: { type: 'string', default: '1,2,4,8' },
  steps: { type: 'string', default: '1500' },
  'fine-tune-steps': { type: 'string', default: '100' },
  json: { type: 'boolean', default: false },
};

function integers(name, text) {
  return text.split(',').map((part) => {
    const value = Number(part);
    if (part.trim() === '' || !Number.isInteger(value)) {
      throw new RangeError(`--${name} must be integers separated by commas, got ${text}`);
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

export async function longContext(lab, values) {
  const options = {
    task: values.task,
    seeds: integers('seeds', values.seeds),
    trainLength: integers('train-length', values['train-length'])[0],
    factors: integers('factors', values.factors),
    steps: integers('steps', values.steps)[0],
    fineTuneSteps: integers('fine-tune-steps', values['fine-tune-steps'])[0],
  };
  if (values.schemes !== undefined) {
    options.schemes = values.schemes.split(',');
  }
  if (values.task === 'language') {
    if (values.corpus === undefined) {
      throw new TypeError('--task language needs --corpus FILE (e.g. build/corpus/brown.txt)');
    }
    const text = new Uint8Array(readFileSync(values.corpus));
    const vocabSize = values['vocab-size'] === undefined ? 512 : Number(values['vocab-size']);
    const tokenizer = await lab.trainTokenizer(text, { vocabSize, pattern: 'gpt2' });
    options.corpus = tokenizer.encodeOrdinary(text);
    options.vocabSize = tokenizer.vocabSize;
    tokenizer.dispose();
  } else if (values.corpus !== undefined) {
    throw new TypeError(`--corpus belongs to --task language, not ${values.task}`);
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
/**
 * @param {string} key
 * @param {unknown} value
 */
function jsonNumbers(key, value) {
  if (ArrayBuffer.isView(value)) {
    return Array.from(/** @type {Float64Array} */ (value), (v) => (Number.isFinite(v) ? v : null));
  }
  return value;
}
