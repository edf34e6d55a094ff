// The package in the command-line runtimes its users run it in: node 20, the newest node of the registry's `node`
// package (scripts/setup.sh installs it into build/runtimes/node), Bun and Deno (workerd: runtimes_workerd.test.mjs;
// a browser's Web Worker: tests/browser/worker.test.mjs). Each runs the same program (tests/runtimes/smoke_core.mjs)
// from a project where the packed tarball is installed, as a user's would be; tests/runtimes/expected.mjs says what
// it must report.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { checkReport, expectations } from '../runtimes/expected.mjs';
import { MODEL_CONFIG } from '../runtimes/smoke_core.mjs';
import { installPackedPackage, repoRoot } from './pack.mjs';

const runtimesDir = fileURLToPath(new URL('../runtimes/', import.meta.url));
const bin = (name) => join(repoRoot, 'node_modules/.bin', name);
const newestNode = join(repoRoot, 'build/runtimes/node/node_modules/.bin/node');
const TIMEOUT_MS = 60_000;

let project, expected;

before(async () => {
  project = installPackedPackage('embedlab-runtimes-');
  for (const file of ['smoke_core.mjs', 'smoke_cli.mjs']) {
    copyFileSync(join(runtimesDir, file), join(project, file));
  }
  expected = await expectations(pathToFileURL(join(project, 'node_modules/embedlab/dist/index.js')).href);
});

after(() => {
  if (project) {
    rmSync(project, { recursive: true, force: true });
  }
});

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
  const { reference } = expected;
  assert.deepEqual(reference.ids, expected.ids);
  assert.ok(Math.abs(reference.losses[0] - Math.log(MODEL_CONFIG.vocabSize)) < 0.1, `${reference.losses}`);
  assert.ok(reference.losses[1] < reference.losses[0] && reference.lossAfter < reference.losses[1]);
  assert.ok(reference.logits.every(Number.isFinite));
});

test(`node ${process.versions.node} (the default, ESM)`, () => {
  const report = runCli(process.execPath, []);
  assert.equal(report.runtime, `node ${process.versions.node}`);
  checkReport(report, expected);
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
  checkReport(report, expected);
});

test('Bun', () => {
  const report = runCli(bin('bun'), []);
  assert.match(report.runtime, /^bun \d/);
  checkReport(report, expected);
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
  checkReport(report, expected, { allowedGlobals: JSON.parse(own.stdout) });
});
