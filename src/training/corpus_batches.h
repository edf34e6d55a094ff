// Training batches from a token stream: each row is a random window of length + 1 tokens, split into
// ids (the first length) and targets (the next-token shift). Deterministic for a seed.
#ifndef EMBEDLAB_TRAINING_CORPUS_BATCHES_H_
#define EMBEDLAB_TRAINING_CORPUS_BATCHES_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "random/prng.h"

namespace embedlab {

class CorpusBatches {
 public:
  // Throws std::out_of_range unless batch and length are in [1, kMaxSequenceLength], batch x length within
  // kMaxTensorFloats, and tokens holds at least length + 1 tokens.
  CorpusBatches(std::vector<int32_t> tokens, size_t batch, size_t length, uint64_t seed);
  // Fills ids and targets, each batch x length.
  void Next(int32_t* ids, int32_t* targets);
  size_t batch() const { return batch_; }
  size_t length() const { return length_; }

 private:
  std::vector<int32_t> tokens_;
  size_t batch_, length_;
  Prng prng_;
};

// Byte-level tokens (vocabulary 256), until a trained BPE vocabulary is plugged in.
std::vector<int32_t> BytesAsTokens(const std::string& text);

}  // namespace embedlab

#endif  // EMBEDLAB_TRAINING_CORPUS_BATCHES_H_
