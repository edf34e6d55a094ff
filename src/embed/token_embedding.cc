#include "embed/token_embedding.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "errors/argument_checks.h"
#include "random/prng.h"

namespace embedlab {

void FillNormal(std::vector<float>& values, double stddev, uint64_t seed) {
  Prng prng(seed);
  for (float& value : values) value = static_cast<float>(stddev * prng.NextNormal());
}

TokenEmbedding::TokenEmbedding(int64_t vocab_size, int64_t dim, double seed, double stddev) {
  RequireInRange("vocabSize", vocab_size, 1, kMaxVocabSize);
  RequireInRange("dim", dim, 1, kMaxDim);
  RequireTensorSize("the token embedding table (vocabSize x dim)", vocab_size, dim);
  const uint64_t checked_seed = RequireSeed("seed", seed);
  RequireFiniteInRange("stddev", stddev, 0.0, 100.0);
  vocab_size_ = static_cast<size_t>(vocab_size);
  dim_ = static_cast<size_t>(dim);
  table_.resize(vocab_size_ * dim_);
  FillNormal(table_, stddev, checked_seed);
}

void TokenEmbedding::CheckIds(const std::vector<int32_t>& ids) const {
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < 0 || static_cast<size_t>(ids[i]) >= vocab_size_) {
      throw std::out_of_range("ids[" + std::to_string(i) + "] must be in [0, " + std::to_string(vocab_size_ - 1) +
                              "] (vocabSize " + std::to_string(vocab_size_) + "), got " + std::to_string(ids[i]));
    }
  }
}

void TokenEmbedding::Lookup(const std::vector<int32_t>& ids, float* out) const {
  CheckIds(ids);
  for (size_t t = 0; t < ids.size(); ++t) {
    const float* row = Row(static_cast<size_t>(ids[t]));
    std::copy(row, row + dim_, out + t * dim_);
  }
}

}  // namespace embedlab
