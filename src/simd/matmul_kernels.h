// The GEMM behind the tiny GPT's linear layers and attention, written once with Highway: a register-blocked
// tile over packed panels of B. Natively each call dispatches to the best target of the CPU; in wasm the same
// code compiles for the single static target. Backward accumulates (+=) into its gradient outputs, as llm.c
// does, so a tensor used twice (the tied wte) collects both gradients.
#ifndef EMBEDLAB_SIMD_MATMUL_KERNELS_H_
#define EMBEDLAB_SIMD_MATMUL_KERNELS_H_

#include <cstddef>

namespace embedlab {
namespace simd {

// out[N x OC] = in[N x C] . weight[OC x C]^T + bias[OC]. weight has nn.Linear's (out, in) layout;
// bias may be null. out must not alias in or weight.
void MatmulForward(const float* in, const float* weight, const float* bias, float* out, size_t rows, size_t in_channels,
                   size_t out_channels);
// Given dout[N x OC]: dinp[N x C] += dout . weight, dweight[OC x C] += dout^T . in,
// dbias[OC] += column sums of dout. Any of dinp, dweight, dbias may be null to skip it.
void MatmulBackward(const float* dout, const float* in, const float* weight, float* dinp, float* dweight, float* dbias,
                    size_t rows, size_t in_channels, size_t out_channels);

// Causal attention works on lower-triangular T x T matrices; skipping their zero half halves its
// matmuls. kLowerOut: only out's lower triangle (j <= i) is wanted; tiles wholly above it are not
// written. kLowerA: A(i, k) = 0 for k > i, so row i's sum ends at k = i. kUpperA: A(i, k) = 0 for
// k < i, so it starts there. Skipped terms are exact zeros: the results are the same bits.
enum class Triangle { kNone, kLowerOut, kLowerA, kUpperA };

// out[M x N] (+)= A[M x K] . B[K x N], the core the two above share. A's element (i, k) is
// a[i * a_row_stride + k * a_col_stride], so A can be a strided slice or a transpose read in place
// (attention's per-head q, k and v); B is row-major, N floats per row; out's rows are out_stride apart.
// With accumulate the product is added to out.
void MatmulStrided(const float* a, size_t a_row_stride, size_t a_col_stride, const float* b, float* out,
                   size_t out_stride, size_t m, size_t k, size_t n, bool accumulate,
                   Triangle triangle = Triangle::kNone);

}  // namespace simd
}  // namespace embedlab

#endif  // EMBEDLAB_SIMD_MATMUL_KERNELS_H_
