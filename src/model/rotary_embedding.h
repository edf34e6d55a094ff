// RoPE: rotates q and k of every head pair-wise by angle t * base^(-2i/d_head), so q . k depends on
// the positions only through their difference. v is not rotated. With a scaling (rope_scaling.h) the
// frequencies are the scaled ones and cos and sin are multiplied by its attention factor (YaRN).
#ifndef EMBEDLAB_MODEL_ROTARY_EMBEDDING_H_
#define EMBEDLAB_MODEL_ROTARY_EMBEDDING_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/gpt_config.h"

namespace embedlab {

// lab.ropeRotate: `vector` (one head's q or k, even length in [2, kMaxDim]) rotated at `position` (in [0,
// 2^31 - 1]) with base in [1, 1e12], exactly as RotateHead rotates a head of a model. Throws std::out_of_range
// naming the argument.
std::vector<float> RopeRotate(const std::vector<float>& vector, int64_t position, double base, RopeLayout layout);

class RotaryEmbedding {
 public:
  RotaryEmbedding(size_t channels, size_t heads, double base, RopeLayout layout, const RopeScaling& scaling = {});
  // rotated (B, T, 3C) = qkv with q and k rotated; v copied.
  void Forward(const float* qkv, float* rotated, size_t batch, size_t length);
  // dqkv (B, T, 3C) += R^T drotated (a rotation's inverse is its transpose); v's gradient passes through.
  void Backward(const float* drotated, float* dqkv, size_t batch, size_t length);
  // rotated (head_dim) = one head's q or k vector at position t, rotated as Forward rotates it.
  void RotateHead(const float* head, size_t position, float* rotated) const;

 private:
  // cos_/sin_ hold a cos(t * frequency_i), a sin(...) for t < length, pairs i < head_dim / 2, a the attention
  // factor; grown on demand, rebuilt when dynamic NTK's frequencies change with the length.
  void EnsureLength(size_t length);
  void SetFrequencies(size_t length);
  // Index of pair i's two members within a head.
  size_t First(size_t pair) const { return layout_ == RopeLayout::kInterleaved ? 2 * pair : pair; }
  size_t Second(size_t pair) const { return layout_ == RopeLayout::kInterleaved ? 2 * pair + 1 : pair + half_; }

  size_t channels_, heads_, head_dim_, half_;
  RopeLayout layout_;
  double base_;
  RopeScaling scaling_;
  std::vector<double> frequencies_;
  double attention_factor_ = 1.0;
  size_t frequencies_length_ = 0;  // the length dynamic NTK's frequencies were computed for
  std::vector<float> cos_, sin_;
  size_t table_length_ = 0;
};

}  // namespace embedlab

#endif  // EMBEDLAB_MODEL_ROTARY_EMBEDDING_H_
