// Fixed evaluation batches from a token stream: windows spread evenly over it, the same every time, so
// validation losses compare across steps and models (training draws random windows: corpus_batches.h).
#ifndef EMBEDLAB_TRAINING_EVALUATION_WINDOWS_H_
#define EMBEDLAB_TRAINING_EVALUATION_WINDOWS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace embedlab {

// Fills ids and targets (each batch x length): window b starts at b * stride, with stride
// (tokens - length - 1) / batch, and its targets are the next tokens. Throws std::out_of_range unless
// tokens holds at least length + 1 tokens and batch and length are in [1, kMaxSequenceLength].
// The same into ids and targets, resized to batch x length once the shape is checked (also within
// kMaxTensorFloats).
void EvenlySpacedWindows(const std::vector<int32_t>& tokens, int64_t batch, int64_t length, std::vector<int32_t>& ids,
                         std::vector<int32_t>& targets);
void EvenlySpacedWindows(const std::vector<int32_t>& tokens, size_t batch, size_t length, int32_t* ids,
                         int32_t* targets);

}  // namespace embedlab

#endif  // EMBEDLAB_TRAINING_EVALUATION_WINDOWS_H_
