#!/usr/bin/env node
// The embedlab command line, on the same package:
//   embedlab tokenize [--encoding cl100k_base | --tokenizer FILE] [--format ids|json|bin] [FILE]   (stdin without FILE)
//   embedlab count    [--encoding NAME | --tokenizer FILE] [FILE]
//   embedlab decode   [--encoding NAME | --tokenizer FILE] [FILE]        ids separated by spaces/newlines
//   embedlab train-bpe CORPUS... --vocab-size N [--pattern o200k] [--special TEXT]... [--binary] -o OUT
//   embedlab encode TEXT [--encoding NAME] [--dim 16] [--positions sinusoidal|learned|none] [--seed 0]
//   embedlab bench [FILE]                                                encode MB/s per vocabulary
//   embedlab export-torch MODEL.safetensors -o DIR                       the model, its PyTorch module and train.py
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

import { exportTorch } from './cli_export_torch.js';
import { tokenizeBin } from './cli_tokenize_bin.js';
import createEmbedLab from './index.js';

const USAGE = `usage:
  embedlab tokenize [--encoding NAME | --tokenizer FILE] [--format ids|json|bin] [--chunk-size BYTES] [FILE]
  embedlab count    [--encoding NAME | --tokenizer FILE] [FILE]
  embedlab decode   [--encoding NAME | --tokenizer FILE] [FILE]
  embedlab train-bpe CORPUS... --vocab-size N [--pattern o200k|cl100k|gpt2] [--special TEXT]... [--binary] -o OUT
  embedlab encode TEXT [--encoding NAME] [--dim 16] [--positions sinusoidal|learned|none] [--seed 0]
  embedlab bench [FILE]
  embedlab export-torch MODEL.safetensors -o DIR
--format bin writes uint32 little-endian ids, streaming FILE in chunks (default 1048576 bytes).
NAME: gpt2, r50k_base, p50k_base, p50k_edit, cl100k_base (default), o200k_base. Input is read from FILE or stdin.`;

const OPTIONS = {
  encoding: { type: 'string', default: 'cl100k_base' },
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
  help: { type: 'boolean', short: 'h', default: false },
};

const readInput = (file) => readFileSync(file ?? 0);

function integer(name, text) {
  const value = Number(text);
  if (!Number.isInteger(value)) {
    throw new RangeError(`--${name} must be an integer, got ${text}`);
  }
  return value;
}

async function openTokenizer(lab, values) {
  return values.tokenizer ? lab.loadTokenizer(readFileSync(values.tokenizer)) : lab.getTokenizer(values.encoding);
}

const COMMANDS = {
  async tokenize(lab, values, files) {
    const tokenizer = await openTokenizer(lab, values);
    if (values.format === 'bin') {
      return tokenizeBin(tokenizer, files[0], { chunkSize: integer('chunk-size', values['chunk-size']) });
    }
    const text = readInput(files[0]);
    if (values.format === 'json') {
      const tokens = tokenizer.tokens(text, { allowedSpecial: 'all' });
      process.stdout.write(JSON.stringify(tokens.map(({ id, start, end, text }) => ({ id, start, end, text }))) + '\n');
    } else if (values.format === 'ids') {
      process.stdout.write(Array.from(tokenizer.encode(text, { allowedSpecial: 'all' })).join(' ') + '\n');
    } else {
      throw new RangeError(`--format must be ids, json or bin, got ${values.format}`);
    }
  },
  async count(lab, values, files) {
    const tokenizer = await openTokenizer(lab, values);
    process.stdout.write(`${tokenizer.count(readInput(files[0]), { allowedSpecial: 'all' })}\n`);
  },
  async decode(lab, values, files) {
    const tokenizer = await openTokenizer(lab, values);
    const ids = readInput(files[0])
      .toString('utf8')
      .split(/\s+/)
      .filter(Boolean)
      .map((word) => integer('ids', word));
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
      onProgress: ({ merges, wanted }) => process.stderr.write(`\rmerges ${merges}/${wanted}`),
    });
    writeFileSync(values.output, tokenizer.save({ binary: values.binary }));
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    process.stderr.write(
      `\ntrained ${tokenizer.merges.length} merges on ${corpus.length} bytes in ${seconds} s -> ${values.output}\n`,
    );
  },
  async encode(lab, values, files) {
    if (files.length === 0) {
      throw new TypeError('encode needs TEXT');
    }
    const tokenizer = await lab.getTokenizer(values.encoding);
    const ids = tokenizer.encode(files.join(' '));
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
    const text = files[0]
      ? readFileSync(files[0])
      : Buffer.from('The quick brown fox jumps over the lazy dog. '.repeat(20000));
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
  if (parsed.values.help || command === undefined) {
    console.log(USAGE);
    return command === undefined && !parsed.values.help ? 2 : 0;
  }
  if (!(command in COMMANDS)) {
    console.error(`unknown command ${command}\n${USAGE}`);
    return 2;
  }
  try {
    await COMMANDS[command](await createEmbedLab(), parsed.values, files);
    return 0;
  } catch (error) {
    console.error(`embedlab ${command}: ${error.message}`);
    return 1;
  }
}

process.exitCode = await main();
