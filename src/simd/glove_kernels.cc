#include "simd/glove_kernels.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/glove_kernels.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

// foreach_target first: it re-includes this file once per target (keep this order when formatting).
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace embedlab {
namespace simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using FloatTag = hn::ScalableTag<float>;

// Four arrays change in one pass (Transform writes one), so the loop is written out, with Transform's
// remainder scheme: the last components one lane at a time through the same vector arithmetic.
void GloveAdaGradPairImpl(float* HWY_RESTRICT word, float* HWY_RESTRICT context, float* HWY_RESTRICT word_gradsq,
                          float* HWY_RESTRICT context_gradsq, size_t dim, float weighted_error, float learning_rate,
                          float gradient_clip) {
  const auto step = [&](auto d, size_t i) HWY_ATTR {
    const auto error = hn::Set(d, weighted_error);
    const auto rate = hn::Set(d, learning_rate);
    const auto hi = hn::Set(d, gradient_clip);
    const auto lo = hn::Neg(hi);
    const auto w = hn::LoadU(d, word + i);
    const auto c = hn::LoadU(d, context + i);
    const auto gw = hn::Mul(hn::Min(hn::Max(hn::Mul(error, c), lo), hi), rate);
    const auto gc = hn::Mul(hn::Min(hn::Max(hn::Mul(error, w), lo), hi), rate);
    const auto sw = hn::LoadU(d, word_gradsq + i);
    const auto sc = hn::LoadU(d, context_gradsq + i);
    hn::StoreU(hn::Sub(w, hn::Div(gw, hn::Sqrt(sw))), d, word + i);
    hn::StoreU(hn::Sub(c, hn::Div(gc, hn::Sqrt(sc))), d, context + i);
    hn::StoreU(hn::MulAdd(gw, gw, sw), d, word_gradsq + i);
    hn::StoreU(hn::MulAdd(gc, gc, sc), d, context_gradsq + i);
  };
  const FloatTag d;
  size_t i = 0;
  for (; i + hn::Lanes(d) <= dim; i += hn::Lanes(d)) step(d, i);
  for (; i < dim; ++i) step(hn::CappedTag<float, 1>(), i);
}

}  // namespace HWY_NAMESPACE
}  // namespace simd
}  // namespace embedlab
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace embedlab {
namespace simd {

HWY_EXPORT(GloveAdaGradPairImpl);

void GloveAdaGradPair(float* word, float* context, float* word_gradsq, float* context_gradsq, size_t dim,
                      float weighted_error, float learning_rate, float gradient_clip) {
  HWY_DYNAMIC_DISPATCH(GloveAdaGradPairImpl)
  (word, context, word_gradsq, context_gradsq, dim, weighted_error, learning_rate, gradient_clip);
}

}  // namespace simd
}  // namespace embedlab
#endif  // HWY_ONCE
