// Runs the CLI in a child node process and reads its peak resident memory (VmHWM) as the process exits.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Runs `node cli ...args` (a wrapper written into `dir`); returns {kilobytes, result}. Asserts exit status 0. */
export function runWithPeakMemory(cli, args, dir, options = {}) {
  const wrapper = join(dir, 'peak.mjs');
  writeFileSync(
    wrapper,
    `import { readFileSync, writeSync } from 'node:fs';
    process.on('exit', () => writeSync(2, readFileSync('/proc/self/status', 'utf8').match(/VmHWM:\\s+\\d+ kB/)[0]));
    await import(${JSON.stringify(cli)});`,
  );
  const result = spawnSync('node', [wrapper, ...args], { timeout: 120_000, ...options });
  assert.equal(result.status, 0, String(result.stderr));
  return { kilobytes: Number(String(result.stderr).match(/VmHWM:\s+(\d+) kB/)[1]), result };
}
