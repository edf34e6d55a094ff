// Kernel benchmark: Highway natively (every target this CPU has) and in wasm (SIMD128 and fallback), each
// against a plain scalar C++ loop on the same data, and against plain JS in this same node process.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { jsKernels, MATRIX_ROWS } from './kernel_js.mjs';
import { formatMicros, formatRatio, medianSeconds } from './timing.mjs';

const KERNELS = ['add', 'scaledAdd', 'dot', 'norm', 'cosine', 'cosineMatrix', 'sinCos'];
const VECTOR_SIZE = 4096;
const MATRIX_DIM = 256;
const sizeOf = (kernel) => (kernel === 'cosineMatrix' ? MATRIX_DIM : VECTOR_SIZE);
const path = (relative) => fileURLToPath(new URL(relative, import.meta.url));

async function loadWasmBench(flavour) {
  const file = path(`../../build/wasm/bench/kernel-bench-${flavour}.mjs`);
  const factory = (await import(file)).default;
  return factory({ wasmBinary: readFileSync(file.replace(/\.mjs$/, '.wasm')) });
}

function measureWasm(module, kernelIndex, implementation, size) {
  return medianSeconds({ repeat: (count) => module._bench_kernel_seconds(kernelIndex, implementation, size, count) });
}

function measureJs(kernel, size) {
  const count = kernel === 'cosineMatrix' ? size * MATRIX_ROWS : size;
  const a = Float32Array.from({ length: count }, (_, i) => Math.sin(i * 0.37) * 3);
  const b = Float32Array.from({ length: count }, (_, i) => Math.cos(i * 0.11));
  const out = new Float32Array(Math.max(2 * count, MATRIX_ROWS * MATRIX_ROWS));
  return medianSeconds({ once: () => jsKernels[kernel](a, b, out, size) });
}

export async function benchKernels() {
  const nativeLines = execFileSync(path('../../build/native/embedlab_kernel_bench'), [String(VECTOR_SIZE)], {
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  const simd = await loadWasmBench('simd');
  const fallback = await loadWasmBench('fallback');
  const bestTarget = nativeLines[0].target;

  const rows = KERNELS.map((kernel, index) => {
    const size = sizeOf(kernel);
    const native = nativeLines.find((line) => line.kernel === kernel && line.target === bestTarget);
    const wasmSimd = measureWasm(simd, index, 0, size);
    const wasmFallback = measureWasm(fallback, index, 0, size);
    const wasmScalar = measureWasm(simd, index, 1, size);
    const js = measureJs(kernel, size);
    return { kernel, size, native, wasmSimd, wasmFallback, wasmScalar, js };
  });

  const lines = [
    `Kernels, µs per call (median of 7 runs); vectors of ${VECTOR_SIZE} floats, cosineMatrix ${MATRIX_ROWS}×${MATRIX_ROWS} rows of ${MATRIX_DIM}.`,
    '',
    `| kernel | native ${bestTarget} | native scalar loop | wasm SIMD128 | wasm EMU128 | wasm scalar loop | plain JS | SIMD128 vs JS | SIMD128 vs wasm scalar |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.kernel} | ${formatMicros(r.native.highwaySeconds)} | ${formatMicros(r.native.scalarSeconds)} | ${formatMicros(r.wasmSimd)} | ` +
        `${formatMicros(r.wasmFallback)} | ${formatMicros(r.wasmScalar)} | ${formatMicros(r.js)} | ${formatRatio(r.js / r.wasmSimd)} | ` +
        `${formatRatio(r.wasmScalar / r.wasmSimd)} |`,
    ),
    '',
    'Native, every Highway target on this CPU: speed-up of the Highway kernel over the scalar loop.',
    '',
    `| kernel | ${[...new Set(nativeLines.map((l) => l.target))].join(' | ')} |`,
    `|---|${[...new Set(nativeLines.map((l) => l.target))].map(() => '---:').join('|')}|`,
    ...KERNELS.map((kernel) => {
      const cells = nativeLines
        .filter((l) => l.kernel === kernel)
        .map((l) => formatRatio(l.scalarSeconds / l.highwaySeconds));
      return `| ${kernel} | ${cells.join(' | ')} |`;
    }),
  ];
  return lines.join('\n');
}
