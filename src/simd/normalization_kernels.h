// The tiny GPT's normalizations, written once with Highway: softmax over one row (attention weights, the
// loss's probabilities) and layernorm, its forward next to its backward. Natively each call dispatches to the
// best target of the CPU; in wasm the same code compiles for the single static target. Backward accumulates
// (+=) into its gradient outputs, as llm.c does.
#ifndef EMBEDLAB_SIMD_NORMALIZATION_KERNELS_H_
#define EMBEDLAB_SIMD_NORMALIZATION_KERNELS_H_

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

}  // namespace simd
}  // namespace embedlab

#endif  // EMBEDLAB_SIMD_NORMALIZATION_KERNELS_H_
