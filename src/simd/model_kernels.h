// The tiny GPT's kernels besides matmul (simd/matmul_kernels.h), written once with Highway: softmax,
// layernorm, GELU and AdamW, each forward next to its backward. Natively each call dispatches to the best
// target of the CPU; in wasm the same code compiles for the single static target. Backward kernels
// accumulate (+=) into their gradient outputs, as llm.c does, so a tensor used twice (the tied wte) collects
// both gradients.
#ifndef EMBEDLAB_SIMD_MODEL_KERNELS_H_
#define EMBEDLAB_SIMD_MODEL_KERNELS_H_

#include <cstddef>

namespace embedlab {
namespace simd {

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
