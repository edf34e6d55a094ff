// The command line on the built package: tokenize/count/decode against tiktoken, train-bpe round trip,
// encode, and clear failures.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { get_encoding } from 'tiktoken';

const cli = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'embedlab-cli-'));
after(() => rmSync(work, { recursive: true, force: true }));

const run = (args, input = '') => spawnSync('node', [cli, ...args], { input, encoding: 'utf8', timeout: 60_000 });
const TEXT = "Tokenizers split text into pieces: naïve café, 日本語, emoji 👍, I'M can't.\n";

test('tokenize, count and decode match tiktoken', () => {
  const reference = get_encoding('o200k_base');
  const ids = run(['tokenize', '--encoding', 'o200k_base'], TEXT);
  assert.equal(ids.status, 0, ids.stderr);
  assert.equal(ids.stdout.trim(), Array.from(reference.encode(TEXT)).join(' '));
  const count = run(['count', '--encoding', 'o200k_base'], TEXT);
  assert.equal(Number(count.stdout), reference.encode(TEXT).length);
  const decoded = run(['decode', '--encoding', 'o200k_base'], ids.stdout);
  assert.equal(decoded.stdout, TEXT);
  const json = JSON.parse(run(['tokenize', '--format', 'json'], 'hi there').stdout);
  assert.deepEqual(
    json.map((token) => [token.text, token.start, token.end]),
    [
      ['hi', 0, 2],
      [' there', 2, 8],
    ],
  );
  reference.free();
});

test('train-bpe writes a tokenizer file that tokenize --tokenizer reads back', () => {
  const corpus = join(work, 'corpus.txt');
  spawnSync('cp', ['/usr/share/common-licenses/GPL-3', corpus]);
  const out = join(work, 'mine.tiktoken');
  const trained = run(['train-bpe', corpus, '--vocab-size', '600', '--special', '<|endoftext|>', '-o', out]);
  assert.equal(trained.status, 0, trained.stderr);
  assert.match(trained.stderr, /trained 344 merges/);
  const ids = run(['tokenize', '--tokenizer', out], TEXT).stdout.trim().split(' ').map(Number);
  assert.ok(ids.every((id) => id >= 0 && id <= 600));
  assert.equal(run(['decode', '--tokenizer', out], ids.join(' ')).stdout, TEXT);
  const withEncoding = run(['tokenize', '--tokenizer', out, '--encoding', 'o200k_base'], TEXT);
  assert.match(withEncoding.stderr, /mine.tiktoken is a saved tokenizer with its own pattern: drop --encoding/);
});

test('encode prints token, position and input vectors', () => {
  const result = JSON.parse(run(['encode', 'dog bites man', '--dim', '8', '--positions', 'sinusoidal']).stdout);
  assert.equal(result.ids.length, 3);
  for (let t = 0; t < 3; t++) {
    for (let c = 0; c < 8; c++) {
      assert.equal(result.inputs[t][c], Math.fround(result.tokens[t][c] + result.positions[t][c]));
    }
  }
  assert.equal(result.positions[1][0], Math.fround(Math.sin(1)));
});

test('bad commands and arguments fail with a message and a non-zero exit', () => {
  assert.equal(run(['frobnicate']).status, 2);
  const bad = run(['tokenize', '--encoding', 'gpt5'], 'x');
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /embedlab tokenize: name must be one of gpt2/);
  assert.match(run(['train-bpe', '--vocab-size', '300']).stderr, /needs at least one CORPUS file/);
  assert.match(
    run(['train-bpe', '/dev/null', '--vocab-size', '10', '-o', join(work, 'x')]).stderr,
    /vocabSize must be an integer in \[256/,
  );
});

test('the CLI names its own options: --allow-special, --positions, ids to decode, text given as FILE, plain .tiktoken', () => {
  const special = run(['encode', 'hi <|endoftext|>']);
  assert.equal(special.status, 1);
  assert.match(special.stderr, /special token <\|endoftext\|>.*pass --allow-special/);
  assert.doesNotMatch(special.stderr, /allowedSpecial/);
  const allowed = JSON.parse(run(['encode', 'hi <|endoftext|>', '--allow-special']).stdout);
  assert.equal(allowed.ids.at(-1), 100257); // cl100k's <|endoftext|>
  const rope = run(['encode', 'hi', '--positions', 'rope']);
  assert.match(rope.stderr, /--positions must be sinusoidal, learned, none, got rope/);
  assert.doesNotMatch(rope.stderr, /kind/);
  const decode = run(['decode'], '1 x');
  assert.match(decode.stderr, /token ids .* got "x"/);
  assert.doesNotMatch(decode.stderr, /--ids/);
  const text = run(['tokenize', 'hello world']);
  assert.match(text.stderr, /no file named "hello world".*echo 'hello world' \| embedlab/);
  const plain = join(work, 'plain.tiktoken');
  spawnSync('sh', ['-c', `printf 'aGk= 0\\n' > ${plain}`]);
  assert.match(run(['tokenize', '--tokenizer', plain], 'x').stderr, /not a saved tokenizer; .*add --encoding NAME/);
});

test('--version, per-command --help, and no \\r progress when stderr is not a terminal', () => {
  const version = run(['--version']);
  assert.equal(version.stdout.trim(), JSON.parse(readFileSync(new URL('../../package.json', import.meta.url))).version);
  const help = run(['count', '--help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^usage: embedlab count /);
  assert.doesNotMatch(help.stdout, /embedlab train-bpe CORPUS/);
  // Each command's help has only the notes about its own options: decode does not stream or take --format.
  const decodeHelp = run(['decode', '--help']);
  assert.match(decodeHelp.stdout, /^usage: embedlab decode /);
  assert.match(decodeHelp.stdout, /--tokenizer FILE/);
  assert.doesNotMatch(decodeHelp.stdout, /--chunk-size|--format|tokenize and count/);
  assert.match(run(['--help']).stdout, /--chunk-size bytes/);
  const corpus = join(work, 'small.txt');
  spawnSync('cp', ['/usr/share/common-licenses/GPL-3', corpus]);
  const trained = run(['train-bpe', corpus, '--vocab-size', '300', '-o', join(work, 'small.tiktoken')]);
  assert.equal(trained.status, 0, trained.stderr);
  assert.doesNotMatch(trained.stderr, /\r/);
});
