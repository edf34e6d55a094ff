#include "training/corpus_batches.h"

#include <stdexcept>

#include "errors/argument_checks.h"

namespace embedlab {

CorpusBatches::CorpusBatches(std::vector<int32_t> tokens, size_t batch, size_t length, uint64_t seed)
    : tokens_(std::move(tokens)), batch_(batch), length_(length), prng_(seed) {
  RequireInRange("batch", static_cast<int64_t>(batch), 1, kMaxSequenceLength);
  RequireInRange("length", static_cast<int64_t>(length), 1, kMaxSequenceLength);
  RequireTensorSize("batch x length", static_cast<int64_t>(batch), static_cast<int64_t>(length));
  if (tokens_.size() < length + 1) {
    throw std::out_of_range("the corpus has " + std::to_string(tokens_.size()) + " tokens; a batch of length " +
                            std::to_string(length) + " needs at least " + std::to_string(length + 1));
  }
}

void CorpusBatches::Next(int32_t* ids, int32_t* targets) {
  const uint64_t starts = tokens_.size() - length_;  // windows [start, start + length] fit
  for (size_t b = 0; b < batch_; ++b) {
    // 53-bit uniform scaled to the range: no modulo bias worth measuring for any corpus size here.
    const size_t start = static_cast<size_t>(prng_.NextUniform() * static_cast<double>(starts));
    for (size_t t = 0; t < length_; ++t) {
      ids[b * length_ + t] = tokens_[start + t];
      targets[b * length_ + t] = tokens_[start + t + 1];
    }
  }
}

std::vector<int32_t> BytesAsTokens(const std::string& text) {
  std::vector<int32_t> tokens(text.size());
  for (size_t i = 0; i < text.size(); ++i) tokens[i] = static_cast<unsigned char>(text[i]);
  return tokens;
}

}  // namespace embedlab
