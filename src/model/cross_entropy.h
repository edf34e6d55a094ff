// Softmax cross-entropy over the vocabulary, forward and backward.
#ifndef EMBEDLAB_MODEL_CROSS_ENTROPY_H_
#define EMBEDLAB_MODEL_CROSS_ENTROPY_H_

#include <cstddef>
#include <cstdint>

namespace embedlab {

// probs (N, V) = softmax(logits (N, V)). Returns the mean of -log probs[n, targets[n]] over the rows
// whose target is >= 0 (a target of -1 is ignored, as PyTorch's ignore_index), and their count in
// *counted. 0 when no row counts.
float CrossEntropyForward(const float* logits, const int32_t* targets, float* probs, size_t rows, size_t vocab,
                          size_t* counted);
// dlogits (N, V) = (probs - onehot(target)) / counted for rows with a target, 0 for the others: written, not
// added, so the caller need not clear it first.
void CrossEntropyBackward(const float* probs, const int32_t* targets, float* dlogits, size_t rows, size_t vocab,
                          size_t counted);

}  // namespace embedlab

#endif  // EMBEDLAB_MODEL_CROSS_ENTROPY_H_
