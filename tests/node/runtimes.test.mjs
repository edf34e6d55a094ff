// The package in every server-side runtime its users run it in: node 20, the newest node of the registry's `node`
// package (scripts/setup.sh installs it into build/runtimes/node), Bun, Deno and Cloudflare's workerd. Each runs
// the same program (tests/runtimes/smoke_core.mjs) from a project where the packed tarball is installed, as a
// user's would be; its ids must be tiktoken's, its model numbers bit-identical to node 20's own run here (the same
// wasm must compute the same floats anywhere), and it must leave no process listener and no global behind.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { get_encoding } from 'tiktoken';

import { SENTENCE, MODEL_CONFIG, smoke } from '../runtimes/smoke_core.mjs';
import { installPackedPackage, repoRoot } from './pack.mjs';

const runtimesDir = fileURLToPath(new URL('../runtimes/', import.meta.url));
const bin = (name) => join(repoRoot, 'node_modules/.bin', name);
const newestNode = join(repoRoot, 'build/runtimes/node/node_modules/.bin/node');
const TIMEOUT_MS = 60_000;

let project, expectedIds, reference;

before(async () => {
  project = installPackedPackage('embedlab-runtimes-');
  for (const file of ['smoke_core.mjs', 'smoke_cli.mjs', 'workerd_worker.mjs']) {
    copyFileSync(join(runtimesDir, file), join(project, file));
  }
  const cl100k = get_encoding('cl100k_base');
  expectedIds = Array.from(cl100k.encode(SENTENCE));
  cl100k.free();
  const entry = pathToFileURL(join(project, 'node_modules/embedlab/dist/index.js')).href;
  reference = await smoke(() => import(entry));
});

after(() => {
  if (project) {
    rmSync(project, { recursive: true, force: true });
  }
});

// What every runtime must report: tiktoken's ids, the sentence back, node 20's losses and logits to the bit, and
// nothing process-wide left behind (`allowedGlobals`: globals the runtime itself adds, not the package).
function checkReport(report, { allowedGlobals = [], hasProcess = true } = {}) {
  assert.equal(report.flavour, 'simd');
  assert.equal(report.simdTarget, 'WASM');
  assert.deepEqual(report.ids, expectedIds);
  assert.equal(report.decoded, SENTENCE);
  assert.deepEqual(report.losses, reference.losses);
  assert.equal(report.lossAfter, reference.lossAfter);
  assert.equal(report.logits.length, MODEL_CONFIG.contextLength * MODEL_CONFIG.vocabSize);
  assert.deepEqual(report.logits, reference.logits);
  if (hasProcess) {
    assert.notEqual(report.listenersBefore, null, `${report.runtime} has node's process object`);
  }
  assert.deepEqual(report.listenersAfter, report.listenersBefore);
  assert.deepEqual(report.newGlobals, allowedGlobals);
}

// Runs smoke_cli.mjs with `command args` in the project; returns its report.
function runCli(command, args) {
  const child = spawnSync(command, [...args, 'smoke_cli.mjs'], {
    cwd: project,
    encoding: 'utf8',
    timeout: TIMEOUT_MS,
    env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' },
  });
  assert.equal(child.error, undefined, `${command}: ${child.error?.message}`);
  assert.equal(child.status, 0, `${command} exited ${child.status}: ${child.stderr}`);
  assert.equal(child.stderr, '', `${command} wrote to stderr`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1));
}

test('the reference run (node 20, in this process) learns: loss starts near ln(vocab) and falls', () => {
  assert.deepEqual(reference.ids, expectedIds);
  assert.ok(Math.abs(reference.losses[0] - Math.log(MODEL_CONFIG.vocabSize)) < 0.1, `${reference.losses}`);
  assert.ok(reference.losses[1] < reference.losses[0] && reference.lossAfter < reference.losses[1]);
  assert.ok(reference.logits.every(Number.isFinite));
});

test(`node ${process.versions.node} (the default, ESM)`, () => {
  const report = runCli(process.execPath, []);
  assert.equal(report.runtime, `node ${process.versions.node}`);
  checkReport(report);
});

// The line of npm's error log that says what went wrong (not its code/errno lines or the debug log's path).
function npmError(log) {
  const lines = log.trim().split('\n');
  return lines.find((line) => !/^npm error (code |syscall |errno |A complete log|\s|$)/.test(line)) ?? lines.at(-1);
}

test('the newest node from the npm registry', (t) => {
  if (!existsSync(newestNode)) {
    const log = join(repoRoot, 'build/runtimes/node/install.log');
    const why = existsSync(log) ? npmError(readFileSync(log, 'utf8')) : 'scripts/setup.sh has not run';
    t.skip(`newest node not installed (build/runtimes/node): ${why}`);
    return;
  }
  const version = spawnSync(newestNode, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const report = runCli(newestNode, []);
  assert.equal(report.runtime, `node ${version.slice(1)}`);
  assert.ok(Number(version.slice(1).split('.')[0]) > 20, `the newest node is ${version}`);
  checkReport(report);
});

test('Bun', () => {
  const report = runCli(bin('bun'), []);
  assert.match(report.runtime, /^bun \d/);
  checkReport(report);
});

test('Deno (read permission only)', () => {
  const deno = bin('deno');
  // Deno defines its own `nodeBootstrap` global the first time node compatibility (process.getBuiltinModule) is
  // used; whatever it adds for that without the package is the runtime's, not ours.
  const own = spawnSync(
    deno,
    [
      'eval',
      `const b = new Set(Object.getOwnPropertyNames(globalThis)); process.getBuiltinModule('fs');
       console.log(JSON.stringify(Object.getOwnPropertyNames(globalThis).filter((n) => !b.has(n))));`,
    ],
    { encoding: 'utf8', timeout: TIMEOUT_MS, env: { ...process.env, NO_COLOR: '1' } },
  );
  assert.equal(own.status, 0, own.stderr);
  const report = runCli(deno, ['run', `--allow-read=${project}`]);
  assert.match(report.runtime, /^deno \d/);
  checkReport(report, { allowedGlobals: JSON.parse(own.stdout) });
});

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// A workerd config as wrangler would bundle the worker: every .js of the package as an ES module, the SIMD .wasm
// as a wasm module, the vocabulary as a data module. One worker per compatibility date, each on its own port:
// dates before 2025-05-05 have no FinalizationRegistry.
const COMPATIBILITY_DATES = ['2025-09-01', '2024-09-23'];

function workerdConfig(ports) {
  const dist = join(project, 'node_modules/embedlab/dist');
  cpSync(dist, join(project, 'embedlab'), { recursive: true });
  const modules = [
    '(name = "worker.mjs", esModule = embed "workerd_worker.mjs")',
    '(name = "smoke_core.mjs", esModule = embed "smoke_core.mjs")',
    ...readdirSync(dist)
      .filter((file) => file.endsWith('.js'))
      .map((file) => `(name = "embedlab/${file}", esModule = embed "embedlab/${file}")`),
    '(name = "embedlab/embedlab-simd.wasm", wasm = embed "embedlab/embedlab-simd.wasm")',
    '(name = "embedlab/vocab/cl100k_base.emblvoc", data = embed "embedlab/vocab/cl100k_base.emblvoc")',
  ];
  const services = COMPATIBILITY_DATES.map((date, i) => `(name = "w${i}", worker = .w${i})`);
  const sockets = ports.map(
    (port, i) => `(name = "s${i}", address = "127.0.0.1:${port}", http = (), service = "w${i}")`,
  );
  const workers = COMPATIBILITY_DATES.map(
    (date, i) => `const w${i} :Workerd.Worker = (compatibilityDate = "${date}", modules = [
  ${modules.join(',\n  ')}]);`,
  );
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (services = [${services.join(', ')}],
  sockets = [${sockets.join(',\n    ')}]);
${workers.join('\n')}
`;
}

// GET url until workerd answers (it takes a moment to start), at most 20 s.
async function firstResponse(url, child, output) {
  for (let attempt = 0; attempt < 200; attempt++) {
    assert.equal(child.exitCode, null, `workerd exited: ${output()}`);
    const response = await fetch(url).catch(() => undefined);
    if (response !== undefined) {
      return response;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`workerd did not answer on ${url} within 20 s: ${output()}`);
}

test('Cloudflare workerd: the wasm as a module, the vocabulary as data; with and without FinalizationRegistry', async () => {
  const ports = [await freePort(), await freePort()];
  writeFileSync(join(project, 'config.capnp'), workerdConfig(ports));
  const child = spawn(bin('workerd'), ['serve', 'config.capnp'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (data) => (output += data));
  child.stderr.on('data', (data) => (output += data));
  try {
    // Two requests to the current date's worker (a second lab in the same isolate), one to the old date's.
    for (const [i, requests] of [
      [0, 2],
      [1, 1],
    ]) {
      const url = `http://127.0.0.1:${ports[i]}/`;
      for (let request = 0; request < requests; request++) {
        const response = request === 0 ? await firstResponse(url, child, () => output) : await fetch(url);
        const body = await response.text();
        assert.equal(response.status, 200, `${COMPATIBILITY_DATES[i]}: ${body}`);
        const report = JSON.parse(body);
        assert.equal(report.runtime, 'workerd');
        checkReport(report, { hasProcess: false });
        assert.equal(report.listenersBefore, null); // no node compatibility flag: no process object at all
        assert.equal(report.finalizationRegistry, i === 0 ? 'function' : 'undefined');
      }
    }
  } finally {
    child.kill();
  }
});
