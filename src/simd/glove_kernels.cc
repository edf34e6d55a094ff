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

// Four arrays change in one pass (Transform writes one), so the loop is written out. The last dim mod lanes
// components go through one full vector padded on the stack: Highway 1.0.3's one-lane vectors on the WASM target
// gave other numbers than every native target and EMU128 (the trained vectors drifted 1e-4 apart in one epoch).
void GloveAdaGradPairImpl(float* HWY_RESTRICT word, float* HWY_RESTRICT context, float* HWY_RESTRICT word_gradsq,
                          float* HWY_RESTRICT context_gradsq, size_t dim, float weighted_error, float learning_rate,
                          float gradient_clip) {
  const auto step = [&](FloatTag d, size_t i, float* HWY_RESTRICT w_row, float* HWY_RESTRICT c_row,
                        float* HWY_RESTRICT w_sq, float* HWY_RESTRICT c_sq) HWY_ATTR {
    const auto error = hn::Set(d, weighted_error);
    const auto rate = hn::Set(d, learning_rate);
    const auto hi = hn::Set(d, gradient_clip);
    const auto lo = hn::Neg(hi);
    const auto w = hn::LoadU(d, w_row + i);
    const auto c = hn::LoadU(d, c_row + i);
    const auto gw = hn::Mul(hn::Min(hn::Max(hn::Mul(error, c), lo), hi), rate);
    const auto gc = hn::Mul(hn::Min(hn::Max(hn::Mul(error, w), lo), hi), rate);
    const auto sw = hn::LoadU(d, w_sq + i);
    const auto sc = hn::LoadU(d, c_sq + i);
    hn::StoreU(hn::Sub(w, hn::Div(gw, hn::Sqrt(sw))), d, w_row + i);
    hn::StoreU(hn::Sub(c, hn::Div(gc, hn::Sqrt(sc))), d, c_row + i);
    hn::StoreU(hn::MulAdd(gw, gw, sw), d, w_sq + i);
    hn::StoreU(hn::MulAdd(gc, gc, sc), d, c_sq + i);
  };
  const FloatTag d;
  const size_t lanes = hn::Lanes(d);
  size_t i = 0;
  for (; i + lanes <= dim; i += lanes) step(d, i, word, context, word_gradsq, context_gradsq);
  if (i == dim) return;
  // The tail padded into full vectors (gradsq padded with 1, so the unused lanes stay finite).
  HWY_ALIGN float tail[4][hn::MaxLanes(d)];
  float* const rows[4] = {word, context, word_gradsq, context_gradsq};
  for (size_t r = 0; r < 4; ++r) {
    for (size_t k = 0; k < lanes; ++k) tail[r][k] = i + k < dim ? rows[r][i + k] : (r < 2 ? 0.0f : 1.0f);
  }
  step(d, 0, tail[0], tail[1], tail[2], tail[3]);
  for (size_t r = 0; r < 4; ++r) {
    for (size_t k = 0; i + k < dim; ++k) rows[r][i + k] = tail[r][k];
  }
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
