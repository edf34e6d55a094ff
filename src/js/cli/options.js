// The options of each `embedlab` command and the reading of a command line against them: a command takes only its
// own options, a mistyped one gets the closest name, a value outside an option's choices or range is refused with
// the option's name, and a negative number after an option is its value (node's parseArgs calls `--dim -4`
// ambiguous).
import { parseArgs } from 'node:util';

import { closest } from '../runtime/checks.js';
import { ENCODING_NAMES } from '../tokenizer/create.js';
import { LONG_CONTEXT_COMMAND } from './long_context.js';
import { UsageError } from './usage_error.js';

// Each option: parseArgs's type/short/multiple/default, and for the help: `value` (the placeholder) and `help`;
// `choices` (allowed values, `why` the others are not) or `min` (an integer at least min) are checked before the
// command runs.
const TOKENIZER_OPTIONS = {
  encoding: {
    type: 'string',
    value: 'NAME',
    choices: ENCODING_NAMES,
    help: `the vocabulary: ${ENCODING_NAMES.join(', ')} (default cl100k_base)`,
  },
  tokenizer: {
    type: 'string',
    value: 'FILE',
    help: "a file from train-bpe or Tokenizer.save(), or a Hugging Face tokenizer.json (its folder's tokenizer_config.json is read too); a plain .tiktoken file needs --encoding NAME as well, for its pattern and special tokens",
  },
};
const CHUNK_SIZE_OPTION = {
  'chunk-size': {
    type: 'string',
    default: String(1 << 20),
    value: 'BYTES',
    help: 'read and encode about this many bytes at a time, cut only where the ids cannot change: memory holds one chunk plus the text since the last such cut (default 1048576)',
  },
  'max-buffer-bytes': {
    type: 'string',
    value: 'BYTES',
    help: 'the most text held while no cut comes (one run of a letter or of spaces has none; nor has a tokenizer.json whose pipeline has no proven cut); past it the command fails saying so (default 67108864, or the chunk size if larger)',
  },
};

const THREADS_OPTION = {
  threads: {
    type: 'string',
    value: 'N',
    help: 'encode on N worker threads, each with its own tokenizer; the output is byte-identical to one thread (count, and tokenize with the bin format; default: the number of cores)',
  },
};

/** Per command: its usage line after `embedlab`, what it does, and its options. */
export const COMMANDS = {
  tokenize: {
    usage:
      'tokenize [--encoding NAME | --tokenizer FILE] [--format ids|json|bin] [--threads N] [--chunk-size BYTES] [--max-buffer-bytes BYTES] [FILE]',
    summary:
      'Prints the token ids of FILE, or of stdin without one (text on the command line: echo TEXT | embedlab tokenize); special-token text becomes special tokens.',
    files: [0, 1],
    options: {
      ...TOKENIZER_OPTIONS,
      format: {
        type: 'string',
        default: 'ids',
        value: 'ids|json|bin',
        choices: ['ids', 'json', 'bin'],
        help: 'ids separated by spaces (default); json: [{id, start, end, text}] with byte offsets in the whole input; bin: uint32 little-endian ids',
      },
      ...THREADS_OPTION,
      ...CHUNK_SIZE_OPTION,
    },
  },
  count: {
    usage:
      'count [--encoding NAME | --tokenizer FILE] [--threads N] [--chunk-size BYTES] [--max-buffer-bytes BYTES] [FILE]',
    summary:
      'Prints the number of tokens of FILE, or of stdin without one; special-token text counts as special tokens. Streams: any size in bounded memory as long as the text can be cut at least every --max-buffer-bytes.',
    files: [0, 1],
    options: { ...TOKENIZER_OPTIONS, ...THREADS_OPTION, ...CHUNK_SIZE_OPTION },
  },
  decode: {
    usage: 'decode [--encoding NAME | --tokenizer FILE] [FILE]',
    summary:
      'Reads token ids separated by spaces or newlines from FILE, or stdin without one, and writes the text they stand for.',
    files: [0, 1],
    options: { ...TOKENIZER_OPTIONS },
  },
  'train-bpe': {
    usage: 'train-bpe CORPUS... --vocab-size N [--pattern o200k|cl100k|gpt2] [--special TEXT]... [--binary] -o OUT',
    summary: 'Trains a byte-level BPE tokenizer on the CORPUS files (one after the other) and writes it to OUT.',
    files: [0, Infinity],
    options: {
      'vocab-size': { type: 'string', value: 'N', min: 256, help: 'tokens of the vocabulary: 256 bytes + merges' },
      pattern: {
        type: 'string',
        default: 'o200k',
        value: 'o200k|cl100k|gpt2',
        choices: ['o200k', 'cl100k', 'gpt2'],
        help: "the pre-tokenizer: that encoding's split of text into words (default o200k)",
      },
      special: { type: 'string', multiple: true, default: [], value: 'TEXT', help: 'a special token (repeatable)' },
      binary: { type: 'boolean', default: false, help: 'write the compact binary form instead of text' },
      output: { type: 'string', short: 'o', value: 'OUT', help: 'the tokenizer file to write' },
    },
  },
  encode: {
    usage:
      'encode TEXT [--encoding NAME | --tokenizer FILE] [--dim 16] [--positions sinusoidal|learned|none] [--seed 0] [--allow-special]',
    summary: 'Prints the ids of TEXT with their token, position and input vectors (token + position), as JSON.',
    files: [0, Infinity],
    options: {
      ...TOKENIZER_OPTIONS,
      dim: { type: 'string', default: '16', value: 'N', min: 1, help: 'channels of each vector (default 16)' },
      positions: {
        type: 'string',
        default: 'sinusoidal',
        value: 'sinusoidal|learned|none',
        choices: ['sinusoidal', 'learned', 'none'],
        why: 'RoPE and ALiBi act inside attention, not on the input vectors',
        help: 'the positional encoding added to the token vectors (RoPE and ALiBi act inside attention, not on the input vectors)',
      },
      seed: {
        type: 'string',
        default: '0',
        value: 'N',
        min: 0,
        help: 'seed of the random token and learned vectors (default 0)',
      },
      'allow-special': {
        type: 'boolean',
        default: false,
        help: 'encode special-token text (<|endoftext|>) as that token',
      },
    },
  },
  bench: {
    usage: 'bench [FILE]',
    summary:
      'Encodes FILE (default: about 1 MB of seeded made-up words) with r50k_base, cl100k_base and o200k_base and prints MB/s.',
    files: [0, 1],
    options: {},
  },
  'export-torch': {
    usage: 'export-torch MODEL.safetensors -o DIR [--force]',
    summary: 'Writes the model, its PyTorch module and a DDP train.py that continues it into DIR.',
    files: [0, Infinity],
    options: {
      output: { type: 'string', short: 'o', value: 'DIR', help: 'the folder to write (made if missing)' },
      force: { type: 'boolean', default: false, help: 'overwrite the files of an earlier export in DIR' },
    },
  },
  'long-context': LONG_CONTEXT_COMMAND,
};

const GLOBAL_OPTIONS = {
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', short: 'v', default: false },
};
const ALL_OPTIONS = Object.assign({}, GLOBAL_OPTIONS, ...Object.values(COMMANDS).map(({ options }) => options));
const NEGATIVE_NUMBER = /^-(\d|\.\d|Infinity$)/;

// `--name VALUE` -> `--name=VALUE` (and `-o VALUE` -> `-oVALUE`) where VALUE is a negative number of a string option.
function negativeValuesAttached(args, options) {
  const result = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      result.push(...args.slice(i));
      break;
    }
    const long = /^--([^=]+)$/.exec(arg)?.[1];
    const short = /^-([^-])$/.exec(arg)?.[1];
    // a key, or undefined (options[undefined] is undefined)
    const name = /** @type {string} */ (
      long ?? Object.keys(options).find((key) => short !== undefined && options[key].short === short)
    );
    if (options[name]?.type === 'string' && NEGATIVE_NUMBER.test(args[i + 1] ?? '')) {
      result.push(long === undefined ? `-${short}${args[++i]}` : `--${name}=${args[++i]}`);
    } else {
      result.push(arg);
    }
  }
  return result;
}

// The first positional argument, reading the options of every command (so `--encoding gpt2 count` finds count).
function commandOf(args) {
  const { tokens } = parseArgs({
    args: negativeValuesAttached(args, ALL_OPTIONS),
    options: ALL_OPTIONS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  return tokens.find((token) => token.kind === 'positional')?.value;
}

function unknownOption(command, rawName, name, options) {
  const guess = closest(name, Object.keys(options));
  const owners = Object.keys(COMMANDS).filter((other) => Object.hasOwn(COMMANDS[other].options, name));
  const hint =
    guess !== undefined
      ? ` (did you mean --${guess}?)`
      : owners.length > 0
        ? ` (an option of ${owners.join(' and ')})`
        : `; its options are ${Object.keys(options)
            .filter((key) => !Object.hasOwn(GLOBAL_OPTIONS, key))
            .map((key) => `--${key}`)
            .join(', ')}`;
  return new UsageError(`unknown option ${rawName}${hint}`, command);
}

// Choices and integer ranges, named by the option.
function checkValues(command, values, options) {
  for (const [name, option] of Object.entries(options)) {
    const value = values[name];
    if (value === undefined) {
      continue;
    }
    if (option.choices !== undefined && !option.choices.includes(value)) {
      // A guess only when it starts alike: two edits turn any short word into another (rope -> none).
      const guess = closest(
        value,
        option.choices.filter((choice) => choice[0] === value[0]),
      );
      throw new UsageError(
        `--${name} must be one of ${option.choices.join(', ')}; got ${value}` +
          (option.why ? ` (${option.why})` : guess ? ` (did you mean ${guess}?)` : ''),
        command,
      );
    }
    if (option.min !== undefined) {
      const number = Number(value);
      if (value.trim() === '' || !Number.isInteger(number) || number < option.min) {
        throw new UsageError(`--${name} must be an integer ≥ ${option.min}, got ${value}`, command);
      }
    }
  }
}

/**
 * Reads `args` (process.argv without node and the script): {command, values, files}, {help: true} (with command
 * when it is `COMMAND --help`) or {version: true}. Throws a UsageError for a command line that cannot run.
 */
export function parseCommandLine(args) {
  const command = commandOf(args);
  if (command !== undefined && !Object.hasOwn(COMMANDS, command)) {
    const guess = closest(command, Object.keys(COMMANDS));
    throw new UsageError(`unknown command ${command}${guess ? ` (did you mean ${guess}?)` : ''}`);
  }
  const options = { ...GLOBAL_OPTIONS, ...(command === undefined ? {} : COMMANDS[command].options) };
  const attached = negativeValuesAttached(args, options);
  const { tokens } = parseArgs({ args: attached, options, strict: false, allowPositionals: true, tokens: true });
  const named = (name) => tokens.some((token) => token.kind === 'option' && token.name === name);
  if (named('help')) {
    return { help: true, command };
  }
  if (named('version')) {
    return { version: true };
  }
  for (const token of tokens) {
    if (token.kind === 'option' && !Object.hasOwn(options, token.name)) {
      throw command === undefined
        ? new UsageError(`unknown option ${token.rawName}`)
        : unknownOption(command, token.rawName, token.name, options);
    }
  }
  if (command === undefined) {
    throw new UsageError('no command given');
  }
  let parsed;
  try {
    parsed = parseArgs({ args: attached, options, allowPositionals: true });
  } catch (error) {
    throw new UsageError(error.message.split('\n')[0], command);
  }
  const files = parsed.positionals.slice(1);
  const [, most] = COMMANDS[command].files;
  if (files.length > most) {
    throw new UsageError(
      `${command} takes ${most === 0 ? 'no FILE' : 'one FILE at most'}, got ${files.join(' ')}`,
      command,
    );
  }
  checkValues(command, parsed.values, options);
  return { command, values: parsed.values, files };
}
