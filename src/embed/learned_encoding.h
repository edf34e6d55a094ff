// Learned absolute positions (GPT): one trainable vector per position, N(0, stddev) at the start.
#ifndef EMBEDLAB_EMBED_LEARNED_ENCODING_H_
#define EMBEDLAB_EMBED_LEARNED_ENCODING_H_

#include <vector>

#include "embed/positional_encoding.h"

namespace embedlab {

class LearnedEncoding : public PositionalEncoding {
 public:
  LearnedEncoding(int64_t max_length, int64_t dim, double seed, double stddev = 0.02);
  PositionKind kind() const override { return PositionKind::kLearned; }

  // Replaces the vector of one position; values must hold exactly dim floats, all finite.
  void SetRow(int64_t position, const std::vector<float>& values);
  const std::vector<float>& table() const { return table_; }

 private:
  void WriteRows(size_t offset, size_t length, float* out) const override;
  std::vector<float> table_;
};

}  // namespace embedlab

#endif  // EMBEDLAB_EMBED_LEARNED_ENCODING_H_
