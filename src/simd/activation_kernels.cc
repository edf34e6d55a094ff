#include "simd/activation_kernels.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/activation_kernels.cc"
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

constexpr float kGeluScale = 0.7978845608028654f;  // sqrt(2 / pi)
constexpr float kGeluCubic = 0.044715f;

// GELU of one vector; generic over the tag so Transform can run the tail in a one-lane vector.
template <class D, class V>
HWY_INLINE V Gelu(D d, V x) {
  const auto inner = hn::Mul(hn::Set(d, kGeluScale), hn::MulAdd(hn::Mul(hn::Set(d, kGeluCubic), x), hn::Mul(x, x), x));
  return hn::Mul(hn::Mul(hn::Set(d, 0.5f), x), hn::Add(hn::Set(d, 1.0f), hn::Tanh(d, inner)));
}

void GeluForwardImpl(const float* in, float* out, size_t n) {
  if (out == in) {
    hn::Transform(FloatTag(), out, n, [](auto d, auto x) HWY_ATTR { return Gelu(d, x); });
    return;
  }
  // Transform1 loads out's old values and ignores them: cheaper than copying in to out first, which cost
  // ~20% of the whole kernel on AVX3 and several times it in wasm (512 x 256 floats).
  hn::Transform1(FloatTag(), out, n, in, [](auto d, auto, auto x) HWY_ATTR { return Gelu(d, x); });
}

void GeluBackwardImpl(const float* in, const float* dout, float* dinp, size_t n) {
  hn::Transform2(FloatTag(), dinp, n, in, dout, [](auto d, auto acc, auto x, auto grad) HWY_ATTR {
    const auto half = hn::Set(d, 0.5f), one = hn::Set(d, 1.0f);
    const auto x2 = hn::Mul(x, x);
    const auto t = hn::Tanh(d, hn::Mul(hn::Set(d, kGeluScale), hn::MulAdd(hn::Mul(hn::Set(d, kGeluCubic), x), x2, x)));
    // d/dx: 0.5 (1 + t) + 0.5 x (1 - t^2) sqrt(2/pi) (1 + 3 * 0.044715 x^2)
    const auto sech2 = hn::NegMulAdd(t, t, one);
    const auto dinner = hn::Mul(hn::Set(d, kGeluScale), hn::MulAdd(hn::Set(d, 3.0f * kGeluCubic), x2, one));
    const auto local = hn::MulAdd(hn::Mul(half, x), hn::Mul(sech2, dinner), hn::Mul(half, hn::Add(one, t)));
    return hn::MulAdd(local, grad, acc);
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace simd
}  // namespace embedlab
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace embedlab {
namespace simd {

HWY_EXPORT(GeluForwardImpl);
HWY_EXPORT(GeluBackwardImpl);

void GeluForward(const float* in, float* out, size_t n) { HWY_DYNAMIC_DISPATCH(GeluForwardImpl)(in, out, n); }
void GeluBackward(const float* in, const float* dout, float* dinp, size_t n) {
  HWY_DYNAMIC_DISPATCH(GeluBackwardImpl)(in, dout, dinp, n);
}

}  // namespace simd
}  // namespace embedlab
#endif  // HWY_ONCE
