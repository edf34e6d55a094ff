// The optimizer step, written once with Highway. Natively each call dispatches to the best target of the
// CPU; in wasm the same code compiles for the single static target.
#ifndef EMBEDLAB_SIMD_OPTIMIZER_KERNELS_H_
#define EMBEDLAB_SIMD_OPTIMIZER_KERNELS_H_

#include <cstddef>

namespace embedlab {
namespace simd {

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

#endif  // EMBEDLAB_SIMD_OPTIMIZER_KERNELS_H_
