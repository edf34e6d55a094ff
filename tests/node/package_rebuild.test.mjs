// A rebuild of the package's JavaScript (scripts/build-package.sh, which npm start runs through build.sh) while tests
// import dist/ must not touch what they read: with unchanged sources every file of dist/ stays the same file (same
// inode, same bytes), so `npm start` beside `npm test` in one checkout breaks neither.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const dist = join(repo, 'dist');

function snapshot() {
  const files = readdirSync(dist, { recursive: true }).filter((file) => statSync(join(dist, file)).isFile());
  return new Map(
    files.map((file) => [file, `${statSync(join(dist, file)).ino} ${readFileSync(join(dist, file)).length}`]),
  );
}

test('rebuilding the package from unchanged sources replaces no file of dist/', () => {
  const before = snapshot();
  assert.ok(before.has('index.js') && before.has('index.d.ts') && before.has(join('tokenizer', 'tokenizer.js')));
  execFileSync('bash', [join(repo, 'scripts', 'build-package.sh')], { cwd: repo, stdio: 'pipe' });
  assert.deepEqual(snapshot(), before);
});
