#include "model/cross_entropy.h"

#include <algorithm>
#include <cmath>

#include "random/prng.h"
#include "simd/normalization_kernels.h"

namespace embedlab {

float CrossEntropyForward(const float* logits, const int32_t* targets, float* probs, size_t rows, size_t vocab,
                          size_t* counted) {
  double total = 0.0;
  size_t count = 0;
  for (size_t n = 0; n < rows; ++n) {
    simd::SoftmaxRow(logits + n * vocab, probs + n * vocab, vocab);
    if (targets == nullptr || targets[n] < 0) continue;
    // DeterministicLog, not libm: the loss must read the same natively and in wasm.
    // The floor keeps an underflowed probability at a finite loss (about 69) instead of log(0).
    // A NaN probability (NaN logits) must reach the loss, not be floored to a finite 69: the trainer
    // detects faults on the loss.
    const double prob = probs[n * vocab + static_cast<size_t>(targets[n])];
    if (std::isnan(prob)) {
      total = prob;
    } else {
      total -= DeterministicLog(prob > 1e-30 ? prob : 1e-30);
    }
    ++count;
  }
  *counted = count;
  return count > 0 ? static_cast<float>(total / static_cast<double>(count)) : 0.0f;
}

void CrossEntropyBackward(const float* probs, const int32_t* targets, float* dlogits, size_t rows, size_t vocab,
                          size_t counted) {
  const float inv_count = counted > 0 ? 1.0f / static_cast<float>(counted) : 0.0f;
  for (size_t n = 0; n < rows; ++n) {
    float* d = dlogits + n * vocab;
    if (counted == 0 || targets[n] < 0) {
      std::fill(d, d + vocab, 0.0f);
      continue;
    }
    const float* p = probs + n * vocab;
    for (size_t v = 0; v < vocab; ++v) d[v] = p[v] * inv_count;
    d[targets[n]] -= inv_count;
  }
}

}  // namespace embedlab
