#include "simd/normalization_kernels.h"

#include <algorithm>
#include <cmath>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/normalization_kernels.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

// foreach_target first: it re-includes this file once per target (keep this order when formatting).
#include "hwy/contrib/algo/transform-inl.h"
#include "hwy/contrib/math/math-inl.h"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace embedlab {
namespace simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using FloatTag = hn::ScalableTag<float>;

template <class V>
float SumLanes(V v) {
  return hn::GetLane(hn::SumOfLanes(FloatTag(), v));
}

// Sum of n floats: whole vectors, then a scalar tail.
float RowSum(const float* x, size_t n) {
  const FloatTag d;
  const size_t lanes = hn::Lanes(d);
  auto acc = hn::Zero(d);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) acc = hn::Add(acc, hn::LoadU(d, x + i));
  float sum = SumLanes(acc);
  for (; i < n; ++i) sum += x[i];
  return sum;
}

void SoftmaxRowImpl(const float* in, float* out, size_t n) {
  const FloatTag d;
  const size_t lanes = hn::Lanes(d);
  float max_value = in[0];
  size_t i = 0;
  if (n >= lanes) {
    auto vmax = hn::LoadU(d, in);
    for (i = lanes; i + lanes <= n; i += lanes) vmax = hn::Max(vmax, hn::LoadU(d, in + i));
    max_value = hn::GetLane(hn::MaxOfLanes(d, vmax));
  }
  for (; i < n; ++i) max_value = std::max(max_value, in[i]);
  // Subtracting the max keeps exp() below 1: no overflow for any finite scores. Transform1 runs the tail
  // through the same Exp as full vectors (masked, or one lane at a time), so every element rounds alike. It reads
  // `in` directly (out's old values are loaded and ignored): no copy, which in wasm is a call out to JS per row
  // of 512 bytes or more.
  hn::Transform1(d, out, n, in, [max_value](auto dv, auto, auto v) HWY_ATTR {
    return hn::Exp(dv, hn::Sub(v, hn::Set(dv, max_value)));
  });
  const float sum = RowSum(out, n);
  hn::Transform(d, out, n, [sum](auto dv, auto v) HWY_ATTR { return hn::Div(v, hn::Set(dv, sum)); });
}

void LayerNormForwardImpl(const float* in, const float* weight, const float* bias, float* out, float* mean, float* rstd,
                          size_t rows, size_t channels) {
  const FloatTag d;
  const size_t lanes = hn::Lanes(d);
  for (size_t r = 0; r < rows; ++r) {
    const float* x = in + r * channels;
    float* y = out + r * channels;
    const float m = RowSum(x, channels) / static_cast<float>(channels);
    const auto vm = hn::Set(d, m);
    auto acc = hn::Zero(d);
    size_t i = 0;
    for (; i + lanes <= channels; i += lanes) {
      const auto centered = hn::Sub(hn::LoadU(d, x + i), vm);
      acc = hn::MulAdd(centered, centered, acc);
    }
    float variance = SumLanes(acc);
    for (; i < channels; ++i) variance += (x[i] - m) * (x[i] - m);
    variance /= static_cast<float>(channels);
    const float s = 1.0f / std::sqrt(variance + 1e-5f);
    const auto vs = hn::Set(d, s);
    for (i = 0; i + lanes <= channels; i += lanes) {
      const auto normed = hn::Mul(hn::Sub(hn::LoadU(d, x + i), vm), vs);
      hn::StoreU(hn::MulAdd(normed, hn::LoadU(d, weight + i), hn::LoadU(d, bias + i)), d, y + i);
    }
    for (; i < channels; ++i) y[i] = (x[i] - m) * s * weight[i] + bias[i];
    mean[r] = m;
    rstd[r] = s;
  }
}

void LayerNormBackwardImpl(const float* dout, const float* in, const float* weight, const float* mean,
                           const float* rstd, float* dinp, float* dweight, float* dbias, size_t rows, size_t channels) {
  const FloatTag d;
  const size_t lanes = hn::Lanes(d);
  const float inv_channels = 1.0f / static_cast<float>(channels);
  for (size_t r = 0; r < rows; ++r) {
    const float* x = in + r * channels;
    const float* g = dout + r * channels;
    float* dx = dinp + r * channels;
    const auto vm = hn::Set(d, mean[r]), vs = hn::Set(d, rstd[r]);
    // Two reductions: mean(w g) and mean(w g xhat); xhat is recomputed rather than stored.
    auto acc_dnorm = hn::Zero(d), acc_dnorm_norm = hn::Zero(d);
    size_t i = 0;
    for (; i + lanes <= channels; i += lanes) {
      const auto norm = hn::Mul(hn::Sub(hn::LoadU(d, x + i), vm), vs);
      const auto dnorm = hn::Mul(hn::LoadU(d, weight + i), hn::LoadU(d, g + i));
      acc_dnorm = hn::Add(acc_dnorm, dnorm);
      acc_dnorm_norm = hn::MulAdd(dnorm, norm, acc_dnorm_norm);
    }
    float dnorm_mean = SumLanes(acc_dnorm), dnorm_norm_mean = SumLanes(acc_dnorm_norm);
    for (size_t k = i; k < channels; ++k) {
      const float norm = (x[k] - mean[r]) * rstd[r];
      dnorm_mean += weight[k] * g[k];
      dnorm_norm_mean += weight[k] * g[k] * norm;
    }
    dnorm_mean *= inv_channels;
    dnorm_norm_mean *= inv_channels;
    const auto v_dnorm_mean = hn::Set(d, dnorm_mean), v_dnorm_norm_mean = hn::Set(d, dnorm_norm_mean);
    for (i = 0; i + lanes <= channels; i += lanes) {
      const auto norm = hn::Mul(hn::Sub(hn::LoadU(d, x + i), vm), vs);
      const auto grad = hn::LoadU(d, g + i);
      const auto dnorm = hn::Mul(hn::LoadU(d, weight + i), grad);
      hn::StoreU(hn::Add(hn::LoadU(d, dbias + i), grad), d, dbias + i);
      hn::StoreU(hn::MulAdd(norm, grad, hn::LoadU(d, dweight + i)), d, dweight + i);
      const auto centered = hn::Sub(hn::Sub(dnorm, v_dnorm_mean), hn::Mul(norm, v_dnorm_norm_mean));
      hn::StoreU(hn::MulAdd(centered, vs, hn::LoadU(d, dx + i)), d, dx + i);
    }
    for (; i < channels; ++i) {
      const float norm = (x[i] - mean[r]) * rstd[r];
      const float dnorm = weight[i] * g[i];
      dbias[i] += g[i];
      dweight[i] += norm * g[i];
      dx[i] += (dnorm - dnorm_mean - norm * dnorm_norm_mean) * rstd[r];
    }
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace simd
}  // namespace embedlab
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace embedlab {
namespace simd {

HWY_EXPORT(SoftmaxRowImpl);
HWY_EXPORT(LayerNormForwardImpl);
HWY_EXPORT(LayerNormBackwardImpl);

void SoftmaxRow(const float* in, float* out, size_t n) { HWY_DYNAMIC_DISPATCH(SoftmaxRowImpl)(in, out, n); }
void LayerNormForward(const float* in, const float* weight, const float* bias, float* out, float* mean, float* rstd,
                      size_t rows, size_t channels) {
  HWY_DYNAMIC_DISPATCH(LayerNormForwardImpl)(in, weight, bias, out, mean, rstd, rows, channels);
}
void LayerNormBackward(const float* dout, const float* in, const float* weight, const float* mean, const float* rstd,
                       float* dinp, float* dweight, float* dbias, size_t rows, size_t channels) {
  HWY_DYNAMIC_DISPATCH(LayerNormBackwardImpl)(dout, in, weight, mean, rstd, dinp, dweight, dbias, rows, channels);
}

}  // namespace simd
}  // namespace embedlab
#endif  // HWY_ONCE
