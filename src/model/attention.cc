#include "model/attention.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "errors/argument_checks.h"
#include "simd/matmul_kernels.h"
#include "simd/normalization_kernels.h"

namespace embedlab {

namespace {

// dst (T x hs) = one head's slice of q, k or v (part 0, 1, 2) of the fused qkv rows of one sequence.
void GatherHead(const float* qkv, size_t part, size_t head, const AttentionShape& s, float* dst) {
  const size_t C = s.channels, hs = C / s.heads;
  for (size_t t = 0; t < s.length; ++t) {
    const float* src = qkv + t * 3 * C + part * C + head * hs;
    std::copy(src, src + hs, dst + t * hs);
  }
}

// dst (hs x T) = the transpose of that slice.
void GatherHeadTransposed(const float* qkv, size_t part, size_t head, const AttentionShape& s, float* dst) {
  const size_t C = s.channels, hs = C / s.heads, T = s.length;
  for (size_t t = 0; t < T; ++t) {
    const float* src = qkv + t * 3 * C + part * C + head * hs;
    for (size_t i = 0; i < hs; ++i) dst[i * T + t] = src[i];
  }
}

}  // namespace

// Per sequence and head, three matmuls on the SIMD core: scores = q k^T (T x T), then the masked,
// biased softmax row by row, then out = att v. Causal attention computes only the lower triangle of the
// scores (in whole tiles) and stops each row of att v at the diagonal.
void AttentionForward(const float* qkv, float* att, float* out, const AttentionShape& shape) {
  const size_t T = shape.length, C = shape.channels, H = shape.heads, hs = C / H;
  const float scale = 1.0f / std::sqrt(static_cast<float>(hs));
  const simd::Triangle lower_out = shape.causal ? simd::Triangle::kLowerOut : simd::Triangle::kNone;
  const simd::Triangle lower_a = shape.causal ? simd::Triangle::kLowerA : simd::Triangle::kNone;
  std::vector<float> keys_t(hs * T), values(T * hs);
  for (size_t b = 0; b < shape.batch; ++b) {
    const float* sequence = qkv + b * T * 3 * C;
    for (size_t h = 0; h < H; ++h) {
      const float slope = shape.alibi_slopes != nullptr ? shape.alibi_slopes[h] : 0.0f;
      GatherHeadTransposed(sequence, 1, h, shape, keys_t.data());
      GatherHead(sequence, 2, h, shape, values.data());
      float* scores = att + (b * H + h) * T * T;
      simd::MatmulStrided(sequence + h * hs, 3 * C, 1, keys_t.data(), scores, T, T, hs, T, false, lower_out);
      for (size_t t = 0; t < T; ++t) {
        float* row = scores + t * T;
        const size_t visible = shape.causal ? t + 1 : T;
        for (size_t j = 0; j < visible; ++j) {
          const float distance = static_cast<float>(t > j ? t - j : j - t);
          row[j] = row[j] * scale - slope * distance;
        }
        if (shape.bias_index != nullptr) {
          const int32_t* index = shape.bias_index + t * T;
          for (size_t j = 0; j < visible; ++j) row[j] += shape.bias_table[static_cast<size_t>(index[j]) * H + h];
        }
        simd::SoftmaxRow(row, row, visible);
        for (size_t j = visible; j < T; ++j) row[j] = 0.0f;
      }
      simd::MatmulStrided(scores, T, 1, values.data(), out + b * T * C + h * hs, C, T, T, hs, false, lower_a);
    }
  }
}

// With S the scaled scores and A = softmax(S): dA = dout v^T, dv += A^T dout,
// dS = A * (dA - rowsum(A * dA)) * scale, dq += dS k, dk += dS^T q. Masked entries have A = 0, so
// their dS is 0 without a branch. Causal attention skips the zero triangles (A and dS are lower
// triangular, A^T and dS^T upper) and sets the masked dS to 0 instead of computing it.
void AttentionBackward(const float* dout, const float* qkv, const float* att, float* dqkv,
                       const AttentionShape& shape) {
  const size_t T = shape.length, C = shape.channels, H = shape.heads, hs = C / H;
  const float scale = 1.0f / std::sqrt(static_cast<float>(hs));
  const simd::Triangle lower_out = shape.causal ? simd::Triangle::kLowerOut : simd::Triangle::kNone;
  const simd::Triangle lower_a = shape.causal ? simd::Triangle::kLowerA : simd::Triangle::kNone;
  const simd::Triangle upper_a = shape.causal ? simd::Triangle::kUpperA : simd::Triangle::kNone;
  std::vector<float> values_t(hs * T), grad_out(T * hs), queries(T * hs), keys(T * hs), datt(T * T);
  for (size_t b = 0; b < shape.batch; ++b) {
    const float* sequence = qkv + b * T * 3 * C;
    float* grad_sequence = dqkv + b * T * 3 * C;
    for (size_t h = 0; h < H; ++h) {
      const float* weights = att + (b * H + h) * T * T;
      const float* grad_mixed = dout + b * T * C + h * hs;
      GatherHeadTransposed(sequence, 2, h, shape, values_t.data());
      simd::MatmulStrided(grad_mixed, C, 1, values_t.data(), datt.data(), T, T, hs, T, false, lower_out);
      for (size_t t = 0; t < T; ++t) std::copy(grad_mixed + t * C, grad_mixed + t * C + hs, &grad_out[t * hs]);
      simd::MatmulStrided(weights, 1, T, grad_out.data(), grad_sequence + 2 * C + h * hs, 3 * C, T, T, hs, true,
                          upper_a);
      for (size_t t = 0; t < T; ++t) {
        const float* a = weights + t * T;
        float* d = &datt[t * T];
        const size_t visible = shape.causal ? t + 1 : T;
        float weighted = 0.0f;
        for (size_t j = 0; j < visible; ++j) weighted += a[j] * d[j];
        if (shape.bias_table_grad != nullptr) {
          // The bias enters the scores unscaled: its gradient is dS before the 1/sqrt(hs).
          const int32_t* index = shape.bias_index + t * T;
          for (size_t j = 0; j < visible; ++j) {
            const float grad = a[j] * (d[j] - weighted);
            shape.bias_table_grad[static_cast<size_t>(index[j]) * H + h] += grad;
            d[j] = grad * scale;
          }
        } else {
          for (size_t j = 0; j < visible; ++j) d[j] = a[j] * (d[j] - weighted) * scale;
        }
        std::fill(d + visible, d + T, 0.0f);
      }
      GatherHead(sequence, 0, h, shape, queries.data());
      GatherHead(sequence, 1, h, shape, keys.data());
      simd::MatmulStrided(datt.data(), T, 1, keys.data(), grad_sequence + h * hs, 3 * C, T, T, hs, true, lower_a);
      simd::MatmulStrided(datt.data(), 1, T, queries.data(), grad_sequence + C + h * hs, 3 * C, T, T, hs, true,
                          upper_a);
    }
  }
}

std::vector<float> AlibiSlopes(int64_t heads) {
  RequireInRange("heads", heads, 1, kMaxDim);
  std::vector<float> slopes(static_cast<size_t>(heads));
  AlibiSlopes(slopes.size(), slopes.data());
  return slopes;
}

void AlibiSlopes(size_t heads, float* slopes) {
  if (heads == 0) return;
  size_t n = 1;  // the largest power of two <= heads
  while (n * 2 <= heads) n *= 2;
  const double power = static_cast<double>(n);
  for (size_t h = 1; h <= n; ++h) {
    slopes[h - 1] = static_cast<float>(std::exp2(-8.0 * static_cast<double>(h) / power));
  }
  // Slopes 1, 3, 5, ... of 2n heads (exponent -8 (2i + 1) / (2n)), which fall between those above.
  for (size_t i = 0; n + i < heads; ++i) {
    slopes[n + i] = static_cast<float>(std::exp2(-4.0 * static_cast<double>(2 * i + 1) / power));
  }
}

}  // namespace embedlab
