#include "compare/self_attention.h"

#include <cmath>

#include "errors/argument_checks.h"
#include "model/attention.h"
#include "random/prng.h"
#include "simd/matmul_kernels.h"

namespace embedlab {

SelfAttention::SelfAttention(int64_t dim, double seed, bool causal) : causal_(causal) {
  RequireInRange("dim", dim, 1, kMaxDim);
  const uint64_t checked_seed = RequireSeed("attention.seed", seed);
  dim_ = static_cast<size_t>(dim);
  const double stddev = 1.0 / std::sqrt(static_cast<double>(dim));
  qkv_weight_.resize(3 * dim_ * dim_);
  // One stream for all three matrices, in a fixed order (Wq, Wk, Wv, each column by column), so a seed
  // names one set of weights.
  Prng prng(checked_seed);
  for (float& w : qkv_weight_) w = static_cast<float>(stddev * prng.NextNormal());
}

SelfAttention::Output SelfAttention::Forward(const float* x, size_t length) const {
  std::vector<float> qkv(length * 3 * dim_);
  simd::MatmulForward(x, qkv_weight_.data(), nullptr, qkv.data(), length, dim_, 3 * dim_);
  Output result{std::vector<float>(length * dim_), std::vector<float>(length * length)};
  const AttentionShape shape{1, length, dim_, 1, causal_, nullptr};
  AttentionForward(qkv.data(), result.weights.data(), result.outputs.data(), shape);
  return result;
}

}  // namespace embedlab
