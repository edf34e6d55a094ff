// Shared by the PyTorch export's tests (torch_export.test.mjs, torch_rope_scaling.test.mjs): Debian's python3-torch
// (scripts/setup.sh installs it: /usr/bin/python3, or EMBEDLAB_TORCH_PYTHON), the exported files, a checked process
// run and an independent safetensors reader.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const python = process.env.EMBEDLAB_TORCH_PYTHON ?? '/usr/bin/python3';
export const torchDir = fileURLToPath(new URL('../../dist/torch/', import.meta.url));

/** Runs a command, fails the test with its stderr unless it exits 0, and gives its stdout. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 120_000, ...options });
  assert.equal(result.status, 0, `${command} ${args.join(' ')} failed:\n${result.stderr}`);
  return result.stdout;
}

// An independent safetensors reader: 8-byte little-endian header length, JSON header, F32 data.
export function readSafetensors(path) {
  const bytes = readFileSync(path);
  const length = Number(bytes.readBigUInt64LE(0));
  const { __metadata__: metadata, ...entries } = JSON.parse(bytes.subarray(8, 8 + length).toString('utf8'));
  const tensors = {};
  for (const [
    name,
    {
      data_offsets: [begin, end],
    },
  ] of Object.entries(entries)) {
    tensors[name] = new Float32Array(
      bytes.buffer.slice(bytes.byteOffset + 8 + length + begin, bytes.byteOffset + 8 + length + end),
    );
  }
  return { metadata, tensors };
}
