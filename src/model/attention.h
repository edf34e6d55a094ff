// Multi-head self-attention over a fused qkv tensor, forward and backward, in llm.c's layout.
#ifndef EMBEDLAB_MODEL_ATTENTION_H_
#define EMBEDLAB_MODEL_ATTENTION_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace embedlab {

struct AttentionShape {
  size_t batch;
  size_t length;
  size_t channels;
  size_t heads;
  bool causal;
  // ALiBi: score(i, j) -= slope[h] * |i - j| (for causal attention j <= i, so this is m_h (i - j));
  // nullptr adds no bias.
  const float* alibi_slopes;
  // A learned bias by index (T5): score(i, j) += bias_table[bias_index[i T + j] H + h], bias_index (T x T),
  // bias_table (rows x H). nullptr adds none. The backward adds d loss / d bias_table to bias_table_grad
  // (nullptr: not wanted).
  const int32_t* bias_index = nullptr;
  const float* bias_table = nullptr;
  float* bias_table_grad = nullptr;
};

// qkv (B, T, 3C) holds q | k | v per token, head h in channels [h hs, (h+1) hs) of each part.
// att (B, H, T, T) receives the softmax weights (zero where masked); out (B, T, C) the mixed values.
//   out[b, t, h] = sum_j att[b, h, t, j] v[b, j, h],
//   att[b, h, t, :] = softmax_j(q[b, t, h] . k[b, j, h] / sqrt(hs) - slope_h |t - j| + bias_h(t, j))
void AttentionForward(const float* qkv, float* att, float* out, const AttentionShape& shape);
// dqkv (B, T, 3C) += d/dqkv given dout (B, T, C) and the forward's qkv and att.
void AttentionBackward(const float* dout, const float* qkv, const float* att, float* dqkv, const AttentionShape& shape);

// ALiBi's slopes as Press et al.'s reference code builds them (get_slopes in ofirpress/attention_with_linear_biases):
// for H a power of two the geometric sequence m_h = 2^(-8h/H), h = 1..H; otherwise, with n the largest
// power of two below H, the n slopes of n heads followed by the first H - n of the odd-numbered slopes of
// 2n heads, 2^(-8(2i+1)/(2n)), i = 0, 1, ... (every other one, so they interleave with the first n).
// H = 3: 2^-4, 2^-8, 2^-2; H = 6: 2^-2, 2^-4, 2^-6, 2^-8, 2^-1, 2^-3.
void AlibiSlopes(size_t heads, float* slopes);
// The same for lab.alibiSlopes: throws std::out_of_range naming heads unless it is in [1, kMaxDim].
std::vector<float> AlibiSlopes(int64_t heads);

}  // namespace embedlab

#endif  // EMBEDLAB_MODEL_ATTENTION_H_
