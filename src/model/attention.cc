#include "model/attention.h"

#include <cmath>
#include <vector>

#include "simd/model_kernels.h"

namespace embedlab {

void AttentionForward(const float* qkv, float* att, float* out, const AttentionShape& shape) {
  const size_t T = shape.length, C = shape.channels, H = shape.heads, hs = C / H;
  const float scale = 1.0f / std::sqrt(static_cast<float>(hs));
  for (size_t b = 0; b < shape.batch; ++b) {
    for (size_t h = 0; h < H; ++h) {
      const float slope = shape.alibi_slopes != nullptr ? shape.alibi_slopes[h] : 0.0f;
      for (size_t t = 0; t < T; ++t) {
        const float* query = qkv + (b * T + t) * 3 * C + h * hs;
        float* row = att + ((b * H + h) * T + t) * T;
        const size_t visible = shape.causal ? t + 1 : T;
        for (size_t j = 0; j < visible; ++j) {
          const float* key = qkv + (b * T + j) * 3 * C + C + h * hs;
          float dot = 0.0f;
          for (size_t i = 0; i < hs; ++i) dot += query[i] * key[i];
          const float distance = static_cast<float>(t > j ? t - j : j - t);
          row[j] = dot * scale - slope * distance;
        }
        simd::SoftmaxRow(row, row, visible);
        for (size_t j = visible; j < T; ++j) row[j] = 0.0f;
        float* mixed = out + (b * T + t) * C + h * hs;
        for (size_t i = 0; i < hs; ++i) mixed[i] = 0.0f;
        for (size_t j = 0; j < visible; ++j) {
          const float* value = qkv + (b * T + j) * 3 * C + 2 * C + h * hs;
          for (size_t i = 0; i < hs; ++i) mixed[i] += row[j] * value[i];
        }
      }
    }
  }
}

void AttentionBackward(const float* dout, const float* qkv, const float* att, float* dqkv,
                       const AttentionShape& shape) {
  const size_t T = shape.length, C = shape.channels, H = shape.heads, hs = C / H;
  const float scale = 1.0f / std::sqrt(static_cast<float>(hs));
  std::vector<float> datt(T);
  for (size_t b = 0; b < shape.batch; ++b) {
    for (size_t h = 0; h < H; ++h) {
      for (size_t t = 0; t < T; ++t) {
        const float* row = att + ((b * H + h) * T + t) * T;
        const float* grad_mixed = dout + (b * T + t) * C + h * hs;
        const size_t visible = shape.causal ? t + 1 : T;
        // out = att . v: datt[j] = dout . v_j and dv_j += att[j] dout.
        float weighted = 0.0f;  // sum_j att[j] datt[j], for the softmax backward
        for (size_t j = 0; j < visible; ++j) {
          const float* value = qkv + (b * T + j) * 3 * C + 2 * C + h * hs;
          float* grad_value = dqkv + (b * T + j) * 3 * C + 2 * C + h * hs;
          float dot = 0.0f;
          for (size_t i = 0; i < hs; ++i) {
            dot += grad_mixed[i] * value[i];
            grad_value[i] += row[j] * grad_mixed[i];
          }
          datt[j] = dot;
          weighted += row[j] * dot;
        }
        // softmax: dscore[j] = att[j] (datt[j] - sum_k att[k] datt[k]); score = scale q . k_j.
        const float* query = qkv + (b * T + t) * 3 * C + h * hs;
        float* grad_query = dqkv + (b * T + t) * 3 * C + h * hs;
        for (size_t j = 0; j < visible; ++j) {
          const float dscore = row[j] * (datt[j] - weighted) * scale;
          const float* key = qkv + (b * T + j) * 3 * C + C + h * hs;
          float* grad_key = dqkv + (b * T + j) * 3 * C + C + h * hs;
          for (size_t i = 0; i < hs; ++i) {
            grad_query[i] += dscore * key[i];
            grad_key[i] += dscore * query[i];
          }
        }
      }
    }
  }
}

void AlibiSlopes(size_t heads, float* slopes) {
  for (size_t h = 1; h <= heads; ++h) {
    slopes[h - 1] = static_cast<float>(std::exp2(-8.0 * static_cast<double>(h) / static_cast<double>(heads)));
  }
}

}  // namespace embedlab
