// `embedlab tokenize --format bin` on the built package: uint32 little-endian ids equal to encoding the whole text
// at once, whatever the chunk size, and memory that does not grow with the file.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { tokenizeBin } from '../../dist/cli/tokenize_bin.js';
import { SafeCuts } from '../../dist/tokenizer/safe_cut.js';
import createEmbedLab from '../../dist/index.js';
import { trickyText } from './delicate_pieces.mjs';
import { runWithPeakMemory } from './peak_memory.mjs';

const cli = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'embedlab-cli-bin-'));
let lab;
before(async () => {
  lab = await createEmbedLab();
});
after(() => rmSync(work, { recursive: true, force: true }));

const run = (args, options = {}) => spawnSync('node', [cli, ...args], { timeout: 120_000, ...options });
const littleEndianIds = (bytes) => {
  assert.equal(bytes.length % 4, 0);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  return Array.from({ length: bytes.length / 4 }, (_, i) => view.getUint32(4 * i, true));
};

const ENCODINGS = ['gpt2', 'p50k_base', 'cl100k_base', 'o200k_base'];

test('tokenizeBin equals encoding the whole text on 200 random tricky texts, in chunks of 1 to 17 bytes', async () => {
  const file = join(work, 'random.txt');
  for (const encoding of ENCODINGS) {
    const tokenizer = await lab.getTokenizer(encoding);
    for (let seed = 1; seed <= 50; ++seed) {
      const text = trickyText(20 + (seed % 7) * 40, seed);
      writeFileSync(file, text);
      const whole = Array.from(tokenizer.encode(text, { allowedSpecial: 'all' }));
      for (const chunkSize of [1, 3, 17]) {
        const parts = [];
        const output = { write: (bytes) => parts.push(Buffer.from(bytes)) > 0 };
        await tokenizeBin(tokenizer, file, { chunkSize, output });
        const what = `${encoding}, chunks of ${chunkSize}, ${JSON.stringify(text)}`;
        assert.deepEqual(littleEndianIds(Buffer.concat(parts)), whole, what);
      }
    }
  }
});

test('--format bin equals encoding the whole text, for every chunk size, from a file or stdin', async () => {
  const text = trickyText(12000, 7);
  const file = join(work, 'tricky.txt');
  writeFileSync(file, text);
  const bytes = readFileSync(file);
  // The input is cut many times, so chunk boundaries are really exercised.
  const safe = new SafeCuts(bytes, []);
  let cuts = 0;
  for (let c = 1; c < bytes.length; ++c) {
    cuts += safe.allows(c) ? 1 : 0;
  }
  assert.ok(cuts > 200, `only ${cuts} safe cuts`);
  for (const encoding of ['gpt2', 'o200k_base']) {
    const whole = Array.from((await lab.getTokenizer(encoding)).encode(text, { allowedSpecial: 'all' }));
    for (const chunkSize of [61, 1 << 20]) {
      const result = run([
        'tokenize',
        '--format',
        'bin',
        '--encoding',
        encoding,
        '--chunk-size',
        String(chunkSize),
        file,
      ]);
      assert.equal(result.status, 0, result.stderr.toString());
      assert.deepEqual(littleEndianIds(result.stdout), whole, `${encoding}, chunks of ${chunkSize} bytes`);
    }
    const piped = run(['tokenize', '--format', 'bin', '--encoding', encoding, '--chunk-size', '97'], { input: bytes });
    assert.deepEqual(littleEndianIds(piped.stdout), whole, `${encoding} from stdin`);
  }
});

test('--format bin with a trained tokenizer file and a text without any safe cut', async () => {
  const corpus = join(work, 'corpus.txt');
  writeFileSync(corpus, trickyText(3000, 3).repeat(3));
  const vocabulary = join(work, 'vocab.tiktoken');
  assert.equal(run(['train-bpe', corpus, '--vocab-size', '400', '-o', vocabulary]).status, 0);
  const tokenizer = await lab.loadTokenizer(readFileSync(vocabulary));
  const line = 'one long line without a newline, 12345 naïve words '.repeat(200);
  for (const text of [readFileSync(corpus, 'utf8'), line]) {
    const file = join(work, 'input.txt');
    writeFileSync(file, text);
    const result = run(['tokenize', '--format', 'bin', '--tokenizer', vocabulary, '--chunk-size', '50', file]);
    assert.equal(result.status, 0, result.stderr.toString());
    assert.deepEqual(littleEndianIds(result.stdout), Array.from(tokenizer.encode(text, { allowedSpecial: 'all' })));
  }
});

// Peak resident memory of `embedlab tokenize --format bin --threads 1 FILE > /dev/null`, in kB (threads:
// cli_threads.test.mjs).
function peakKilobytes(file) {
  const sink = openSync('/dev/null', 'w');
  try {
    const args = ['tokenize', '--format', 'bin', '--threads', '1', '--chunk-size', '65536', file];
    return runWithPeakMemory(cli, args, work, { stdio: ['ignore', sink, 'pipe'] }).kilobytes;
  } finally {
    closeSync(sink);
  }
}

test('--format bin streams: 48 MB more input adds less than 24 MB to peak memory', () => {
  const line = 'The quick brown fox jumps over the lazy dog 1234 times; naïve café, 日本語.\n';
  const small = join(work, 'small.txt');
  const large = join(work, 'large.txt');
  const body = line.repeat(Math.ceil((16 << 20) / Buffer.byteLength(line)));
  writeFileSync(small, body);
  writeFileSync(large, body.repeat(4));
  const growth = peakKilobytes(large) - peakKilobytes(small);
  rmSync(large);
  // Encoding the text whole would hold the extra 48 MB and its ids (4 bytes per id, about one id per 4 bytes of
  // this text): growth of ~100 MB. Streaming measured ~6 MB, the JS heap settling; the bound leaves room for that.
  assert.ok(growth < 24 * 1024, `peak memory grew by ${growth} kB`);
});

test('--format bin refuses a bad --chunk-size and names the formats', () => {
  const bad = run(['tokenize', '--format', 'bin', '--chunk-size', '0'], { input: 'x', encoding: 'utf8' });
  assert.equal(bad.status, 2); // a usage error: the message, then the command's usage line
  assert.match(
    bad.stderr,
    /^embedlab tokenize: --chunk-size must be an integer in \[1, 1073741824\], got 0\nusage: embedlab tokenize /,
  );
  const format = run(['tokenize', '--format', 'binary'], { input: 'x', encoding: 'utf8' });
  assert.equal(format.status, 2);
  assert.match(format.stderr, /^embedlab tokenize: --format must be one of ids, json, bin; got binary\n/);
});
