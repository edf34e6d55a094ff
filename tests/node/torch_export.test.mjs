// The PyTorch export (dist/torch, what `embedlab export-torch` writes) against the C++ model in wasm: logits and
// one AdamW step for every positional scheme, 2 DDP processes == 1 process, and page -> PyTorch DDP -> page.
// Runs Debian's python3-torch (torch_support.mjs). RoPE scaling's checkpoint keys: torch_rope_scaling.test.mjs.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import createEmbedLab from '../../dist/index.js';
import { python, readSafetensors, run, torchDir } from './torch_support.mjs';

const cli = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const checkScript = fileURLToPath(new URL('./torch_export_check.py', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'embedlab-torch-'));
let lab;
before(async () => {
  lab = await createEmbedLab();
});
after(() => rmSync(work, { recursive: true, force: true }));

// max |a - b| / max |b|: one scale for the whole array, as logits of different size share one meaning.
function relativeError(a, b) {
  assert.equal(a.length, b.length);
  let difference = 0;
  let scale = 0;
  for (let i = 0; i < a.length; ++i) {
    difference = Math.max(difference, Math.abs(a[i] - b[i]));
    scale = Math.max(scale, Math.abs(b[i]));
  }
  return difference / scale;
}

const floats = (path) => {
  const bytes = readFileSync(path);
  return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
};

// Python's side of a list of cases: logits, and with targets one AdamW step (torch_export_check.py).
function pythonRun(cases) {
  const job = join(work, `job-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(job, JSON.stringify(cases));
  return JSON.parse(run(python, [checkScript, torchDir, job]));
}

const sequence = (count, modulus, a, b) => Array.from({ length: count }, (_, i) => (i * a + b) % modulus);

test('the exported module equals the C++ model for every scheme: logits and one AdamW step (<= 1e-5 relative)', () => {
  const C = 24;
  const schemes = [
    { positions: 'learned' },
    { positions: 'learned', causal: false },
    { positions: 'learned', embeddingScale: Math.sqrt(C) },
    { positions: 'sinusoidal', embeddingScale: Math.sqrt(C) },
    { positions: 'sinusoidal' },
    { positions: 'rope', ropeLayout: 'interleaved' },
    { positions: 'rope', ropeLayout: 'rotate_half', ropeBase: 500 },
    // Every RoPE scaling (T = 12, head size 12): dynamic past its L0 = 8; YaRN with base 100 so its ramp spans
    // several pairs; Llama 3 with all three bands.
    { positions: 'rope', ropeScaling: { type: 'linear', factor: 4 } },
    { positions: 'rope', ropeScaling: { type: 'ntk', factor: 4 } },
    { positions: 'rope', ropeScaling: { type: 'dynamic', factor: 2, originalContextLength: 8 } },
    { positions: 'rope', ropeBase: 100, ropeScaling: { type: 'yarn', factor: 4, originalContextLength: 64 } },
    {
      positions: 'rope',
      ropeLayout: 'rotate_half',
      ropeScaling: {
        type: 'yarn',
        factor: 8,
        originalContextLength: 32,
        betaFast: 8,
        attentionFactor: 1.25,
        truncate: false,
      },
    },
    { positions: 'rope', ropeScaling: { type: 'llama3', factor: 8, originalContextLength: 64 } },
    { positions: 'alibi', heads: 4 },
    { positions: 'alibi', heads: 3 }, // Press et al.'s rule for H not a power of two
    { positions: 'alibi', heads: 6, causal: false },
    // T5's bias (T = 12): causal offsets 0-3 exact, 4-6 log-spaced, 7-11 in the last bucket; bidirectional by sign.
    { positions: 't5', t5NumBuckets: 8, t5MaxDistance: 8 },
    { positions: 't5', heads: 3, causal: false, t5NumBuckets: 10, t5MaxDistance: 6 },
    { positions: 't5', heads: 4 },
    { positions: 'none' },
    { positions: 'none', causal: false },
  ];
  const [B, T, V] = [2, 12, 50];
  const ids = sequence(B * T, V, 37, 5);
  const targets = sequence(B * T, V, 11, 3);
  targets[5] = -1; // ignored, as in the C++ loss
  const cases = [];
  const expected = schemes.map((scheme, n) => {
    const model = lab.createModel({
      vocabSize: V,
      contextLength: 16,
      channels: C,
      layers: 2,
      heads: 2,
      seed: n + 1,
      ...scheme,
      optimizer: { learningRate: 1e-2 },
    });
    // A few steps first, so biases, LayerNorms and the optimizer's moments are not at their init.
    for (let s = 0; s < 3; ++s) {
      model.trainStep({
        ids: sequence(B * T, V, 7 + s, s),
        targets: sequence(B * T, V, 5, 2 * s),
        batch: B,
        length: T,
      });
    }
    const checkpoint = join(work, `scheme${n}.safetensors`);
    writeFileSync(checkpoint, model.save());
    cases.push({ checkpoint, ids, targets, batch: B, length: T, out: join(work, `scheme${n}`) });
    const logits = model.logits({ ids, batch: B, length: T });
    const step = model.trainStep({ ids, targets, batch: B, length: T });
    const stepLogits = model.logits({ ids, batch: B, length: T });
    model.dispose();
    return { logits, step, stepLogits };
  });
  const results = pythonRun(cases);
  schemes.forEach((scheme, n) => {
    const what = JSON.stringify(scheme);
    const { logits, step, stepLogits } = expected[n];
    const py = results[n];
    assert.ok(relativeError(floats(cases[n].out + '.logits'), logits) <= 1e-5, `${what}: logits`);
    assert.equal(py.step, 3, `${what}: the loaded optimizer step`);
    assert.ok(Math.abs(py.loss - step.loss) <= 1e-5 * Math.abs(step.loss), `${what}: loss ${py.loss} vs ${step.loss}`);
    assert.ok(Math.abs(py.gradient_norm - step.gradientNorm) <= 1e-5 * step.gradientNorm, `${what}: gradient norm`);
    assert.equal(py.step_after, step.step, `${what}: step counter`);
    assert.ok(relativeError(floats(cases[n].out + '.step_logits'), stepLogits) <= 1e-5, `${what}: logits after a step`);
  });
});

const stepLines = (out) =>
  [...out.matchAll(/^step (\d+) loss (\S+) gradient_norm (\S+)$/gm)].map((m) => ({
    step: Number(m[1]),
    loss: Number(m[2]),
    gradientNorm: Number(m[3]),
  }));
const trainPy = (dir, args) => stepLines(run(python, [join(dir, 'train.py'), ...args]));

// train.py started the way torchrun starts it (RANK, WORLD_SIZE, ... set), two processes on 127.0.0.1. torchrun
// itself fails on Debian's Python 3.11, so the test sets what it would.
async function trainPyAsTorchrun(dir, args) {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = String(server.address().port);
  server.close();
  const ranks = [0, 1].map(async (rank) => {
    const env = { ...process.env, RANK: `${rank}`, LOCAL_RANK: `${rank}`, WORLD_SIZE: '2', LOCAL_WORLD_SIZE: '2' };
    const child = spawn(python, [join(dir, 'train.py'), ...args], {
      env: { ...env, MASTER_ADDR: '127.0.0.1', MASTER_PORT: port },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (data) => (out += data));
    child.stderr.on('data', (data) => (err += data));
    const [code] = await once(child, 'close');
    assert.equal(code, 0, `rank ${rank}: ${err}`);
    return out;
  });
  return stepLines((await Promise.all(ranks))[0]);
}

test('2 DDP processes x 10 steps (built-in launcher, or started as torchrun does) == 1 process, same global batch', async () => {
  const model = lab.createModel({
    vocabSize: 64,
    contextLength: 16,
    channels: 16,
    heads: 2,
    positions: 'learned',
    seed: 9,
  });
  model.trainStep({ ids: sequence(32, 64, 3, 1), targets: sequence(32, 64, 5, 2), batch: 2, length: 16 });
  const init = join(work, 'ddp-init.safetensors');
  writeFileSync(init, model.save());
  model.dispose();
  const data = join(work, 'ddp.bin');
  writeFileSync(data, new Uint8Array(Uint32Array.from(sequence(4000, 64, 2654435761, 17)).buffer));
  // The default learning rate: the key biases have a zero true gradient (softmax ignores a constant added to a
  // row of scores), so Adam's normalized step on their rounding noise is the one place the runs differ, by ~lr/1000.
  const common = ['--data', data, '--init', init, '--steps', '10', '--batch', '4', '--length', '16', '--seed', '5'];
  const one = trainPy(torchDir, [...common, '--processes', '1', '--out', join(work, 'one.safetensors')]);
  const two = trainPy(torchDir, [...common, '--processes', '2', '--out', join(work, 'two.safetensors')]);
  assert.deepEqual(
    one.map((s) => s.step),
    Array.from({ length: 10 }, (_, i) => i + 2),
  );
  assert.deepEqual(
    two.map((s) => s.step),
    one.map((s) => s.step),
  );
  one.forEach((s, i) =>
    assert.ok(Math.abs(s.loss - two[i].loss) <= 1e-5, `step ${s.step}: ${s.loss} vs ${two[i].loss}`),
  );
  assert.ok(one[9].loss < one[0].loss, 'the loss falls');
  const torchrun = await trainPyAsTorchrun(torchDir, [...common, '--out', join(work, 'torchrun.safetensors')]);
  assert.deepEqual(
    torchrun.map((s) => s.loss),
    two.map((s) => s.loss),
  );
  const a = readSafetensors(join(work, 'one.safetensors'));
  const b = readSafetensors(join(work, 'two.safetensors'));
  assert.deepEqual(b.metadata, a.metadata);
  assert.equal(a.metadata.adamw_step, '11');
  assert.deepEqual(Object.keys(b.tensors), Object.keys(a.tensors));
  for (const [name, values] of Object.entries(a.tensors)) {
    const other = b.tensors[name];
    const difference = values.reduce((max, v, i) => Math.max(max, Math.abs(v - other[i])), 0);
    assert.ok(difference <= 1e-5, `${name}: max difference ${difference}`);
  }
});

test('page -> export-torch -> train.py with 2 processes -> lab.loadModel: same logits, step start + N, training goes on', () => {
  const config = {
    vocabSize: 50257, // the gpt2 encoding's ids
    contextLength: 32,
    channels: 16,
    heads: 2,
    positions: 'sinusoidal',
    embeddingScale: 4,
    seed: 3,
    optimizer: { learningRate: 3e-3 },
  };
  const page = lab.createModel(config);
  const warm = sequence(64, 50257, 7919, 11);
  for (let s = 0; s < 3; ++s) {
    page.trainStep({ ids: warm.slice(0, 32), targets: warm.slice(32), batch: 2, length: 16 });
  }
  const saved = join(work, 'page.safetensors');
  writeFileSync(saved, page.save());
  const pageConfig = page.config;
  page.dispose();

  const dir = join(work, 'exported');
  run('node', [cli, 'export-torch', saved, '-o', dir]);
  const animals = ['fox', 'dog', 'cat', 'heron', 'otter', 'lynx', 'crow'];
  const corpus = Array.from(
    { length: 300 },
    (_, i) => `Line ${i}: the ${animals[i % 7]} jumps over ${(i * 37) % 101} fences, then rests.\n`,
  ).join('');
  writeFileSync(join(work, 'corpus.txt'), corpus);
  const data = join(work, 'corpus.bin');
  writeFileSync(
    data,
    run('node', [cli, 'tokenize', '--format', 'bin', '--encoding', 'gpt2', join(work, 'corpus.txt')], {
      encoding: 'buffer',
    }),
  );

  const out = join(work, 'trained.safetensors');
  const steps = trainPy(dir, [
    '--data',
    data,
    '--steps',
    '6',
    '--batch',
    '4',
    '--length',
    '24',
    '--processes',
    '2',
    '--out',
    out,
  ]);
  assert.deepEqual(
    steps.map((s) => s.step),
    [4, 5, 6, 7, 8, 9],
  );

  const model = lab.loadModel(readFileSync(out));
  assert.equal(model.step, 3 + 6);
  assert.deepEqual(model.config, pageConfig);
  const [B, T] = [2, 24];
  const ids = sequence(B * T, 50257, 104729, 3);
  const targets = sequence(B * T, 50257, 15485863, 8);
  const [py] = pythonRun([{ checkpoint: out, ids, targets, batch: B, length: T, out: join(work, 'trained') }]);
  assert.ok(relativeError(floats(join(work, 'trained.logits')), model.logits({ ids, batch: B, length: T })) <= 1e-5);
  // The browser goes on from PyTorch's moments and step: its next step is the one PyTorch would take.
  const next = model.trainStep({ ids, targets, batch: B, length: T });
  assert.equal(next.step, 10);
  assert.equal(py.step_after, 10);
  assert.ok(Math.abs(next.loss - py.loss) <= 1e-5 * py.loss, `loss ${next.loss} vs ${py.loss}`);
  assert.ok(
    relativeError(floats(join(work, 'trained.step_logits')), model.logits({ ids, batch: B, length: T })) <= 1e-5,
  );
  model.dispose();
});

test('bad input: export-torch and train.py name the argument and what is allowed', () => {
  const notModel = join(work, 'not-a-model.safetensors');
  writeFileSync(notModel, 'hello, this is text');
  const exported = spawnSync('node', [cli, 'export-torch', notModel, '-o', join(work, 'bad')], { encoding: 'utf8' });
  assert.equal(exported.status, 1);
  assert.match(exported.stderr, /^embedlab export-torch: .*not a safetensors file/m);
  const missing = spawnSync('node', [cli, 'export-torch', notModel], { encoding: 'utf8' });
  assert.match(missing.stderr, /export-torch needs -o DIR/);

  const model = lab.createModel({ vocabSize: 64, contextLength: 8, channels: 8, heads: 2 });
  const init = join(work, 'small.safetensors');
  writeFileSync(init, model.save());
  model.dispose();
  const data = join(work, 'big-ids.bin');
  writeFileSync(data, new Uint8Array(Uint32Array.from({ length: 100 }, (_, i) => (i === 50 ? 64 : i % 64)).buffer));
  const train = (args) =>
    spawnSync(python, [join(torchDir, 'train.py'), '--data', data, '--init', init, '--out', join(work, 'x'), ...args], {
      encoding: 'utf8',
      timeout: 120_000,
    });
  const odd = train(['--steps', '1', '--batch', '3', '--processes', '2']);
  assert.equal(odd.status, 2);
  assert.match(odd.stderr, /--batch \(3\) must be a multiple of --processes \(2\)/);
  const long = train(['--steps', '1', '--length', '9']);
  assert.match(long.stderr, /--length must be in \[1, 8\] for learned positions/);
  const vocab = train(['--steps', '20', '--batch', '8', '--length', '8', '--processes', '2']); // both stop, none hangs
  assert.equal(vocab.status, 1);
  assert.match(vocab.stderr, /--data holds token id 64, the model's vocab_size is 64/);
});
