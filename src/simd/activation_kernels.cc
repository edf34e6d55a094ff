#include "simd/activation_kernels.h"

#include <algorithm>

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

// The forward of training: GELU, and the tanh it used, which the backward then reads instead of computing again.
void GeluForwardKeepImpl(const float* HWY_RESTRICT in, float* HWY_RESTRICT out, float* HWY_RESTRICT tanh_inner,
                         size_t n) {
  const FloatTag d;
  const size_t lanes = hn::Lanes(d);
  const auto half = hn::Set(d, 0.5f), one = hn::Set(d, 1.0f);
  const auto scale = hn::Set(d, kGeluScale), cubic = hn::Set(d, kGeluCubic);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto x = hn::LoadU(d, in + i);
    const auto t = hn::Tanh(d, hn::Mul(scale, hn::MulAdd(hn::Mul(cubic, x), hn::Mul(x, x), x)));
    hn::StoreU(t, d, tanh_inner + i);
    hn::StoreU(hn::Mul(hn::Mul(half, x), hn::Add(one, t)), d, out + i);
  }
  if (i < n) {  // the tail through the same vector code, so every element rounds alike
    HWY_ALIGN float x_tail[hn::MaxLanes(d)] = {};
    HWY_ALIGN float t_tail[hn::MaxLanes(d)];
    HWY_ALIGN float y_tail[hn::MaxLanes(d)];
    std::copy(in + i, in + n, x_tail);
    GeluForwardKeepImpl(x_tail, y_tail, t_tail, lanes);
    std::copy(y_tail, y_tail + (n - i), out + i);
    std::copy(t_tail, t_tail + (n - i), tanh_inner + i);
  }
}

// The GELU slope from x and its kept t = tanh(sqrt(2/pi) (x + 0.044715 x^3)), times the gradient, added to acc.
template <class D, class V>
HWY_INLINE V GeluBackwardFromTanh(D d, V x, V t, V grad, V acc) {
  const auto half = hn::Set(d, 0.5f), one = hn::Set(d, 1.0f);
  const auto x2 = hn::Mul(x, x);
  // d/dx: 0.5 (1 + t) + 0.5 x (1 - t^2) sqrt(2/pi) (1 + 3 * 0.044715 x^2)
  const auto sech2 = hn::NegMulAdd(t, t, one);
  const auto dinner = hn::Mul(hn::Set(d, kGeluScale), hn::MulAdd(hn::Set(d, 3.0f * kGeluCubic), x2, one));
  const auto local = hn::MulAdd(hn::Mul(half, x), hn::Mul(sech2, dinner), hn::Mul(half, hn::Add(one, t)));
  return hn::MulAdd(local, grad, acc);
}

void GeluBackwardKeptImpl(const float* HWY_RESTRICT in, const float* HWY_RESTRICT tanh_inner,
                          const float* HWY_RESTRICT dout, float* HWY_RESTRICT dinp, size_t n) {
  const FloatTag d;
  const size_t lanes = hn::Lanes(d);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto acc = hn::LoadU(d, dinp + i);
    hn::StoreU(GeluBackwardFromTanh(d, hn::LoadU(d, in + i), hn::LoadU(d, tanh_inner + i), hn::LoadU(d, dout + i), acc),
               d, dinp + i);
  }
  if (i < n) {
    HWY_ALIGN float tail[4][hn::MaxLanes(d)] = {};
    std::copy(in + i, in + n, tail[0]);
    std::copy(tanh_inner + i, tanh_inner + n, tail[1]);
    std::copy(dout + i, dout + n, tail[2]);
    std::copy(dinp + i, dinp + n, tail[3]);
    GeluBackwardKeptImpl(tail[0], tail[1], tail[2], tail[3], lanes);
    std::copy(tail[3], tail[3] + (n - i), dinp + i);
  }
}

void GeluBackwardImpl(const float* in, const float* dout, float* dinp, size_t n) {
  hn::Transform2(FloatTag(), dinp, n, in, dout, [](auto d, auto acc, auto x, auto grad) HWY_ATTR {
    const auto t =
        hn::Tanh(d, hn::Mul(hn::Set(d, kGeluScale), hn::MulAdd(hn::Mul(hn::Set(d, kGeluCubic), x), hn::Mul(x, x), x)));
    return GeluBackwardFromTanh(d, x, t, grad, acc);
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
HWY_EXPORT(GeluForwardKeepImpl);
HWY_EXPORT(GeluBackwardKeptImpl);

void GeluForward(const float* in, float* out, size_t n) { HWY_DYNAMIC_DISPATCH(GeluForwardImpl)(in, out, n); }
void GeluBackward(const float* in, const float* dout, float* dinp, size_t n) {
  HWY_DYNAMIC_DISPATCH(GeluBackwardImpl)(in, dout, dinp, n);
}
void GeluForwardKeep(const float* in, float* out, float* tanh_inner, size_t n) {
  HWY_DYNAMIC_DISPATCH(GeluForwardKeepImpl)(in, out, tanh_inner, n);
}
void GeluBackwardKept(const float* in, const float* tanh_inner, const float* dout, float* dinp, size_t n) {
  HWY_DYNAMIC_DISPATCH(GeluBackwardKeptImpl)(in, tanh_inner, dout, dinp, n);
}

}  // namespace simd
}  // namespace embedlab
#endif  // HWY_ONCE
