// Kernel micro-benchmark: each Highway kernel against a plain scalar loop on the same data.
// Natively main() prints one JSON line per (target, kernel); in wasm, tests/bench/run.mjs calls
// bench_kernel_seconds() and times a JS implementation in the same process.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

#include "random/prng.h"
#include "simd/kernel_targets.h"
#include "simd/vector_kernels.h"

// The baseline is scalar on purpose: the build compiles this file with auto-vectorisation off
// (-fno-tree-vectorize / -fno-vectorize -fno-slp-vectorize); the Highway kernels live in the library.

namespace {

enum Kernel { kAdd, kScaledAdd, kDot, kNorm, kCosine, kCosineMatrix, kSinCos, kKernelCount };
const char* const kKernelNames[] = {"add", "scaledAdd", "dot", "norm", "cosine", "cosineMatrix", "sinCos"};
constexpr size_t kMatrixRows = 64;  // cosineMatrix: 64 x 64 rows of `size` floats

volatile float sink;

float ScalarDot(const float* a, const float* b, size_t n) {
  float sum = 0;
  for (size_t i = 0; i < n; ++i) sum += a[i] * b[i];
  return sum;
}

void RunScalar(Kernel kernel, const float* a, const float* b, float* out, size_t n) {
  switch (kernel) {
    case kAdd:
      for (size_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
      break;
    case kScaledAdd:
      for (size_t i = 0; i < n; ++i) out[i] += 0.5f * a[i];
      break;
    case kDot:
      sink = ScalarDot(a, b, n);
      break;
    case kNorm:
      sink = std::sqrt(ScalarDot(a, a, n));
      break;
    case kCosine:
      sink = ScalarDot(a, b, n) / (std::sqrt(ScalarDot(a, a, n)) * std::sqrt(ScalarDot(b, b, n)));
      break;
    case kCosineMatrix:
      for (size_t i = 0; i < kMatrixRows; ++i) {
        const float norm_a = std::sqrt(ScalarDot(a + i * n, a + i * n, n));
        for (size_t j = 0; j < kMatrixRows; ++j) {
          const float norm_b = std::sqrt(ScalarDot(b + j * n, b + j * n, n));
          out[i * kMatrixRows + j] = ScalarDot(a + i * n, b + j * n, n) / (norm_a * norm_b);
        }
      }
      break;
    case kSinCos:
      for (size_t i = 0; i < n; ++i) {
        out[2 * i] = std::sin(a[i]);
        out[2 * i + 1] = std::cos(a[i]);
      }
      break;
    default:
      break;
  }
}

void RunHighway(Kernel kernel, const float* a, const float* b, float* out, size_t n) {
  namespace simd = embedlab::simd;
  switch (kernel) {
    case kAdd:
      simd::Add(a, b, out, n);
      break;
    case kScaledAdd:
      simd::ScaledAdd(0.5f, a, out, n);
      break;
    case kDot:
      sink = simd::Dot(a, b, n);
      break;
    case kNorm:
      sink = simd::Norm(a, n);
      break;
    case kCosine:
      sink = simd::CosineSimilarity(a, b, n);
      break;
    case kCosineMatrix:
      simd::CosineSimilarityMatrix(a, kMatrixRows, b, kMatrixRows, n, out);
      break;
    case kSinCos:
      simd::SinCosInterleaved(a, n, out);
      break;
    default:
      break;
  }
}

}  // namespace

// Seconds per call of `kernel` (0..6, see kKernelNames) on `size` floats, averaged over `repetitions`
// calls; implementation 0 = Highway, 1 = scalar loop. Inputs are seeded normals in [-pi, pi].
extern "C" double bench_kernel_seconds(int kernel, int implementation, int size, int repetitions) {
  const size_t n = static_cast<size_t>(size);
  const size_t count = kernel == kCosineMatrix ? n * kMatrixRows : n;
  std::vector<float> a(count), b(count), out(std::max(2 * count, kMatrixRows * kMatrixRows));
  embedlab::Prng prng(1);
  for (size_t i = 0; i < count; ++i) {
    a[i] = static_cast<float>(std::fmod(prng.NextNormal(), 3.14159));
    b[i] = static_cast<float>(prng.NextNormal());
  }
  const auto start = std::chrono::steady_clock::now();
  for (int r = 0; r < repetitions; ++r) {
    if (implementation == 0) {
      RunHighway(static_cast<Kernel>(kernel), a.data(), b.data(), out.data(), n);
    } else {
      RunScalar(static_cast<Kernel>(kernel), a.data(), b.data(), out.data(), n);
    }
  }
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  sink = out[0];
  return elapsed.count() / repetitions;
}

#ifndef EMBEDLAB_BENCH_LIBRARY
// Median of 7 runs; repetitions chosen so one run takes ~20 ms.
double MedianSeconds(int kernel, int implementation, int size) {
  int repetitions = 1;
  while (bench_kernel_seconds(kernel, implementation, size, repetitions) * repetitions < 0.02 &&
         repetitions < (1 << 24)) {
    repetitions *= 2;
  }
  std::vector<double> runs;
  for (int i = 0; i < 7; ++i) runs.push_back(bench_kernel_seconds(kernel, implementation, size, repetitions));
  std::sort(runs.begin(), runs.end());
  return runs[3];
}

int main(int argc, char** argv) {
  const int size = argc > 1 ? std::atoi(argv[1]) : 4096;
  const int matrix_dim = 256;
  for (const auto& target : embedlab::simd::AvailableTargets()) {
    embedlab::simd::UseTarget(target.bits);
    for (int kernel = 0; kernel < kKernelCount; ++kernel) {
      const int n = kernel == kCosineMatrix ? matrix_dim : size;
      const double highway = MedianSeconds(kernel, 0, n);
      const double scalar = MedianSeconds(kernel, 1, n);
      std::printf("{\"target\":\"%s\",\"kernel\":\"%s\",\"size\":%d,\"highwaySeconds\":%.6e,\"scalarSeconds\":%.6e}\n",
                  target.name.c_str(), kKernelNames[kernel], n, highway, scalar);
      std::fflush(stdout);
    }
  }
  return 0;
}
#endif
