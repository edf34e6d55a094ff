// npm pack smoke test: install the tarball into an empty folder, then use it as a user would: import,
// require, and a strict TypeScript file that touches every declared member (type-checked and run).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { installPackedPackage, repoRoot as repo, run as runIn } from './pack.mjs';

const here = fileURLToPath(new URL('./package/', import.meta.url));
let project;
const run = (command, args) => runIn(project, command, args);

before(() => {
  project = installPackedPackage('embedlab-pack-');
  for (const file of ['usage.ts', 'usage.cjs', 'tsconfig.json']) {
    copyFileSync(join(here, file), join(project, file));
  }
});

after(() => rmSync(project, { recursive: true, force: true }));

test('the tarball holds the package files and nothing else', () => {
  const root = join(project, 'node_modules', 'embedlab');
  // README links to docs/, so the documents ship beside it.
  assert.deepEqual(readdirSync(root).sort(), ['LICENSE', 'README.md', 'dist', 'docs', 'package.json']);
  const docs = readdirSync(join(repo, 'docs')).filter((file) => file.endsWith('.md'));
  assert.ok(docs.length >= 4, `docs/: ${docs}`);
  assert.deepEqual(readdirSync(join(root, 'docs')).sort(), docs.sort());
  const installed = join(root, 'dist');
  // Not shipped: the node shim (part of each module's glue), tsc's settings and the glue's stand-in declarations.
  const forTsc = ['tsconfig.json', join('runtime', 'glue.d.ts')];
  const shippedJs = readdirSync(join(repo, 'src', 'js'), { recursive: true }).filter(
    (file) => file !== join('runtime', 'node_shim.js') && !forTsc.includes(file),
  );
  // scripts/emit-types.mjs: the declarations of every ES module, generated from its JSDoc
  const declarations = shippedJs.filter((file) => file.endsWith('.js')).map((file) => file.replace(/\.js$/, '.d.ts'));
  const modules = ['embedlab', 'embedlab-hf', 'embedlab-tokenizer'].flatMap((module) =>
    ['fallback', 'simd'].flatMap((flavour) => [`${module}-${flavour}.js`, `${module}-${flavour}.wasm`]),
  );
  const generated = ['index.d.cts', 'tokenizer.d.cts']; // scripts/generate-cjs-types.mjs
  const shipped = readdirSync(installed, { recursive: true }).filter((file) => !/^(torch|vocab)\b./.test(file));
  assert.deepEqual(shipped.sort(), [...shippedJs, ...declarations, ...modules, ...generated, 'torch', 'vocab'].sort());
  assert.deepEqual(readdirSync(join(installed, 'torch')).sort(), [
    'README.md',
    'embedlab_gpt.py',
    'embedlab_rope_scaling.py',
    'embedlab_t5_bias.py',
    'train.py',
  ]);
  assert.deepEqual(readdirSync(join(installed, 'vocab')).sort(), [
    'cl100k_base.emblvoc',
    'o200k_base.emblvoc',
    'p50k_base.emblvoc',
    'r50k_base.emblvoc',
  ]);
});

test('import works from an ES module', () => {
  const out = run('node', [
    '--input-type=module',
    '-e',
    "import createEmbedLab from 'embedlab'; const lab = await createEmbedLab(); console.log(lab.version, lab.simdTarget);",
  ]);
  assert.match(out, /^0\.1\.0 (WASM|EMU128)$/m);
});

test('npx embedlab runs the installed command line', () => {
  const out = execFileSync('npx', ['--no-install', 'embedlab', 'tokenize', '--encoding', 'cl100k_base'], {
    cwd: project,
    input: 'hello world',
    encoding: 'utf8',
  });
  assert.equal(out.trim(), '15339 1917');
});

test('embedlab/tokenizer works from an ES module and from CommonJS', () => {
  const esm = run('node', [
    '--input-type=module',
    '-e',
    "import { getTokenizer } from 'embedlab/tokenizer'; console.log((await getTokenizer('cl100k_base')).encode('hello world').join(' '));",
  ]);
  assert.equal(esm.trim(), '15339 1917');
  const cjs = run('node', [
    '-e',
    "require('embedlab/tokenizer')().then(async (t) => console.log(t.flavour, (await t.getTokenizer('gpt2')).encode('hello world').join(' ')));",
  ]);
  assert.match(cjs.trim(), /^(simd|fallback) 31373 995$/);
});

test('require works from CommonJS', () => {
  assert.match(run('node', ['usage.cjs']), /^require ok (WASM|EMU128)$/m);
});

test('a strict TypeScript user of every declared member type-checks and runs', () => {
  run('node', [join(repo, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json']);
  assert.match(run('node', [join('out', 'usage.js')]), /usage ok/);
});
