// `embedlab count` and `embedlab tokenize` (ids, json) stream FILE or stdin: the same output as the whole text gives,
// for any chunk size, and peak memory that does not grow with the input.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import createEmbedLab from '../../dist/index.js';
import { runWithPeakMemory } from './peak_memory.mjs';

const cli = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'embedlab-cli-stream-'));
after(() => rmSync(work, { recursive: true, force: true }));
const lab = await createEmbedLab();
const run = (args, options = {}) =>
  spawnSync('node', [cli, ...args], { timeout: 120_000, maxBuffer: 1 << 26, ...options });

// A seeded text of about `length` characters: words in several scripts, numbers, punctuation, line breaks, CJK
// with its punctuation, emoji and special-token text.
function variedText(length, seed) {
  const words = ['the', 'Quick', "don't", 'naïve', 'слово', '日本語', '中文', '👍', '12345', '<|endoftext|>', 'x'];
  const glue = [' ', ' ', ', ', '. ', '\n', '\n\n', '\r\n', '。', '  ', '\t', '/'];
  let state = seed >>> 0;
  const next = (n) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return Math.floor((state / 2 ** 32) * n);
  };
  const parts = [];
  for (let size = 0; size < length;) {
    const part = words[next(words.length)] + glue[next(glue.length)];
    parts.push(part);
    size += part.length;
  }
  return parts.join('');
}

test('count and tokenize --format ids|json equal the whole text, from a file or stdin, for any chunk size', async () => {
  const text = variedText(20000, 1);
  const file = join(work, 'text.txt');
  writeFileSync(file, text);
  // Every command from a file and from stdin in small chunks; the default chunk size and gpt2's pattern once each.
  const cases = [
    ['o200k_base', '61', ['count', 'ids', 'json'], [file]],
    ['o200k_base', '61', ['count', 'ids', 'json'], []],
    ['o200k_base', '1048576', ['count', 'json'], []],
    ['gpt2', '61', ['count', 'ids'], [file]],
  ];
  for (const [encoding, chunkSize, commands, files] of cases) {
    const tokenizer = await lab.getTokenizer(encoding);
    const input = files.length === 0 ? text : undefined;
    const options = ['--encoding', encoding, '--chunk-size', chunkSize, ...files];
    const where = `${encoding}, chunks of ${chunkSize}, ${files.length === 0 ? 'stdin' : 'file'}`;
    const ids = Array.from(tokenizer.encode(text, { allowedSpecial: 'all' }));
    for (const command of commands) {
      const args = command === 'count' ? ['count'] : ['tokenize', '--format', command];
      const result = run([...args, ...options], { input, encoding: 'utf8' });
      assert.equal(result.status, 0, `${where}: ${result.stderr}`);
      if (command === 'count') {
        assert.equal(result.stdout, `${ids.length}\n`, where);
      } else if (command === 'ids') {
        assert.equal(result.stdout, `${ids.join(' ')}\n`, where);
      } else {
        const tokens = tokenizer.tokens(text, { allowedSpecial: 'all' });
        assert.deepEqual(
          JSON.parse(result.stdout),
          tokens.map(({ id, start, end, text }) => ({ id, start, end, text })),
          where,
        );
      }
    }
  }
  const empty = run(['tokenize', '--format', 'json'], { input: '', encoding: 'utf8' });
  assert.equal(empty.stdout, '[]\n');
  assert.equal(run(['count'], { input: '', encoding: 'utf8' }).stdout, '0\n');
});

// Peak resident memory of `embedlab count FILE`, and its output.
function countWithPeak(file) {
  // One thread: the streams' own bound (on threads: cli_threads.test.mjs).
  const args = ['count', '--encoding', 'o200k_base', '--threads', '1', file];
  const { kilobytes, result } = runWithPeakMemory(cli, args, work);
  return { kilobytes, count: Number(result.stdout) };
}

test("count streams: peak memory stays bounded as the input grows, and the count is the whole text's", async () => {
  const small = join(work, 'small.txt');
  const large = join(work, 'large.txt');
  const body = variedText(8e6, 2);
  writeFileSync(small, body);
  const sink = openSync(large, 'w');
  for (let i = 0; i < 5; i++) {
    writeFileSync(sink, body);
  }
  closeSync(sink);
  const tokenizer = await lab.getTokenizer('o200k_base');
  const expected = tokenizer.count(body, { allowedSpecial: 'all' });
  const smallRun = countWithPeak(small);
  const largeRun = countWithPeak(large);
  rmSync(large);
  assert.equal(smallRun.count, expected);
  assert.equal(largeRun.count, tokenizer.count(body.repeat(5), { allowedSpecial: 'all' }));
  const growth = largeRun.kilobytes - smallRun.kilobytes;
  // Measured: ~85 MB for 10 MB of input, ~115 MB for 50 MB or 100 MB (the JS heap settles); reading the input whole
  // (before streaming) took 250 MB for 40 MB, 135 MB more than for 8 MB.
  assert.ok(growth < 48 * 1024, `peak memory grew by ${growth} kB for 40 MB more input`);
  assert.ok(largeRun.kilobytes < 200 * 1024, `peak memory ${largeRun.kilobytes} kB`);
});

test('a reader that closes the pipe early (`| head`) ends tokenize quietly with status 0', async () => {
  const file = join(work, 'epipe.txt');
  writeFileSync(file, variedText(4_000_000, 3)); // far more output than a pipe buffers
  for (const format of ['ids', 'json', 'bin']) {
    const child = spawn('node', [cli, 'tokenize', '--format', format, file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (data) => (stderr += data));
    await once(child.stdout, 'readable');
    child.stdout.destroy(); // what head does after its bytes
    const [status] = await once(child, 'exit');
    assert.deepEqual([status, stderr], [0, ''], `--format ${format}`);
  }
});

test('a directory as FILE is refused by name, not with a raw EISDIR', () => {
  for (const command of ['count', 'tokenize']) {
    const result = run([command, work]);
    assert.equal(result.status, 1);
    assert.match(String(result.stderr), /is a directory: FILE must be a file/);
    assert.doesNotMatch(String(result.stderr), /EISDIR/);
  }
});
