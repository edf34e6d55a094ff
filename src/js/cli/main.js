#!/usr/bin/env node
// The embedlab command line, on the same package: `embedlab --help` lists the commands (their descriptions and
// options are in options.js), `embedlab COMMAND --help` describes one.
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

import { exportTorch } from './export_torch.js';
import { longContext } from './long_context.js';
import { openTokenizer } from './open_tokenizer.js';
import { variedText } from './varied_text.js';
import { parseCommandLine } from './options.js';
import {
  chunkSizeOption,
  countFile,
  maxBufferOption,
  refuseTextAsFile,
  withBufferHint,
  writeIds,
  writeTokensJson,
} from './stream.js';
import { tokenizeBin } from './tokenize_bin.js';
import { encodeInThreads } from './tokenize_threads.js';
import { commandHelp, fullUsage, helpNeedsLab, usageLine } from './usage.js';
import { UsageError } from './usage_error.js';
import createEmbedLab from '../index.js';

// FILE, or stdin without one (the whole input: decode needs all of it).
function readInput(file) {
  refuseTextAsFile(file);
  return readFileSync(file ?? 0);
}

// Token ids separated by spaces or newlines. A word that is not one is quoted by at most its first 12 bytes, escaped
// (\xNN for anything but printable ASCII), so a binary file's NULs and control bytes never reach the terminal.
function idsOfText(bytes) {
  const text = bytes.toString('latin1'); // a character per byte: indices are byte offsets, escapes are exact
  const ids = [];
  for (const { 0: word, index } of text.matchAll(/[^ \t\n\r\f\v]+/g)) {
    if (!/^\d+$/.test(word) || !Number.isSafeInteger(Number(word))) {
      const shown = Array.from(word.slice(0, 12), (c) =>
        /[ -~]/.test(c) && c !== '"' && c !== '\\' ? c : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
      ).join('');
      const nul = text.indexOf('\0');
      throw new RangeError(
        `the input must be token ids (whole numbers >= 0) separated by spaces or newlines, got "${shown}"` +
          `${word.length > 12 ? '…' : ''} at byte ${index}` +
          (nul < 0
            ? ''
            : `; it looks binary (a NUL byte at ${nul}): decode reads ids as text, as tokenize writes them without --format bin (it has no binary input)`),
      );
    }
    ids.push(Number(word));
  }
  return ids;
}

// --threads of `command` (default: the machine's cores for `count` and `tokenize --format bin`, which alone use
// threads; one for the other formats, which refuse more).
function threadsOption(values, command) {
  const threaded = command === 'count' || values.format === 'bin';
  if (values.threads === undefined) {
    return threaded ? availableParallelism() : 1;
  }
  const threads = Number(values.threads);
  if (values.threads.trim() === '' || !Number.isInteger(threads) || threads < 1 || threads > MAX_THREADS) {
    throw new UsageError(`--threads must be an integer in [1, ${MAX_THREADS}], got ${values.threads}`, command);
  }
  if (threads > 1 && !threaded) {
    throw new UsageError(`--threads applies to --format bin (and to count), not --format ${values.format}`, command);
  }
  return threads;
}

// --chunk-size and --max-buffer-bytes of `command`, checked.
function streamSizes(values, command) {
  const chunkSize = chunkSizeOption(values['chunk-size'], command);
  return { chunkSize, maxBufferBytes: maxBufferOption(values['max-buffer-bytes'], chunkSize, command) };
}

const MAX_THREADS = 256;

const COMMANDS = {
  async tokenize(lab, values, files) {
    const write = { bin: tokenizeBin, ids: writeIds, json: writeTokensJson }[values.format]; // checked by options.js
    const threads = threadsOption(values, 'tokenize');
    const options = { ...streamSizes(values, 'tokenize'), threads, values, flavour: lab.flavour };
    return write(await openTokenizer(lab, values, 'tokenize'), files[0], options).catch((error) => {
      throw withBufferHint(error);
    });
  },
  async count(lab, values, files) {
    const threads = threadsOption(values, 'count');
    const sizes = streamSizes(values, 'count');
    const tokenizer = await openTokenizer(lab, values, 'count');
    let count = 0;
    const counted =
      threads > 1
        ? encodeInThreads(
            tokenizer,
            { values, command: 'count', file: files[0], threads, ...sizes, mode: 'count' },
            (n) => {
              count += n;
            },
          )
        : countFile(tokenizer, files[0], sizes).then((n) => {
            count = n;
          });
    await counted.catch((error) => {
      throw withBufferHint(error);
    });
    process.stdout.write(`${count}\n`);
  },
  async decode(lab, values, files) {
    const tokenizer = await openTokenizer(lab, values, 'decode');
    process.stdout.write(tokenizer.decodeBytes(idsOfText(readInput(files[0]))));
  },
  async 'train-bpe'(lab, values, files) {
    if (files.length === 0) {
      throw new UsageError('train-bpe needs at least one CORPUS file', 'train-bpe');
    }
    if (!values.output) {
      throw new UsageError('train-bpe needs -o OUT', 'train-bpe');
    }
    if (values['vocab-size'] === undefined) {
      throw new UsageError('train-bpe needs --vocab-size N', 'train-bpe');
    }
    const corpus = Buffer.concat(files.map((file) => readFileSync(file)));
    if (corpus.length === 0) {
      throw new RangeError(`nothing to train on: ${files.join(', ')} ${files.length > 1 ? 'are' : 'is'} empty`);
    }
    const started = performance.now();
    const tokenizer = await lab.trainTokenizer(new Uint8Array(corpus), {
      vocabSize: Number(values['vocab-size']),
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
      throw new UsageError('encode needs TEXT', 'encode');
    }
    const tokenizer = await openTokenizer(lab, values, 'encode');
    const text = files.join(' ');
    let ids;
    try {
      ids = tokenizer.encode(text, values['allow-special'] ? { allowedSpecial: 'all' } : {});
    } catch (error) {
      throw /special token/.test(error.message)
        ? new RangeError(`${error.message.split(';')[0]}; pass --allow-special to encode it as that token`)
        : error;
    }
    const dim = Number(values.dim);
    const embedding = lab.tokenEmbedding({ vocabSize: tokenizer.vocabSize, dim, seed: Number(values.seed) });
    const positional =
      values.positions === 'none'
        ? null
        : lab.positionalEncoding(values.positions, {
            dim,
            maxLength: Math.max(1, ids.length),
            seed: Number(values.seed),
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
    parsed = parseCommandLine(process.argv.slice(2));
  } catch (error) {
    return usageError(error);
  }
  const { command, values, files } = parsed;
  if (parsed.version) {
    console.log(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version);
    return 0;
  }
  if (parsed.help) {
    const lab = command !== undefined && helpNeedsLab(command) ? await createEmbedLab() : undefined;
    console.log(command === undefined ? fullUsage() : commandHelp(command, lab));
    return 0;
  }
  try {
    await COMMANDS[command](await createEmbedLab(), values, files);
    return 0;
  } catch (error) {
    if (error.code === 'EPIPE') {
      return 0; // the reader closed the pipe (`| head`): it has all the output it wants, as with cat or grep
    }
    if (error instanceof UsageError) {
      return usageError(error);
    }
    if (error.code === 'ENOENT' || error.code === 'EACCES') {
      const reason = { ENOENT: 'no such file', EACCES: 'permission denied' };
      console.error(`embedlab ${command}: cannot read ${error.path}: ${reason[error.code]}`);
      return 1;
    }
    console.error(`embedlab ${command}: ${error.message}`);
    return 1;
  }
}

// A command line that cannot run: the reason and the usage (the command's line, or all of them), status 2.
function usageError(error) {
  if (!(error instanceof UsageError)) {
    throw error;
  }
  const { command } = error;
  const usage =
    command === undefined ? fullUsage() : `${usageLine(command)}\n(embedlab ${command} --help describes it)`;
  console.error(`${command === undefined ? 'embedlab' : `embedlab ${command}`}: ${error.message}\n${usage}`);
  return 2;
}

process.exitCode = await main();
