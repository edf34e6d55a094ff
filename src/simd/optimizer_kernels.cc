#include "simd/optimizer_kernels.h"

#include <cmath>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/optimizer_kernels.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

// foreach_target first: it re-includes this file once per target (keep this order when formatting).
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace embedlab {
namespace simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using FloatTag = hn::ScalableTag<float>;

// AdamW updates three arrays (params, m, v) in one pass; Transform writes only one, so this keeps its own
// loop, with Transform's remainder scheme: the last elements one lane at a time through the same vector
// arithmetic.
void AdamWUpdateImpl(float* HWY_RESTRICT params, const float* HWY_RESTRICT grads, float* HWY_RESTRICT m,
                     float* HWY_RESTRICT v, size_t n, const AdamWSettings& settings) {
  const float decay = 1.0f - settings.learning_rate * settings.weight_decay;
  const float step_size = settings.learning_rate / settings.bias_correction1;
  const float correction2_sqrt = std::sqrt(settings.bias_correction2);
  const auto update = [&](auto d, size_t i) HWY_ATTR {
    const auto g = hn::LoadU(d, grads + i);
    const auto p = hn::Mul(hn::LoadU(d, params + i), hn::Set(d, decay));
    const auto m_new =
        hn::MulAdd(hn::Set(d, 1.0f - settings.beta1), g, hn::Mul(hn::Set(d, settings.beta1), hn::LoadU(d, m + i)));
    const auto v_new = hn::MulAdd(hn::Mul(hn::Set(d, 1.0f - settings.beta2), g), g,
                                  hn::Mul(hn::Set(d, settings.beta2), hn::LoadU(d, v + i)));
    const auto denom = hn::Add(hn::Div(hn::Sqrt(v_new), hn::Set(d, correction2_sqrt)), hn::Set(d, settings.eps));
    hn::StoreU(hn::NegMulAdd(hn::Set(d, step_size), hn::Div(m_new, denom), p), d, params + i);
    hn::StoreU(m_new, d, m + i);
    hn::StoreU(v_new, d, v + i);
  };
  const FloatTag d;
  size_t i = 0;
  for (; i + hn::Lanes(d) <= n; i += hn::Lanes(d)) update(d, i);
  for (; i < n; ++i) update(hn::CappedTag<float, 1>(), i);
}

}  // namespace HWY_NAMESPACE
}  // namespace simd
}  // namespace embedlab
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace embedlab {
namespace simd {

HWY_EXPORT(AdamWUpdateImpl);

void AdamWUpdate(float* params, const float* grads, float* m, float* v, size_t n, const AdamWSettings& settings) {
  HWY_DYNAMIC_DISPATCH(AdamWUpdateImpl)(params, grads, m, v, n, settings);
}

}  // namespace simd
}  // namespace embedlab
#endif  // HWY_ONCE
