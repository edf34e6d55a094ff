// One head of scaled dot-product self-attention with seeded projections:
//   out = softmax(Q K^T / sqrt(d) [+ causal mask]) V,  Q = X Wq, K = X Wk, V = X Wv.
// It is permutation-equivariant without a causal mask: permuting the input rows permutes the output rows.
#ifndef EMBEDLAB_COMPARE_SELF_ATTENTION_H_
#define EMBEDLAB_COMPARE_SELF_ATTENTION_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace embedlab {

class SelfAttention {
 public:
  // Weights are N(0, 1/dim) draws, so projected vectors keep the input's scale.
  SelfAttention(int64_t dim, double seed, bool causal);

  size_t dim() const { return dim_; }
  bool causal() const { return causal_; }
  // x is length x dim; writes length x dim floats to out.
  void Forward(const float* x, size_t length, float* out) const;
  // The softmax weights for x: length x length, row = query, zeros above the diagonal when causal.
  std::vector<float> Weights(const float* x, size_t length) const;

 private:
  // Weights stored transposed (row j = column j of W), so every projection is a row-by-row dot.
  void Project(const std::vector<float>& weights_t, const float* x, size_t length, float* out) const;
  size_t dim_;
  bool causal_;
  std::vector<float> query_t_, key_t_, value_t_;
};

}  // namespace embedlab

#endif  // EMBEDLAB_COMPARE_SELF_ATTENTION_H_
