// Compares two token sequences the way the chapter does: the cosine matrix of their input vectors, the
// cosine of their mean-pooled vectors, and the same after one self-attention layer.
#ifndef EMBEDLAB_COMPARE_SENTENCE_COMPARISON_H_
#define EMBEDLAB_COMPARE_SENTENCE_COMPARISON_H_

#include <cstdint>
#include <vector>

#include "compare/self_attention.h"
#include "embed/positional_encoding.h"
#include "embed/token_embedding.h"

namespace embedlab {

struct SequenceComparison {
  size_t rows = 0;  // tokens in A
  size_t cols = 0;  // tokens in B
  size_t dim = 0;
  std::vector<float> input_similarity;  // rows x cols cosines of input vectors
  float pooled_input_cosine = 0.0f;
  // Filled only when attention was given.
  std::vector<float> attention_a, attention_b;  // rows x dim, cols x dim
  std::vector<float> attention_similarity;      // rows x cols
  float pooled_attention_cosine = 0.0f;
};

// Mean of length rows of dim floats.
std::vector<float> MeanPool(const float* vectors, size_t length, size_t dim);

// encoding and attention may be null. Both sequences start at position 0 and must be non-empty.
SequenceComparison CompareSequences(const std::vector<int32_t>& ids_a, const std::vector<int32_t>& ids_b,
                                    const TokenEmbedding& embedding, const PositionalEncoding* encoding,
                                    const SelfAttention* attention);

}  // namespace embedlab

#endif  // EMBEDLAB_COMPARE_SENTENCE_COMPARISON_H_
