#include "compare/sentence_comparison.h"

#include <stdexcept>
#include <string>

#include "embed/composition.h"
#include "errors/argument_checks.h"
#include "simd/vector_kernels.h"

namespace embedlab {

std::vector<float> MeanPool(const float* vectors, size_t length, size_t dim) {
  std::vector<float> pooled(dim, 0.0f);
  for (size_t t = 0; t < length; ++t) simd::Add(pooled.data(), vectors + t * dim, pooled.data(), dim);
  if (length > 0) {
    for (float& value : pooled) value /= static_cast<float>(length);
  }
  return pooled;
}

namespace {

float PooledCosine(const std::vector<float>& a, size_t rows, const std::vector<float>& b, size_t cols, size_t dim) {
  const std::vector<float> pooled_a = MeanPool(a.data(), rows, dim);
  const std::vector<float> pooled_b = MeanPool(b.data(), cols, dim);
  return simd::CosineSimilarity(pooled_a.data(), pooled_b.data(), dim);
}

}  // namespace

SequenceComparison CompareSequences(const std::vector<int32_t>& ids_a, const std::vector<int32_t>& ids_b,
                                    const TokenEmbedding& embedding, const PositionalEncoding* encoding,
                                    const SelfAttention* attention) {
  RequireInRange("idsA.length", static_cast<int64_t>(ids_a.size()), 1, kMaxSequenceLength);
  RequireInRange("idsB.length", static_cast<int64_t>(ids_b.size()), 1, kMaxSequenceLength);
  if (attention != nullptr && attention->dim() != embedding.dim()) {
    throw std::out_of_range("attention.dim must equal embedding.dim (" + std::to_string(embedding.dim()) + "), got " +
                            std::to_string(attention->dim()));
  }
  const ComposedSequence a = Compose(ids_a, embedding, encoding, 0);
  const ComposedSequence b = Compose(ids_b, embedding, encoding, 0);

  SequenceComparison result;
  result.rows = a.length;
  result.cols = b.length;
  result.dim = a.dim;
  result.input_similarity.resize(result.rows * result.cols);
  simd::CosineSimilarityMatrix(a.input_vectors.data(), a.length, b.input_vectors.data(), b.length, a.dim,
                               result.input_similarity.data());
  result.pooled_input_cosine = PooledCosine(a.input_vectors, a.length, b.input_vectors, b.length, a.dim);

  if (attention != nullptr) {
    result.attention_a = attention->Forward(a.input_vectors.data(), a.length).outputs;
    result.attention_b = attention->Forward(b.input_vectors.data(), b.length).outputs;
    result.attention_similarity.resize(result.rows * result.cols);
    simd::CosineSimilarityMatrix(result.attention_a.data(), a.length, result.attention_b.data(), b.length, a.dim,
                                 result.attention_similarity.data());
    result.pooled_attention_cosine = PooledCosine(result.attention_a, a.length, result.attention_b, b.length, a.dim);
  }
  return result;
}

}  // namespace embedlab
