// Model benchmark: the tiny GPT's matmuls at its own shapes, natively (every Highway target), in wasm
// (SIMD128 and EMU128) and in @tensorflow/tfjs-backend-wasm (XNNPACK, one thread) in this same node
// process; then training steps of the benchmark's model and the page's two most trained models, natively and in wasm.
//
// The machine is shared, so wall time would count the time spent waiting for a core. The native binary
// measures its CPU time (one thread). Here each run takes min(wall time, process CPU time): both bound
// the main thread's own time from above, wall time by waiting, CPU time by V8's helper threads (GC,
// which tfjs's tensor objects keep busy). Every ratio compares measurements taken in alternating rounds
// (A, B, A, B, ...), each side the median of its rounds.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import * as tf from '@tensorflow/tfjs-core';
import { setThreadsCount } from '@tensorflow/tfjs-backend-wasm';

import { median, RUNS } from './timing.mjs';

// [rows, inChannels, outChannels] of the model's linear layers for B*T = 8 x 64 tokens, C = 64, V = 256.
// perStep: how often a training step runs the shape, forward and backward (2 layers; c_fc and the head).
const SHAPES = [
  { layer: 'attn.c_attn', shape: [512, 64, 192], perStep: 2 },
  { layer: 'attn.c_proj', shape: [512, 64, 64], perStep: 2 },
  { layer: 'mlp.c_fc, lm head (V=256)', shape: [512, 64, 256], perStep: 3 },
  { layer: 'mlp.c_proj', shape: [512, 256, 64], perStep: 2 },
];
const TRAINING_CONFIG = 'V=256, T=64, C=64, L=2 layers, H=4 heads, learned positions, batch 8 (512 tokens/step), AdamW';
const TRAINING_ROUNDS = 7;

const path = (relative) => fileURLToPath(new URL(relative, import.meta.url));
// EMBEDLAB_BENCH_NATIVE / EMBEDLAB_BENCH_WASM point at other build folders (e.g. a private perf build).
const nativeDir = process.env.EMBEDLAB_BENCH_NATIVE ?? path('../../build/native');
const wasmBenchDir = process.env.EMBEDLAB_BENCH_WASM ?? path('../../build/wasm/bench');
const flops = ([rows, inChannels, outChannels]) => 2 * rows * inChannels * outChannels;
const gflops = (work, seconds) => (work / seconds / 1e9).toFixed(1);

async function loadWasmBench(flavour) {
  const file = `${wasmBenchDir}/model-bench-${flavour}.mjs`;
  const factory = (await import(file)).default;
  return factory({ wasmBinary: readFileSync(file.replace(/\.mjs$/, '.wasm')) });
}

function runNative(args) {
  return execFileSync(`${nativeDir}/embedlab_model_bench`, args, { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

// Seconds per call of run(count), a function that makes `count` calls: min(wall, process CPU time).
function secondsPerCall(run, count) {
  const cpuStart = process.cpuUsage(),
    wallStart = performance.now();
  run(count);
  const wall = (performance.now() - wallStart) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  return Math.min(wall, (cpu.user + cpu.system) / 1e6) / count;
}

// Calls per timed run so one run takes >= 20 ms; repeat(count) returns seconds per call.
function calibrate(repeat) {
  let count = 1;
  while (repeat(count) * count < 0.02 && count < 1 << 20) {
    count *= 2;
  }
  return count;
}

// Median seconds per call of each contender, measured in alternating rounds.
function interleavedMedians(contenders) {
  const counts = contenders.map((repeat) => calibrate(repeat));
  const seconds = contenders.map(() => []);
  for (let run = 0; run < RUNS; run++) {
    contenders.forEach((repeat, i) => seconds[i].push(repeat(counts[i])));
  }
  return seconds.map(median);
}

async function initTfjsWasm() {
  setThreadsCount(1);
  await tf.setBackend('wasm');
  await tf.ready();
  if (tf.getBackend() !== 'wasm') {
    throw new Error(`tfjs backend is ${tf.getBackend()}, not wasm`);
  }
}

// The same work as MatmulForward / MatmulBackward in tfjs, in the layout tfjs-wasm is fast at: its
// matMul with transposeA/transposeB leaves XNNPACK for a loop ~6x slower, so the weight is kept as
// W^T [in x out] and the backward transposes explicitly (as our kernels do inside). Forward = in . W^T + b
// (one fused op); backward = dinp (dout . W), dW^T (in^T . dout) and db (column sums of dout).
function tfjsMatmul([rows, inChannels, outChannels], backward) {
  const random = (shape) => tf.randomNormal(shape, 0, 1, 'float32', 1);
  const input = random([rows, inChannels]),
    weightT = random([inChannels, outChannels]);
  const bias = random([outChannels]),
    dout = random([rows, outChannels]);
  const once = backward
    ? () =>
        tf.tidy(() => [tf.matMul(dout, tf.transpose(weightT)), tf.matMul(tf.transpose(input), dout), tf.sum(dout, 0)])
    : () => [tf.fused.matMul({ a: input, b: weightT, bias })];
  const run = (count) => {
    let outputs = [];
    for (let i = 0; i < count; i++) {
      tf.dispose(outputs);
      outputs = once();
    }
    outputs.forEach((t) => t.dataSync()); // the wasm backend runs eagerly; this only proves the work is done
    tf.dispose(outputs);
  };
  const repeat = (count) => secondsPerCall(run, count);
  repeat(3); // warm up (XNNPACK operator creation, memory growth)
  return { repeat, dispose: () => tf.dispose([input, weightT, bias, dout]) };
}

// Times the shape of the module's last _bench_matmul_prepare.
function wasmMatmul(module, backward) {
  return (count) => secondsPerCall((n) => module._bench_matmul_run(backward ? 1 : 0, n), count);
}

// Returns the table and, per build, the seconds a training step spends in these matmuls (`perStep`).
async function benchMatmuls(simd, fallback) {
  const native = runNative(SHAPES.map(({ shape }) => shape.join('x')));
  const targets = [...new Set(native.map((line) => line.target))];
  const rows = [];
  const stepSeconds = {};
  const addStep = (build, seconds, perStep) => (stepSeconds[build] = (stepSeconds[build] ?? 0) + seconds * perStep);
  for (const { layer, shape, perStep } of SHAPES) {
    for (const backward of [false, true]) {
      const work = (backward ? 2 : 1) * flops(shape);
      const tfjs = tfjsMatmul(shape, backward);
      simd._bench_matmul_prepare(...shape);
      fallback._bench_matmul_prepare(...shape);
      const [wasmSimd, tfjsSeconds] = interleavedMedians([wasmMatmul(simd, backward), tfjs.repeat]);
      tfjs.dispose();
      const [wasmFallback] = interleavedMedians([wasmMatmul(fallback, backward)]);
      addStep('wasm SIMD128', wasmSimd, perStep);
      addStep('wasm EMU128 (fallback)', wasmFallback, perStep);
      const nativeCells = targets.map((target) => {
        const line = native.find((l) => l.target === target && l.shape === shape.join('x'));
        const seconds = backward ? line.backwardSeconds : line.forwardSeconds;
        addStep(`native ${target}`, seconds, perStep);
        return gflops(work, seconds);
      });
      rows.push(
        `| ${layer} | ${shape[0]}×${shape[1]} · ${shape[1]}×${shape[2]} | ${backward ? 'backward' : 'forward'} | ` +
          `${nativeCells.join(' | ')} | ${gflops(work, wasmSimd)} | ${gflops(work, wasmFallback)} | ` +
          `${gflops(work, tfjsSeconds)} | ${(tfjsSeconds / wasmSimd).toFixed(2)}× |`,
      );
    }
  }
  const table = [
    'Matmul GFLOP/s (higher is better; median of 7 runs; timing note below the tables). Forward: out = in · Wᵀ + b. Backward: dinp = dout · W, ' +
      'dW = doutᵀ · in, db = Σ dout (2× the forward FLOPs). tfjs-wasm: @tensorflow/tfjs-backend-wasm ' +
      '(XNNPACK, SIMD, 1 thread) on the same shapes in this node process, forward as one fused matMul + bias on a ' +
      'pre-transposed weight, backward with explicit transposes (its transposeA/B flags are ~6× slower); ' +
      'SIMD128 and tfjs measured in alternating rounds.',
    '',
    `| layer | shape | pass | ${targets.map((t) => `native ${t}`).join(' | ')} | wasm SIMD128 | wasm EMU128 | tfjs-wasm | SIMD128 / tfjs |`,
    `|---|---|---|${targets.map(() => '---:').join('|')}|---:|---:|---:|---:|`,
    ...rows,
  ].join('\n');
  return { table, stepSeconds };
}

// The configs of model_bench.cc's kTrainingConfigs, in its order (the index is bench_training_prepare's argument).
const TRAINING_CONFIGS = [
  { name: 'bench', text: TRAINING_CONFIG },
  {
    name: 'arms',
    text: "section 2's arms: V=1024, T=32, C=32, L=2, H=4, learned positions, batch 8 (256 tokens/step)",
  },
  { name: 'race', text: "section 7's race: V=512, T=32, C=32, L=2, H=4, RoPE, batch 16 (512 tokens/step)" },
];

// Native training runs in a child process per round, alternating with the wasm rounds in this process: the best
// target, AVX2 and SSE4 (128-bit like SIMD128, no FMA: the like-for-like comparison), then the two wasm builds.
function benchTraining(simd, fallback, matmulStepSeconds, { name, text }, index) {
  const perTarget = runNative(['--training', `--config=${name}`]);
  const best = perTarget[0].target;
  const alternating = [...new Set([best, 'AVX2', 'SSE4'])].filter((t) => perTarget.some((l) => l.target === t));
  const wasmStep = (module) => {
    module._bench_training_prepare(index, 3);
    const tokens = module._bench_training_tokens_per_step();
    // Steps per timed run: enough for >= 40 ms (a few steps alone read the timer's and the GC's noise).
    const steps = Math.max(2, Math.ceil(0.04 / secondsPerCall((n) => module._bench_training_run(n), 2)));
    return { tokens, seconds: () => secondsPerCall((n) => module._bench_training_run(n), steps) };
  };
  const simdStep = wasmStep(simd),
    fallbackStep = wasmStep(fallback);
  const rounds = { simd: [], fallback: [] };
  for (const target of alternating) {
    rounds[target] = [];
  }
  for (let round = 0; round < TRAINING_ROUNDS; round++) {
    for (const target of alternating) {
      rounds[target].push(
        runNative(['--training', `--config=${name}`, `--target=${target}`])[0].trainingSecondsPerStep,
      );
    }
    rounds.simd.push(simdStep.seconds());
    rounds.fallback.push(fallbackStep.seconds());
  }
  const seconds = Object.fromEntries(Object.entries(rounds).map(([key, values]) => [key, median(values)]));
  const sse4 = seconds.SSE4 ?? perTarget.find((l) => l.target === 'SSE4')?.trainingSecondsPerStep;
  const matmulColumn = name === 'bench';
  const row = (build, s) =>
    `| ${build} | ${(s * 1e3).toFixed(2)} | ${Math.round(simdStep.tokens / s)} | ` +
    `${(seconds[best] / s).toFixed(2)}× | ${sse4 ? `${(sse4 / s).toFixed(2)}×` : '–'} |` +
    (matmulColumn ? ` ${(matmulStepSeconds[build] * 1e3).toFixed(1)} |` : '');
  return [
    `Training steps of ${text}; forward, backward and the optimizer step, one thread. ` +
      `Native ${alternating.join(', ')}, wasm SIMD128 and EMU128 alternate over ${TRAINING_ROUNDS} rounds (median); ` +
      'other native targets come from one earlier pass.' +
      (matmulColumn
        ? " Last column: the time a step spends in the linear layers' matmuls (forward and backward), summed from " +
          'the matmul table: the part no non-matmul tuning can remove.'
        : ''),
    '',
    `| build | ms/step | tokens/s | vs native ${best} | vs native SSE4 |${matmulColumn ? ' linear-layer matmuls, ms/step |' : ''}`,
    `|---|---:|---:|---:|---:|${matmulColumn ? '---:|' : ''}`,
    ...alternating.map((t) => row(`native ${t}`, seconds[t])),
    ...perTarget
      .filter((l) => !alternating.includes(l.target))
      .map((l) => row(`native ${l.target}`, l.trainingSecondsPerStep)),
    row('wasm SIMD128', seconds.simd),
    row('wasm EMU128 (fallback)', seconds.fallback),
  ].join('\n');
}

export async function benchModel() {
  await initTfjsWasm();
  const simd = await loadWasmBench('simd');
  const fallback = await loadWasmBench('fallback');
  const matmuls = await benchMatmuls(simd, fallback);
  const timing =
    'Timing: the machine may be shared, so no wall-clock figure is used alone. The native binary reports the CPU ' +
    'time of its single thread; in node each run counts min(wall time, process CPU time), which bound the main ' +
    "thread's own time from above (wall time by waiting for a core, CPU time by V8's helper threads).";
  const training = TRAINING_CONFIGS.map((config, index) =>
    benchTraining(simd, fallback, matmuls.stepSeconds, config, index),
  );
  return [matmuls.table, ...training, timing].join('\n\n');
}
