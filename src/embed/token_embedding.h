// The token embedding table: one trainable dim-vector per vocabulary id.
#ifndef EMBEDLAB_EMBED_TOKEN_EMBEDDING_H_
#define EMBEDLAB_EMBED_TOKEN_EMBEDDING_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace embedlab {

class TokenEmbedding {
 public:
  // Rows start as N(0, stddev) draws from the project PRNG; 0.02 is GPT-2's initialisation.
  // vocab_size in [1, kMaxVocabSize], dim in [1, kMaxDim], seed in [0, 2^53], stddev in [0, 100].
  TokenEmbedding(int64_t vocab_size, int64_t dim, double seed, double stddev = 0.02);

  size_t vocab_size() const { return vocab_size_; }
  size_t dim() const { return dim_; }
  const std::vector<float>& table() const { return table_; }

  // Throws std::out_of_range naming ids[index] when an id is outside [0, vocab_size).
  void CheckIds(const std::vector<int32_t>& ids) const;
  // Writes ids.size() x dim floats to out.
  void Lookup(const std::vector<int32_t>& ids, float* out) const;
  const float* Row(size_t id) const { return table_.data() + id * dim_; }

 private:
  size_t vocab_size_;
  size_t dim_;
  std::vector<float> table_;
};

// Fills a table with N(0, stddev) draws; shared by every trainable table so they initialise alike.
void FillNormal(std::vector<float>& values, double stddev, uint64_t seed);

}  // namespace embedlab

#endif  // EMBEDLAB_EMBED_TOKEN_EMBEDDING_H_
