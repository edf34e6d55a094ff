// The package changes nothing global in the user's process: no process listeners (the Emscripten glue adds
// uncaughtException / unhandledRejection handlers unless built without them), no new globals, and an error the
// user's own program throws afterwards ends it the way node normally does (exit code 1, a short report).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const index = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
const cjs = fileURLToPath(new URL('../../dist/index.cjs', import.meta.url));

function run(source, type = 'module') {
  const args = type === 'module' ? ['--input-type=module', '-e', source] : ['-e', source];
  return spawnSync(process.execPath, args, { encoding: 'utf8' });
}

test('eleven labs add no process listener and no global', () => {
  const child = run(`
    import createEmbedLab from ${JSON.stringify(index)};
    const events = ['uncaughtException', 'unhandledRejection', 'exit', 'beforeExit', 'warning', 'SIGINT'];
    const before = events.map((e) => process.listenerCount(e));
    const globals = new Set(Object.getOwnPropertyNames(globalThis));
    for (let i = 0; i < 11; i++) {
      const lab = await createEmbedLab();
      const tok = await lab.getTokenizer('gpt2');
      tok.encode('hello world');
    }
    const after = events.map((e) => process.listenerCount(e));
    const added = Object.getOwnPropertyNames(globalThis).filter((name) => !globals.has(name));
    console.log(JSON.stringify({ before, after, added }));
  `);
  assert.equal(child.status, 0, child.stderr);
  assert.doesNotMatch(child.stderr, /MaxListenersExceeded/);
  const { before, after, added } = JSON.parse(child.stdout);
  assert.deepEqual(after, before);
  assert.deepEqual(added, []);
});

for (const [kind, source] of [
  ['ESM', `import createEmbedLab from ${JSON.stringify(index)}; await createEmbedLab(); throw new Error('user boom');`],
  [
    'CommonJS',
    `const createEmbedLab = require(${JSON.stringify(cjs)}); createEmbedLab().then(() => { throw new Error('user boom'); });`,
  ],
]) {
  test(`${kind}: the user's own error afterwards exits 1 with node's short report`, () => {
    const child = run(source, kind === 'ESM' ? 'module' : 'commonjs');
    assert.equal(child.status, 1, child.stderr);
    assert.match(child.stderr, /Error: user boom/);
    assert.ok(child.stderr.length < 4000, `stderr is ${child.stderr.length} characters`);
  });
}

test("the user's own handler keeps the process alive", () => {
  const child = run(`
    import createEmbedLab from ${JSON.stringify(index)};
    await createEmbedLab();
    process.on('uncaughtException', (error) => console.log('handled', error.message));
    setTimeout(() => { throw new Error('user boom'); }, 0);
    setTimeout(() => console.log('still alive'), 50);
  `);
  assert.equal(child.status, 0, child.stderr);
  assert.match(child.stdout, /handled user boom\nstill alive/);
});
