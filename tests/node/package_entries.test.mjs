// The package's entry points agree, checked on the packed tarball installed in an empty folder: require() and
// import expose the same names as the same objects; the ES and CommonJS declarations type-check with --strict
// and lib es2022 alone under module node16, nodenext, moduleResolution bundler and node10 (module commonjs, which
// reads package.json's types and typesVersions instead of exports), and say what runs; the files a bundler may
// drop (package.json sideEffects) have no side effects; LICENSE ships; and the examples of README's quick start
// and of the guide's "Using the package" (docs/guide.md) type-check (its CommonJS blocks as JavaScript under
// node10) and print what their comments say.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import ts from 'typescript';

import { fencedBlocks } from './markdown_blocks.mjs';
import { installPackedPackage, repoRoot as repo, run as runIn } from './pack.mjs';

let project;
let installed;
const run = (command, args) => runIn(project, command, args);

before(() => {
  project = installPackedPackage('embedlab-entries-');
  installed = join(project, 'node_modules', 'embedlab');
});

after(() => rmSync(project, { recursive: true, force: true }));

function nodeJson(args) {
  const child = spawnSync(process.execPath, args, { cwd: project, encoding: 'utf8' });
  assert.equal(child.status, 0, child.stderr);
  return JSON.parse(child.stdout);
}

test('require() is the ES default export itself, exposing every named export of import as the same objects', () => {
  writeFileSync(
    join(project, 'compare_entries.cjs'),
    `const cjs = require('embedlab');
import('embedlab').then(async (esm) => {
  const lab = await cjs();
  const tokenizer = await lab.getTokenizer('gpt2');
  console.log(JSON.stringify({
    cjs: Object.keys(cjs).sort(),
    esm: Object.keys(esm).sort(),
    different: Object.keys(esm).filter((k) => k !== 'default' && k !== 'createEmbedLab' && cjs[k] !== esm[k]),
    callable: typeof cjs === 'function' && cjs.createEmbedLab === cjs && cjs.default === cjs,
    // require() gives the very function the ES module exports as default, for both entries
    identical: cjs === esm.default && require('embedlab/tokenizer') === (await import('embedlab/tokenizer')).default,
    instances: lab instanceof esm.EmbedLab && tokenizer instanceof cjs.Tokenizer && tokenizer instanceof esm.Tokenizer,
    ids: Array.from(tokenizer.encode('hello world')),
  }));
});`,
  );
  const result = nodeJson(['compare_entries.cjs']);
  assert.ok(result.esm.length > 10, `ES exports: ${result.esm}`);
  assert.deepEqual(result.cjs, result.esm);
  assert.deepEqual(result.different, []);
  assert.equal(result.callable, true);
  assert.equal(result.identical, true);
  assert.equal(result.instances, true);
  assert.deepEqual(result.ids, [31373, 995]); // tiktoken's gpt2 ids
});

test('a node without require() of ES modules gets createEmbedLab and default, which work', () => {
  const result = nodeJson([
    '--no-experimental-require-module',
    '-e',
    `const cjs = require('embedlab');
     cjs().then((lab) => console.log(JSON.stringify({ keys: Object.keys(cjs).sort(), version: lab.version })));`,
  ]);
  assert.deepEqual(result, { keys: ['createEmbedLab', 'default'], version: '0.1.0' });
});

// Each user file (a .cts, and a .ts that is an ES module in this "type": "module" project) uses values and
// types through its entry, and holds a deliberate type error marked @ts-expect-error (compare() without
// attention), so the checks would fail if the types were loose.
const CTS_USER = `import embedlab = require('embedlab');

async function main(): Promise<void> {
  const lab: embedlab.EmbedLab = await embedlab({ simd: 'auto' });
  const named: embedlab.EmbedLab = await embedlab.createEmbedLab();
  const viaDefault: embedlab.EmbedLab = await embedlab.default({ simd: false });
  const tokenizer: embedlab.Tokenizer = await lab.getTokenizer('gpt2');
  const spans: embedlab.TokenSpan[] = tokenizer.tokens('hello world');
  const embedding: embedlab.TokenEmbedding = lab.tokenEmbedding({ vocabSize: 3, dim: 4, seed: 1 });
  const cosine: number = lab.compare([0, 1], [1, 0], { embedding }).attention.pooledCosine;
  // @ts-expect-error: without the attention layer, the result's attention is null (never called)
  const typeErrorOnly = (): number => lab.compare([0, 1], [1, 0], { embedding, attention: false }).attention.pooledCosine;
  const instance: boolean = tokenizer instanceof embedlab.Tokenizer && embedding instanceof embedlab.WasmHandle;
  console.log('cts', typeof typeErrorOnly === 'function' && instance, embedlab.simdSupported(), spans.length, cosine > 0, named.version, viaDefault.flavour);
}
void main();
`;

const TS_USER = `import createEmbedLab, { Tokenizer, WasmHandle, simdSupported } from 'embedlab';
import type { EmbedLab, TokenEmbedding, TokenSpan } from 'embedlab';

const lab: EmbedLab = await createEmbedLab({ simd: 'auto' });
const tokenizer = await lab.getTokenizer('gpt2');
const spans: TokenSpan[] = tokenizer.tokens('hello world');
const embedding: TokenEmbedding = lab.tokenEmbedding({ vocabSize: 3, dim: 4, seed: 1 });
const cosine: number = lab.compare([0, 1], [1, 0], { embedding, attention: { seed: 2 } }).attention.pooledCosine;
// @ts-expect-error: without the attention layer, the result's attention is null (never called)
const typeErrorOnly = (): number => lab.compare([0, 1], [1, 0], { embedding, attention: null }).attention.pooledCosine;
const instance: boolean = tokenizer instanceof Tokenizer && embedding instanceof WasmHandle;
console.log('ts', typeof typeErrorOnly === 'function' && instance, simdSupported(), spans.length, cosine > 0, lab.version, lab.flavour);
`;

// A CommonJS project of TypeScript's defaults (module commonjs, so moduleResolution node10): both entries resolve
// through package.json's types and typesVersions to the CommonJS declarations.
const NODE10_USER = `import embedlab = require('embedlab');
import tokenizers = require('embedlab/tokenizer');

async function main(): Promise<void> {
  const lab: embedlab.EmbedLab = await embedlab({ simd: false });
  const tokenizer: embedlab.Tokenizer = await tokenizers.getTokenizer('gpt2');
  const ids: Uint32Array = tokenizer.encode('hello world');
  const embedding: embedlab.TokenEmbedding = lab.tokenEmbedding({ vocabSize: 3, dim: 4, seed: 1 });
  // @ts-expect-error: without the attention layer, the result's attention is null (never called)
  const typeErrorOnly = (): number => lab.compare([0, 1], [1, 0], { embedding, attention: false }).attention.pooledCosine;
  const instance: boolean = tokenizer instanceof embedlab.Tokenizer && typeof typeErrorOnly === 'function';
  console.log('node10', instance, lab.flavour, Array.from(ids).join(' '));
}
void main();
`;

// lib es2022 alone has no console: this stands in for @types/node or the DOM in the user's project.
const CONSOLE = 'declare const console: { log(...values: unknown[]): void };\n';

// tsc's checks, in this process: the lib files are parsed once for every configuration (tsc itself takes ~5 s a run).
const parsed = new Map();
function typeCheck(compilerOptions, files, hint = '') {
  const json = { strict: true, lib: ['es2022'], target: 'es2022', types: [], skipLibCheck: false, ...compilerOptions };
  const { options, errors } = ts.convertCompilerOptionsFromJson(json, project);
  assert.deepEqual(errors, []);
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, version, ...rest) => {
    const key = `${fileName} ${JSON.stringify(typeof version === 'object' ? [version.languageVersion, version.impliedNodeFormat] : version)}`;
    if (!parsed.has(key)) {
      parsed.set(key, getSourceFile(fileName, version, ...rest));
    }
    return parsed.get(key);
  };
  const program = ts.createProgram(
    files.map((file) => join(project, file)),
    options,
    host,
  );
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...program.emit().diagnostics];
  const format = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => project, getNewLine: () => '\n' };
  assert.equal(
    diagnostics.length,
    0,
    `${hint}tsc ${JSON.stringify(compilerOptions)}:\n${ts.formatDiagnostics(diagnostics, format)}`,
  );
}

test('the ES and CommonJS declarations type-check (strict, lib es2022) and say what runs', () => {
  writeFileSync(join(project, 'user.cts'), CTS_USER);
  writeFileSync(join(project, 'user.ts'), TS_USER);
  writeFileSync(join(project, 'console.d.ts'), CONSOLE);
  const files = ['user.cts', 'user.ts', 'console.d.ts'];
  typeCheck({ module: 'node16', noEmit: true }, files);
  typeCheck({ module: 'esnext', moduleResolution: 'bundler', noEmit: true }, ['user.ts', 'console.d.ts']);
  typeCheck({ module: 'nodenext', outDir: join(project, 'out') }, files);
  writeFileSync(join(project, 'user_node10.cts'), NODE10_USER);
  typeCheck({ module: 'commonjs', moduleResolution: 'node10', outDir: join(project, 'out') }, [
    'user_node10.cts',
    'console.d.ts',
  ]);
  assert.equal(run('node', [join('out', 'user_node10.cjs')]).trim(), 'node10 true fallback 31373 995');
  const [, , simd] = run('node', [join('out', 'user.js')])
    .trim()
    .split(' ');
  assert.equal(run('node', [join('out', 'user.cjs')]).trim(), `cts true ${simd} 2 true 0.1.0 fallback`);
  const flavour = simd === 'true' ? 'simd' : 'fallback';
  assert.equal(run('node', [join('out', 'user.js')]).trim(), `ts true ${simd} 2 true 0.1.0 ${flavour}`);
});

test('the files package.json does not list in sideEffects have none; the command line has', () => {
  const { sideEffects } = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
  // main.js runs the command line; tokenize_worker.js is a worker thread's entry (it answers its parent's messages).
  assert.deepEqual(sideEffects, ['./dist/cli/main.js', './dist/cli/tokenize_worker.js']);
  const modules = readdirSync(join(installed, 'dist'), { recursive: true }).filter(
    (f) =>
      /\.c?js$/.test(f) &&
      !f.startsWith('torch') &&
      f !== join('cli', 'main.js') &&
      f !== join('cli', 'tokenize_worker.js'),
  );
  assert.ok(modules.includes('index.js') && modules.includes('index.cjs') && modules.length > 20, `${modules}`);
  // One fresh process imports each module in turn and records what changed after each: globals, process
  // listeners and the exit code; anything printed shows in its output.
  const urls = modules.map((file) => pathToFileURL(join(installed, 'dist', file)).href);
  const child = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const events = ['uncaughtException', 'unhandledRejection', 'exit', 'beforeExit', 'warning', 'SIGINT', 'message'];
       const state = () => JSON.stringify([Object.getOwnPropertyNames(globalThis).sort(),
         events.map((e) => process.listenerCount(e)), process.exitCode]);
       const changed = [];
       for (const url of ${JSON.stringify(urls)}) {
         const before = state();
         await import(url);
         if (state() !== before) changed.push(url);
       }
       console.log(JSON.stringify(changed));`,
    ],
    { cwd: project, encoding: 'utf8' },
  );
  assert.equal(child.status, 0, child.stderr);
  assert.equal(child.stderr, '');
  assert.equal(child.stdout, '[]\n');
  // The command line runs on import: it reads its arguments, prints and sets the exit code.
  const cliUrl = pathToFileURL(join(installed, 'dist', 'cli', 'main.js')).href;
  const cli = spawnSync(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(cliUrl)});`], {
    cwd: project,
    encoding: 'utf8',
    input: '',
  });
  assert.ok(cli.stdout.length + cli.stderr.length > 0 && cli.status !== null, 'cli/main.js did nothing on import');
});

test('LICENSE ships in the tarball: MIT, the embedlab authors', () => {
  const license = readFileSync(join(installed, 'LICENSE'), 'utf8');
  assert.equal(license, readFileSync(join(repo, 'LICENSE'), 'utf8'));
  assert.match(license, /^MIT License\n\nCopyright \(c\) 2026 the embedlab authors\n/);
  assert.equal(JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).license, 'MIT');
});

/** What each console.log line says it prints: the text after its last "→ ". */
function expectedOutput(source, where) {
  const lines = source.split('\n').filter((line) => line.includes('console.log('));
  return lines.map((line) => {
    const at = line.lastIndexOf('→ ');
    assert.ok(at >= 0, `${where} prints without saying what: ${line}`);
    return line.slice(at + 2);
  });
}

/**
 * Writes the js blocks of `heading` in `file` as one program named `name` (.mjs, and .mts to type-check with
 * --strict), runs it and checks that each console.log printed what its comment says. Returns what it expected.
 */
function checkExamples(file, heading, name) {
  const where = `${file}'s "${heading}"`;
  const esm = fencedBlocks(file, heading, 'js').join('\n');
  assert.ok(esm.includes("from 'embedlab'"), `${where} imports embedlab`);
  writeFileSync(join(project, `${name}.mjs`), esm);
  writeFileSync(join(project, `${name}_check.mts`), esm);
  // The examples use console, TextEncoder and AbortController: from the DOM lib here, from @types/node in a
  // node project.
  const hint = `${where} js blocks must make one program that runs as written: `;
  typeCheck({ module: 'nodenext', noEmit: true, lib: ['es2022', 'dom'] }, [`${name}_check.mts`], hint);
  const printed = run('node', [`${name}.mjs`])
    .trimEnd()
    .split('\n');
  const expected = expectedOutput(esm, where);
  assert.deepEqual(printed, expected, `${where}: each console.log prints one line, the text after its "→ "`);
  return expected;
}

test("README's quick start type-checks (strict) and prints what its comments say", () => {
  const printed = checkExamples('README.md', 'Quick start', 'quick_start');
  assert.ok(printed.length >= 3, `the quick start prints: ${printed}`);
  const lines = fencedBlocks('README.md', 'Quick start', 'js')[0].trimEnd().split('\n').length;
  assert.ok(lines <= 15, `README's quick start stays within 15 lines: ${lines}`);
});

test("the guide's usage examples type-check (strict) and print what their comments say", () => {
  const file = 'docs/guide.md';
  assert.ok(checkExamples(file, 'Using the package', 'guide').length > 20);
  const cjs = fencedBlocks(file, 'Using the package', 'cjs');
  assert.ok(cjs.length > 0, `${file}'s "Using the package" has a cjs block`);
  // The CommonJS blocks as a JavaScript user's editor checks them: require() under node10 (module commonjs).
  const cjsFiles = cjs.map((source, i) => {
    writeFileSync(join(project, `guide_${i}.cjs`), source);
    return `guide_${i}.cjs`;
  });
  const cjsOptions = { module: 'commonjs', moduleResolution: 'node10', allowJs: true, checkJs: true, noEmit: true };
  typeCheck({ ...cjsOptions, lib: ['es2022', 'dom'] }, cjsFiles, `${file}'s cjs blocks under node10: `);
  cjs.forEach((source, i) => {
    assert.deepEqual(
      run('node', [`guide_${i}.cjs`])
        .trimEnd()
        .split('\n'),
      expectedOutput(source, file),
    );
  });
});
