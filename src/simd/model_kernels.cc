#include "simd/model_kernels.h"

#include <algorithm>
#include <cmath>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/model_kernels.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

// foreach_target first: it re-includes this file once per target (keep this order when formatting).
#include "hwy/contrib/math/math-inl.h"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace embedlab {
namespace simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using FloatTag = hn::ScalableTag<float>;

// Runs body(pointers) on every full vector of n elements, then once on zero-padded copies of the tail,
// so the last few elements go through the same SIMD arithmetic (Exp, Tanh, ...) as the rest. Arrays
// whose bit is set in output_mask are copied back from the tail buffers.
template <size_t kArrays, class Body>
void ForEachVector(size_t n, float* const (&arrays)[kArrays], unsigned output_mask, const Body& body) {
  const FloatTag d;
  const size_t lanes = hn::Lanes(d);
  float* at[kArrays];
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    for (size_t a = 0; a < kArrays; ++a) at[a] = arrays[a] + i;
    body(at);
  }
  if (i == n) return;
  HWY_ALIGN float tail[kArrays][hn::MaxLanes(d)] = {};
  for (size_t a = 0; a < kArrays; ++a) {
    std::copy(arrays[a] + i, arrays[a] + n, tail[a]);
    at[a] = tail[a];
  }
  body(at);
  for (size_t a = 0; a < kArrays; ++a) {
    if (output_mask & (1u << a)) std::copy(tail[a], tail[a] + (n - i), arrays[a] + i);
  }
}

template <class V>
float SumLanes(V v) {
  return hn::GetLane(hn::SumOfLanes(FloatTag(), v));
}

// Sum of f(i) vectors over n floats with a scalar tail for the leftovers.
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
  // Subtracting the max keeps exp() below 1: no overflow for any finite scores.
  const auto vmax = hn::Set(d, max_value);
  float* const arrays[2] = {const_cast<float*>(in), out};
  ForEachVector(n, arrays, 2u,
                [&](float* const(&at)[2]) { hn::StoreU(hn::Exp(d, hn::Sub(hn::LoadU(d, at[0]), vmax)), d, at[1]); });
  const auto vsum = hn::Set(d, RowSum(out, n));
  float* const outs[1] = {out};
  ForEachVector(n, outs, 1u, [&](float* const(&at)[1]) { hn::StoreU(hn::Div(hn::LoadU(d, at[0]), vsum), d, at[0]); });
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

constexpr float kGeluScale = 0.7978845608028654f;  // sqrt(2 / pi)
constexpr float kGeluCubic = 0.044715f;

void GeluForwardImpl(const float* in, float* out, size_t n) {
  const FloatTag d;
  const auto half = hn::Set(d, 0.5f), one = hn::Set(d, 1.0f);
  const auto scale = hn::Set(d, kGeluScale), cubic = hn::Set(d, kGeluCubic);
  float* const arrays[2] = {const_cast<float*>(in), out};
  ForEachVector(n, arrays, 2u, [&](float* const(&at)[2]) {
    const auto x = hn::LoadU(d, at[0]);
    const auto inner = hn::Mul(scale, hn::MulAdd(hn::Mul(cubic, x), hn::Mul(x, x), x));
    hn::StoreU(hn::Mul(hn::Mul(half, x), hn::Add(one, hn::Tanh(d, inner))), d, at[1]);
  });
}

void GeluBackwardImpl(const float* in, const float* dout, float* dinp, size_t n) {
  const FloatTag d;
  const auto half = hn::Set(d, 0.5f), one = hn::Set(d, 1.0f);
  const auto scale = hn::Set(d, kGeluScale), cubic = hn::Set(d, kGeluCubic);
  const auto cubic3 = hn::Set(d, 3.0f * kGeluCubic);
  float* const arrays[3] = {const_cast<float*>(in), const_cast<float*>(dout), dinp};
  ForEachVector(n, arrays, 4u, [&](float* const(&at)[3]) {
    const auto x = hn::LoadU(d, at[0]);
    const auto x2 = hn::Mul(x, x);
    const auto t = hn::Tanh(d, hn::Mul(scale, hn::MulAdd(hn::Mul(cubic, x), x2, x)));
    // d/dx: 0.5 (1 + t) + 0.5 x (1 - t^2) sqrt(2/pi) (1 + 3 * 0.044715 x^2)
    const auto sech2 = hn::NegMulAdd(t, t, one);
    const auto dinner = hn::Mul(scale, hn::MulAdd(cubic3, x2, one));
    const auto local = hn::MulAdd(hn::Mul(half, x), hn::Mul(sech2, dinner), hn::Mul(half, hn::Add(one, t)));
    hn::StoreU(hn::MulAdd(local, hn::LoadU(d, at[1]), hn::LoadU(d, at[2])), d, at[2]);
  });
}

void AdamWUpdateImpl(float* params, const float* grads, float* m, float* v, size_t n, const AdamWSettings& settings) {
  const FloatTag d;
  const auto decay = hn::Set(d, 1.0f - settings.learning_rate * settings.weight_decay);
  const auto beta1 = hn::Set(d, settings.beta1), one_minus_beta1 = hn::Set(d, 1.0f - settings.beta1);
  const auto beta2 = hn::Set(d, settings.beta2), one_minus_beta2 = hn::Set(d, 1.0f - settings.beta2);
  const auto step_size = hn::Set(d, settings.learning_rate / settings.bias_correction1);
  const auto correction2_sqrt = hn::Set(d, std::sqrt(settings.bias_correction2));
  const auto eps = hn::Set(d, settings.eps);
  float* const arrays[4] = {params, const_cast<float*>(grads), m, v};
  ForEachVector(n, arrays, 1u | 4u | 8u, [&](float* const(&at)[4]) {
    const auto g = hn::LoadU(d, at[1]);
    const auto p = hn::Mul(hn::LoadU(d, at[0]), decay);
    const auto m_new = hn::MulAdd(one_minus_beta1, g, hn::Mul(beta1, hn::LoadU(d, at[2])));
    const auto v_new = hn::MulAdd(hn::Mul(one_minus_beta2, g), g, hn::Mul(beta2, hn::LoadU(d, at[3])));
    const auto denom = hn::Add(hn::Div(hn::Sqrt(v_new), correction2_sqrt), eps);
    hn::StoreU(hn::NegMulAdd(step_size, hn::Div(m_new, denom), p), d, at[0]);
    hn::StoreU(m_new, d, at[2]);
    hn::StoreU(v_new, d, at[3]);
  });
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
HWY_EXPORT(GeluForwardImpl);
HWY_EXPORT(GeluBackwardImpl);
HWY_EXPORT(AdamWUpdateImpl);

void SoftmaxRow(const float* in, float* out, size_t n) { HWY_DYNAMIC_DISPATCH(SoftmaxRowImpl)(in, out, n); }
void LayerNormForward(const float* in, const float* weight, const float* bias, float* out, float* mean, float* rstd,
                      size_t rows, size_t channels) {
  HWY_DYNAMIC_DISPATCH(LayerNormForwardImpl)(in, weight, bias, out, mean, rstd, rows, channels);
}
void LayerNormBackward(const float* dout, const float* in, const float* weight, const float* mean, const float* rstd,
                       float* dinp, float* dweight, float* dbias, size_t rows, size_t channels) {
  HWY_DYNAMIC_DISPATCH(LayerNormBackwardImpl)(dout, in, weight, mean, rstd, dinp, dweight, dbias, rows, channels);
}
void GeluForward(const float* in, float* out, size_t n) { HWY_DYNAMIC_DISPATCH(GeluForwardImpl)(in, out, n); }
void GeluBackward(const float* in, const float* dout, float* dinp, size_t n) {
  HWY_DYNAMIC_DISPATCH(GeluBackwardImpl)(in, dout, dinp, n);
}
void AdamWUpdate(float* params, const float* grads, float* m, float* v, size_t n, const AdamWSettings& settings) {
  HWY_DYNAMIC_DISPATCH(AdamWUpdateImpl)(params, grads, m, v, n, settings);
}

}  // namespace simd
}  // namespace embedlab
#endif  // HWY_ONCE
