// The PyTorch side of the model's parity tests, run for real: the committed reference files
// (tests/reference/data, read by the Catch2 parity tests) must be what tests/reference/gpt_reference.py
// writes today, and checkpoints our C++ trains must load in PyTorch with the same logits.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const python = process.env.EMBEDLAB_TORCH_PYTHON ?? '/usr/bin/python3';
const committed = join(root, 'tests/reference/data');
const scratch = mkdtempSync(join(tmpdir(), 'embedlab-reference-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

// {metadata, tensors: {name: {dtype, shape, values}}} of a safetensors file (F32 and I32 only).
function readSafetensors(file) {
  const bytes = readFileSync(file);
  const headerLength = Number(bytes.readBigUInt64LE(0));
  const header = JSON.parse(bytes.subarray(8, 8 + headerLength).toString('utf8'));
  const tensors = {};
  for (const [name, entry] of Object.entries(header)) {
    if (name === '__metadata__') {
      continue;
    }
    const [begin, end] = entry.data_offsets.map((offset) => 8 + headerLength + offset);
    const data = bytes.buffer.slice(bytes.byteOffset + begin, bytes.byteOffset + end);
    assert.ok(['F32', 'I32'].includes(entry.dtype), `${file}: ${name} is ${entry.dtype}`);
    const values = entry.dtype === 'F32' ? new Float32Array(data) : new Int32Array(data);
    tensors[name] = { dtype: entry.dtype, shape: entry.shape, values };
  }
  return { metadata: header.__metadata__ ?? {}, tensors };
}

test('the committed reference files are what gpt_reference.py writes (float rounding aside)', () => {
  const run = spawnSync(python, ['tests/reference/gpt_reference.py', '--out', scratch], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  const names = readdirSync(committed).filter((name) => name.endsWith('.safetensors'));
  assert.deepEqual(readdirSync(scratch).sort(), names.sort());
  for (const name of names) {
    const expected = readSafetensors(join(committed, name));
    const written = readSafetensors(join(scratch, name));
    assert.deepEqual(written.metadata, expected.metadata, name);
    assert.deepEqual(Object.keys(written.tensors).sort(), Object.keys(expected.tensors).sort(), name);
    for (const [tensor, { dtype, shape, values }] of Object.entries(expected.tensors)) {
      const got = written.tensors[tensor];
      assert.equal(got.dtype, dtype, `${name} ${tensor}`);
      assert.deepEqual(got.shape, shape, `${name} ${tensor}`);
      // Another CPU may round torch's float32 sums differently: 1e-5 of the tensor's largest magnitude.
      const scale = Math.max(1e-30, ...Array.from(values, Math.abs));
      for (let i = 0; i < values.length; i++) {
        const tolerance = dtype === 'I32' ? 0 : 1e-5 * scale;
        assert.ok(
          Math.abs(got.values[i] - values[i]) <= tolerance,
          `${name} ${tensor}[${i}]: ${got.values[i]} vs ${values[i]}`,
        );
      }
    }
  }
});

test('checkpoints trained by the C++ model load in PyTorch with the same logits, every scheme', () => {
  const binary = join(root, 'build/native/embedlab_tests');
  const run = spawnSync('sh', ['scripts/generate-model-references.sh', '--check-checkpoints', binary], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, EMBEDLAB_TORCH_PYTHON: python },
  });
  assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
  // One "ok" line per case: the script must have checked them, not found an empty directory.
  const checked = run.stdout.split('\n').filter((line) => /\bok\b/.test(line));
  assert.ok(checked.length >= 10, run.stdout);
});
