#!/usr/bin/env node
// The embedlab command line, on the same package:
//   embedlab tokenize [--encoding cl100k_base | --tokenizer FILE] [--format ids|json|bin] [FILE]   (stdin without FILE)
//   embedlab count    [--encoding NAME | --tokenizer FILE] [FILE]
//   embedlab decode   [--encoding NAME | --tokenizer FILE] [FILE]        ids separated by spaces/newlines
//   embedlab train-bpe CORPUS... --vocab-size N [--pattern o200k] [--special TEXT]... [--binary] -o OUT
//   embedlab encode TEXT [--encoding NAME] [--dim 16] [--positions sinusoidal|learned|none] [--seed 0] [--allow-special]
//   embedlab bench [FILE]                                                encode MB/s per vocabulary
//   embedlab export-torch MODEL.safetensors -o DIR                       the model, its PyTorch module and train.py
//   embedlab long-context [--task passkey|recall|language] [--corpus FILE] ...  the long-context experiment
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

import { exportTorch } from './export_torch.js';
import { LONG_CONTEXT_OPTIONS, LONG_CONTEXT_USAGE, longContext } from './long_context.js';
import { chunkSizeOption, countFile, refuseTextAsFile, writeIds, writeTokensJson } from './stream.js';
import { tokenizeBin } from './tokenize_bin.js';
import createEmbedLab from '../index.js';

// One line per command: `embedlab COMMAND --help` prints its own, `embedlab --help` all of them.
const COMMAND_USAGE = {
  tokenize:
    'embedlab tokenize [--encoding NAME | --tokenizer FILE] [--format ids|json|bin] [--chunk-size BYTES] [FILE]',
  count: 'embedlab count    [--encoding NAME | --tokenizer FILE] [--chunk-size BYTES] [FILE]',
  decode: 'embedlab decode   [--encoding NAME | --tokenizer FILE] [FILE]          ids separated by spaces or newlines',
  'train-bpe':
    'embedlab train-bpe CORPUS... --vocab-size N [--pattern o200k|cl100k|gpt2] [--special TEXT]... [--binary] -o OUT',
  encode:
    'embedlab encode TEXT [--encoding NAME] [--dim 16] [--positions sinusoidal|learned|none] [--seed 0] [--allow-special]',
  bench: 'embedlab bench [FILE]',
  'export-torch': 'embedlab export-torch MODEL.safetensors -o DIR',
  'long-context': LONG_CONTEXT_USAGE,
};
const STREAM_NOTES = `tokenize and count read FILE, or stdin without one (text on the command line: echo TEXT | embedlab tokenize);
they encode special-token text as special tokens. They stream: the input is read and encoded in chunks of about
--chunk-size bytes (default 1048576), cut only where the ids cannot change, so any size fits in bounded memory.
--format bin writes uint32 little-endian ids; json gives byte offsets in the whole input.`;
const ENCODING_NOTES = `NAME: gpt2, r50k_base, p50k_base, p50k_edit, cl100k_base (default), o200k_base, o200k_harmony.
--tokenizer FILE: a file from train-bpe or Tokenizer.save(); a plain .tiktoken file needs --encoding NAME as well,
for its pattern and special tokens.`;
const DECODE_NOTES = 'decode reads FILE, or stdin without one, and writes the text those ids stand for.';
const VERSION_NOTE = "--version prints the package's version.";
// The notes `embedlab COMMAND --help` adds below its usage line: only those about that command's options.
const COMMAND_NOTES = {
  tokenize: [STREAM_NOTES, ENCODING_NOTES],
  count: [STREAM_NOTES, ENCODING_NOTES],
  decode: [DECODE_NOTES, ENCODING_NOTES],
  encode: [ENCODING_NOTES.split('\n')[0]],
};
const USAGE = `usage:\n${Object.values(COMMAND_USAGE)
  .map((line) => `  ${line}`)
  .join('\n')}\n${[STREAM_NOTES, ENCODING_NOTES, VERSION_NOTE].join('\n')}`;
const POSITIONS = ['sinusoidal', 'learned', 'none'];

/** @type {NonNullable<import('node:util').ParseArgsConfig['options']>} */
const OPTIONS = {
  encoding: { type: 'string' }, // cl100k_base when neither it nor --tokenizer is given
  tokenizer: { type: 'string' },
  format: { type: 'string', default: 'ids' },
  'chunk-size': { type: 'string', default: String(1 << 20) },
  'vocab-size': { type: 'string' },
  pattern: { type: 'string', default: 'o200k' },
  special: { type: 'string', multiple: true, default: [] },
  binary: { type: 'boolean', default: false },
  output: { type: 'string', short: 'o' },
  dim: { type: 'string', default: '16' },
  positions: { type: 'string', default: 'sinusoidal' },
  seed: { type: 'string', default: '0' },
  'allow-special': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', short: 'v', default: false },
  ...LONG_CONTEXT_OPTIONS,
};

// FILE, or stdin without one (the whole input: decode needs all of it).
function readInput(file) {
  refuseTextAsFile(file);
  return readFileSync(file ?? 0);
}

function integer(name, text) {
  const value = Number(text);
  if (!Number.isInteger(value)) {
    throw new RangeError(`--${name} must be an integer, got ${text}`);
  }
  return value;
}

// --tokenizer FILE: a saved tokenizer, or with --encoding NAME a plain .tiktoken file with NAME's pattern and
// special tokens; else --encoding NAME (default cl100k_base).
async function openTokenizer(lab, values) {
  if (!values.tokenizer) {
    return lab.getTokenizer(values.encoding ?? 'cl100k_base');
  }
  const bytes = readFileSync(values.tokenizer);
  const plain = !bytes.subarray(0, 13).toString('latin1').startsWith('#embedlab-bpe');
  if (values.encoding !== undefined) {
    if (!plain) {
      // Else its header line reaches the .tiktoken parser, which reports invalid base64 on line 1.
      throw new TypeError(`${values.tokenizer} is a saved tokenizer with its own pattern: drop --encoding`);
    }
    return lab.tokenizerFromVocabulary({ tiktoken: bytes, encoding: values.encoding });
  }
  try {
    return lab.loadTokenizer(bytes);
  } catch (error) {
    throw plain
      ? new TypeError(`${values.tokenizer} is not a saved tokenizer; for a plain .tiktoken file add --encoding NAME`)
      : error;
  }
}

// About `bytes` of seeded words of random letters, lengths and case, with digits and punctuation: a text that
// repeats nothing, so no cache of pieces makes the figures look better than on real text.
function variedText(lab, bytes) {
  const uniforms = lab.randomUniform(bytes, { seed: 7 });
  const letters = 'etaoinshrdlucmfwypvbgkjqxz';
  const words = [];
  let length = 0;
  for (let i = 0; length < bytes;) {
    const size = 1 + Math.floor(uniforms[i++ % bytes] * 9);
    let word = '';
    for (let k = 0; k < size; k++) {
      word += letters[Math.floor(uniforms[i++ % bytes] ** 2 * letters.length)];
    }
    const r = uniforms[i++ % bytes];
    word = r < 0.1 ? word[0].toUpperCase() + word.slice(1) : r < 0.15 ? String(Math.floor(r * 1e5)) : word;
    words.push(word + (r > 0.93 ? '. ' : r > 0.88 ? ', ' : ' '));
    length += word.length + 1;
  }
  return words.join('');
}

const COMMANDS = {
  async tokenize(lab, values, files) {
    const formats = { bin: tokenizeBin, ids: writeIds, json: writeTokensJson };
    const write = Object.hasOwn(formats, values.format) ? formats[values.format] : undefined;
    if (write === undefined) {
      throw new RangeError(`--format must be ids, json or bin, got ${values.format}`);
    }
    const chunkSize = chunkSizeOption(values['chunk-size']);
    return write(await openTokenizer(lab, values), files[0], { chunkSize });
  },
  async count(lab, values, files) {
    const chunkSize = chunkSizeOption(values['chunk-size']);
    const count = await countFile(await openTokenizer(lab, values), files[0], { chunkSize });
    process.stdout.write(`${count}\n`);
  },
  async decode(lab, values, files) {
    const tokenizer = await openTokenizer(lab, values);
    const ids = readInput(files[0])
      .toString('utf8')
      .split(/\s+/)
      .filter(Boolean)
      .map((word) => {
        const id = Number(word);
        if (!Number.isInteger(id) || id < 0) {
          throw new RangeError(`the input must be token ids (whole numbers >= 0) separated by spaces, got "${word}"`);
        }
        return id;
      });
    process.stdout.write(tokenizer.decodeBytes(ids));
  },
  async 'train-bpe'(lab, values, files) {
    if (files.length === 0) {
      throw new TypeError('train-bpe needs at least one CORPUS file');
    }
    if (!values.output) {
      throw new TypeError('train-bpe needs -o OUT');
    }
    if (values['vocab-size'] === undefined) {
      throw new TypeError('train-bpe needs --vocab-size N');
    }
    const corpus = Buffer.concat(files.map((file) => readFileSync(file)));
    const started = performance.now();
    const tokenizer = await lab.trainTokenizer(new Uint8Array(corpus), {
      vocabSize: integer('vocab-size', values['vocab-size']),
      pattern: values.pattern,
      specialTokens: values.special,
      // A progress line rewritten with \r only on a terminal; a log or a pipe gets the summary below.
      onProgress: process.stderr.isTTY
        ? ({ merges, wanted }) => process.stderr.write(`\rmerges ${merges}/${wanted}`)
        : undefined,
    });
    writeFileSync(values.output, tokenizer.save({ binary: values.binary }));
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    process.stderr.write(
      `${process.stderr.isTTY ? '\n' : ''}trained ${tokenizer.merges.length} merges on ${corpus.length} bytes in ${seconds} s -> ${values.output}\n`,
    );
  },
  async encode(lab, values, files) {
    if (files.length === 0) {
      throw new TypeError('encode needs TEXT');
    }
    if (!POSITIONS.includes(values.positions)) {
      throw new RangeError(
        `--positions must be ${POSITIONS.join(', ')}, got ${values.positions} (RoPE and ALiBi act inside attention, not on the input vectors)`,
      );
    }
    const tokenizer = await openTokenizer(lab, values);
    const text = files.join(' ');
    let ids;
    try {
      ids = tokenizer.encode(text, values['allow-special'] ? { allowedSpecial: 'all' } : {});
    } catch (error) {
      throw /special token/.test(error.message)
        ? new RangeError(`${error.message.split(';')[0]}; pass --allow-special to encode it as that token`)
        : error;
    }
    const dim = integer('dim', values.dim);
    const embedding = lab.tokenEmbedding({ vocabSize: tokenizer.vocabSize, dim, seed: integer('seed', values.seed) });
    const positional =
      values.positions === 'none'
        ? null
        : lab.positionalEncoding(values.positions, {
            dim,
            maxLength: Math.max(1, ids.length),
            seed: integer('seed', values.seed),
          });
    const { tokenVectors, positionVectors, inputVectors } = lab.compose(ids, { embedding, positional });
    const rows = (array) =>
      Array.from({ length: ids.length }, (_, t) => Array.from(array.subarray(t * dim, (t + 1) * dim)));
    process.stdout.write(
      JSON.stringify({
        ids: Array.from(ids),
        tokens: rows(tokenVectors),
        positions: rows(positionVectors),
        inputs: rows(inputVectors),
      }) + '\n',
    );
  },
  async bench(lab, values, files) {
    const text = files[0] ? readFileSync(files[0]) : Buffer.from(variedText(lab, 1 << 20));
    for (const name of ['r50k_base', 'cl100k_base', 'o200k_base']) {
      const tokenizer = await lab.getTokenizer(name);
      tokenizer.encodeOrdinary(text);
      const runs = Array.from({ length: 5 }, () => {
        const started = performance.now();
        tokenizer.encodeOrdinary(text);
        return performance.now() - started;
      }).sort((a, b) => a - b);
      process.stdout.write(
        `${name.padEnd(12)} ${(text.length / 1e3 / runs[2]).toFixed(1)} MB/s (median of 5, ${lab.simdTarget})\n`,
      );
    }
  },
  'export-torch': exportTorch,
  'long-context': longContext,
};

async function main() {
  let parsed;
  try {
    parsed = parseArgs({ options: OPTIONS, allowPositionals: true });
  } catch (error) {
    console.error(`${error.message}\n${USAGE}`);
    return 2;
  }
  const [command, ...files] = parsed.positionals;
  if (parsed.values.version) {
    console.log(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version);
    return 0;
  }
  if (command !== undefined && !(command in COMMANDS)) {
    console.error(`unknown command ${command}\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help || command === undefined) {
    console.log(
      command === undefined
        ? USAGE
        : [`usage: ${COMMAND_USAGE[command]}`, ...(COMMAND_NOTES[command] ?? []), VERSION_NOTE].join('\n'),
    );
    return command === undefined && !parsed.values.help ? 2 : 0;
  }
  try {
    await COMMANDS[command](await createEmbedLab(), parsed.values, files);
    return 0;
  } catch (error) {
    if (error.code === 'EPIPE') {
      return 0; // the reader closed the pipe (`| head`): it has all the output it wants, as with cat or grep
    }
    console.error(`embedlab ${command}: ${error.message}`);
    return 1;
  }
}

process.exitCode = await main();
