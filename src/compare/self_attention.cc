#include "compare/self_attention.h"

#include <algorithm>
#include <cmath>

#include "embed/token_embedding.h"
#include "errors/argument_checks.h"
#include "random/prng.h"
#include "simd/vector_kernels.h"

namespace embedlab {

SelfAttention::SelfAttention(int64_t dim, double seed, bool causal) : causal_(causal) {
  RequireInRange("dim", dim, 1, kMaxDim);
  const uint64_t checked_seed = RequireSeed("attention.seed", seed);
  dim_ = static_cast<size_t>(dim);
  const double stddev = 1.0 / std::sqrt(static_cast<double>(dim));
  for (auto* weights : {&query_t_, &key_t_, &value_t_}) weights->resize(dim_ * dim_);
  // One stream for all three matrices, in a fixed order, so a seed names one set of weights.
  Prng prng(checked_seed);
  for (auto* weights : {&query_t_, &key_t_, &value_t_}) {
    for (float& w : *weights) w = static_cast<float>(stddev * prng.NextNormal());
  }
}

void SelfAttention::Project(const std::vector<float>& weights_t, const float* x, size_t length, float* out) const {
  for (size_t t = 0; t < length; ++t) {
    for (size_t j = 0; j < dim_; ++j) {
      out[t * dim_ + j] = simd::Dot(x + t * dim_, weights_t.data() + j * dim_, dim_);
    }
  }
}

std::vector<float> SelfAttention::Weights(const float* x, size_t length) const {
  std::vector<float> queries(length * dim_), keys(length * dim_);
  Project(query_t_, x, length, queries.data());
  Project(key_t_, x, length, keys.data());
  const float scale = 1.0f / std::sqrt(static_cast<float>(dim_));
  std::vector<float> weights(length * length, 0.0f);
  for (size_t q = 0; q < length; ++q) {
    float* row = weights.data() + q * length;
    const size_t visible = causal_ ? q + 1 : length;
    float max_score = -INFINITY;
    for (size_t k = 0; k < visible; ++k) {
      row[k] = scale * simd::Dot(queries.data() + q * dim_, keys.data() + k * dim_, dim_);
      max_score = std::max(max_score, row[k]);
    }
    float total = 0.0f;
    for (size_t k = 0; k < visible; ++k) {
      row[k] = std::exp(row[k] - max_score);
      total += row[k];
    }
    for (size_t k = 0; k < visible; ++k) row[k] /= total;
  }
  return weights;
}

void SelfAttention::Forward(const float* x, size_t length, float* out) const {
  const std::vector<float> weights = Weights(x, length);
  std::vector<float> values(length * dim_);
  Project(value_t_, x, length, values.data());
  std::fill(out, out + length * dim_, 0.0f);
  for (size_t q = 0; q < length; ++q) {
    for (size_t k = 0; k < length; ++k) {
      const float w = weights[q * length + k];
      if (w != 0.0f) simd::ScaledAdd(w, values.data() + k * dim_, out + q * dim_, dim_);
    }
  }
}

}  // namespace embedlab
