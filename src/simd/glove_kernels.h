// GloVe's AdaGrad step for one (word, context) pair, written once with Highway. Natively each call dispatches
// to the best target of the CPU; in wasm the same code compiles for the single static target.
#ifndef EMBEDLAB_SIMD_GLOVE_KERNELS_H_
#define EMBEDLAB_SIMD_GLOVE_KERNELS_H_

#include <cstddef>

namespace embedlab {
namespace simd {

// The vector part of glove.c's update for one co-occurrence, whose weighted error f(X) (w·c + b + b̃ − log X) is
// `weighted_error`. Component by component, from the values before the step:
//   gw = clamp(weighted_error · c, ±gradient_clip) · learning_rate   (glove.c's temp1)
//   gc = clamp(weighted_error · w, ±gradient_clip) · learning_rate   (temp2)
//   w −= gw / sqrt(word_gradsq);  c −= gc / sqrt(context_gradsq);  word_gradsq += gw²;  context_gradsq += gc².
// word and context are different rows (the word table and the context table), so they never alias.
void GloveAdaGradPair(float* word, float* context, float* word_gradsq, float* context_gradsq, size_t dim,
                      float weighted_error, float learning_rate, float gradient_clip);

}  // namespace simd
}  // namespace embedlab

#endif  // EMBEDLAB_SIMD_GLOVE_KERNELS_H_
