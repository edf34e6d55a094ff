// The tiny GPT's kernels, written once with Highway: matmul, softmax, layernorm, GELU and AdamW, each
// forward next to its backward. Natively each call dispatches to the best target of the CPU; in wasm
// the same code compiles for the single static target. Backward kernels accumulate (+=) into their
// gradient outputs, as llm.c does, so a tensor used twice (the tied wte) collects both gradients.
#ifndef EMBEDLAB_SIMD_MODEL_KERNELS_H_
#define EMBEDLAB_SIMD_MODEL_KERNELS_H_

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

// out[i] = exp(in[i] - max) / sum_j exp(in[j] - max) over one row of n >= 1 values. out may alias in.
void SoftmaxRow(const float* in, float* out, size_t n);

// Per row of C: out = (in - mean) * rstd * weight + bias, rstd = 1 / sqrt(var + 1e-5) (biased
// variance, as PyTorch). mean and rstd (one per row) are kept for the backward pass.
void LayerNormForward(const float* in, const float* weight, const float* bias, float* out, float* mean, float* rstd,
                      size_t rows, size_t channels);
// dinp += d/din, dweight += sum_rows dout * xhat, dbias += sum_rows dout.
void LayerNormBackward(const float* dout, const float* in, const float* weight, const float* mean, const float* rstd,
                       float* dinp, float* dweight, float* dbias, size_t rows, size_t channels);

// GPT-2's tanh approximation: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
void GeluForward(const float* in, float* out, size_t n);
// dinp[i] += gelu'(in[i]) * dout[i].
void GeluBackward(const float* in, const float* dout, float* dinp, size_t n);

// One AdamW step in PyTorch's order (torch.optim.AdamW, non-fused):
//   p *= 1 - lr wd;  m = b1 m + (1 - b1) g;  v = b2 v + (1 - b2) g^2;
//   p -= (lr / bias_correction1) * m / (sqrt(v) / sqrt(bias_correction2) + eps),
// with bias_correction_k = 1 - beta_k^step supplied by the caller.
struct AdamWSettings {
  float learning_rate;
  float beta1;
  float beta2;
  float eps;
  float weight_decay;
  float bias_correction1;
  float bias_correction2;
};
void AdamWUpdate(float* params, const float* grads, float* m, float* v, size_t n, const AdamWSettings& settings);

}  // namespace simd
}  // namespace embedlab

#endif  // EMBEDLAB_SIMD_MODEL_KERNELS_H_
