// The tiny GPT's MLP activation, written once with Highway: GELU, forward next to backward. Natively each
// call dispatches to the best target of the CPU; in wasm the same code compiles for the single static
// target.
#ifndef EMBEDLAB_SIMD_ACTIVATION_KERNELS_H_
#define EMBEDLAB_SIMD_ACTIVATION_KERNELS_H_

#include <cstddef>

namespace embedlab {
namespace simd {

// GPT-2's tanh approximation: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
// out may alias in.
void GeluForward(const float* in, float* out, size_t n);
// dinp[i] += gelu'(in[i]) * dout[i].
void GeluBackward(const float* in, const float* dout, float* dinp, size_t n);
// Training's pair, the same numbers as the two above: the forward also keeps tanh_inner[i], the tanh of in[i]'s
// GELU, and the backward reads it instead of computing it again (no aliasing between the arrays).
void GeluForwardKeep(const float* in, float* out, float* tanh_inner, size_t n);
void GeluBackwardKept(const float* in, const float* tanh_inner, const float* dout, float* dinp, size_t n);

}  // namespace simd
}  // namespace embedlab

#endif  // EMBEDLAB_SIMD_ACTIVATION_KERNELS_H_
