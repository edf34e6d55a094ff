// scripts/check-import-cycles.mjs on small folders written here (a circle of two modules, a longer one that goes
// through every kind of reference it follows, a graph without a circle whose comments and strings would make one)
// and on the repository's own src/js and web/js.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../..');
const script = join(repoRoot, 'scripts/check-import-cycles.mjs');
const scratch = mkdtempSync(join(tmpdir(), 'embedlab-import-cycles-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** Writes the files ({path: source}) into a fresh folder and runs the check there on it. */
function check(name, files) {
  const dir = join(scratch, name);
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), source);
  }
  const run = spawnSync(process.execPath, [script, 'js'], { cwd: dir, encoding: 'utf8' });
  return { status: run.status, out: run.stdout, err: run.stderr };
}

test('two modules that import each other are named as one circle', () => {
  const { status, out, err } = check('pair', {
    'js/a.js': "import { b } from './b.js';\nexport const a = () => b;\n",
    'js/b.js': "import { a } from './a.js';\nexport const b = () => a;\n",
    'js/c.js': "import { a } from './a.js';\nexport const c = a;\n", // imports into the circle, is not on it
  });
  assert.equal(status, 1, out + err);
  assert.equal(out, '');
  assert.equal(err, 'import-cycles: 1 circle among 3 files:\n  js/a.js -> js/b.js -> js/a.js\n');
});

test('a longer circle is followed through every kind of reference, across folders', () => {
  const { status, err } = check('long', {
    'js/main.js': "import './draw/plot.js';\n",
    'js/draw/plot.js': "export * from './axes.mjs';\n",
    'js/draw/axes.mjs': "export { ticks } from '../ticks.js';\n",
    'js/ticks.js': "export const ticks = () => import('./units/load.cjs');\n",
    'js/units/load.cjs': "module.exports = require('../work/start.js');\n",
    'js/work/start.js':
      "export const start = () => new Worker(new URL('./job.js', import.meta.url), { type: 'module' });\n",
    'js/work/job.js': "import {\n  main,\n} from '../main.js';\nexport const job = main;\n",
  });
  assert.equal(status, 1);
  assert.equal(
    err,
    'import-cycles: 1 circle among 7 files:\n' +
      '  js/draw/axes.mjs -> js/ticks.js -> js/units/load.cjs -> js/work/start.js -> js/work/job.js -> js/main.js' +
      ' -> js/draw/plot.js -> js/draw/axes.mjs\n',
  );
});

test('every import on a circle is named: two circles through one module, and a module importing itself', () => {
  const { status, err } = check('several', {
    'js/canvas.js': "import './legend.js';\nimport './strips.js';\n",
    'js/legend.js': "import './canvas.js';\n",
    'js/strips.js': "import './canvas.js';\nimport './legend.js';\n",
    'js/self.js': "export const again = () => import('./self.js');\n",
  });
  assert.equal(status, 1);
  assert.deepEqual(err.trim().split('\n'), [
    'import-cycles: 4 circles among 4 files:',
    '  js/self.js -> js/self.js',
    '  js/canvas.js -> js/legend.js -> js/canvas.js',
    '  js/canvas.js -> js/strips.js -> js/canvas.js',
    '  js/canvas.js -> js/strips.js -> js/legend.js -> js/canvas.js',
  ]);
});

test('a graph without a circle passes, whatever its comments, strings and regular expressions say', () => {
  const { status, out, err } = check('none', {
    'js/a.js': "import { b } from './b.js';\nimport { c } from './c.js';\nexport const a = [b, c];\n",
    'js/b.js': "import { d } from './d.js';\nexport const b = d;\n",
    'js/c.js': "import { d } from './d.js';\nexport const c = d;\n",
    'js/d.js': [
      "// import { a } from './a.js';",
      "/* import('./b.js') */ export const url = 'https://example.org/'; // not a comment start: in a string",
      "export const pattern = /\\/\\/ import '.\\/c.js'/; // nor in a regular expression",
      "export const text = `${url} // import './a.js' ${'}'}`;",
      "export const half = (x) => x / 2; // require('./a.js')",
      'export const d = 1;',
      '',
    ].join('\n'),
    'js/dist/old.js': "import './old.js';\n", // dist and node_modules are not read
    'js/node_modules/pkg/index.js': "import './index.js';\n",
    'js/site.js': "import createLab from '../embedlab/index.js';\nexport { createLab };\n", // outside: not followed
  });
  assert.equal(err, '');
  assert.equal(status, 0);
  assert.equal(out, 'import-cycles: none among 5 files\n');
});

test("the repository's src/js and web/js import nothing in a circle", () => {
  const run = spawnSync(process.execPath, [script], { cwd: repoRoot, encoding: 'utf8' });
  assert.equal(run.stderr, '');
  assert.equal(run.status, 0);
  assert.match(run.stdout, /^import-cycles: none among \d+ files\n$/);
  const files = Number(/(\d+) files/.exec(run.stdout)[1]);
  assert.ok(files > 80, `${files} files read: src/js and web/js hold more`);
});
