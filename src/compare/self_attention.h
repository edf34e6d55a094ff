// One head of scaled dot-product self-attention with seeded projections:
//   out = softmax(Q K^T / sqrt(d) [+ causal mask]) V,  Q = X Wq, K = X Wk, V = X Wv.
// It is permutation-equivariant without a causal mask: permuting the input rows permutes the output rows.
// The attention itself is the tiny GPT's (model/attention.h) with one head; only the weights are this
// class's own.
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

  struct Output {
    std::vector<float> outputs;  // length x dim
    std::vector<float> weights;  // length x length softmax weights, row = query; zeros above the diagonal if causal
  };
  // x is length x dim. One pass gives both the mixed vectors and the weights that mixed them.
  Output Forward(const float* x, size_t length) const;

 private:
  size_t dim_;
  bool causal_;
  // Wq, Wk, Wv fused as one (3 dim) x dim matrix in nn.Linear's (out, in) layout, i.e. each W transposed:
  // the GPT's c_attn, so one matmul gives the q | k | v rows the attention kernel reads.
  std::vector<float> qkv_weight_;
};

}  // namespace embedlab

#endif  // EMBEDLAB_COMPARE_SELF_ATTENTION_H_
