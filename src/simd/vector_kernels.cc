#include "simd/vector_kernels.h"

#include <algorithm>
#include <cmath>
#include <vector>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/vector_kernels.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

// foreach_target first: it re-includes this file once per target (keep this order when formatting).
#include "hwy/contrib/algo/transform-inl.h"
#include "hwy/contrib/dot/dot-inl.h"
#include "hwy/contrib/math/math-inl.h"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace embedlab {
namespace simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// A plain loop, not Transform1: out may alias a or b, and Transform1's pointers are restrict-qualified.
void AddImpl(const float* a, const float* b, float* out, size_t n) {
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    hn::StoreU(hn::Add(hn::LoadU(d, a + i), hn::LoadU(d, b + i)), d, out + i);
  }
  for (; i < n; ++i) out[i] = a[i] + b[i];
}

void ScaledAddImpl(float alpha, const float* HWY_RESTRICT x, float* HWY_RESTRICT y, size_t n) {
  hn::Transform1(hn::ScalableTag<float>(), y, n, x,
                 [alpha](auto d, auto vy, auto vx) HWY_ATTR { return hn::MulAdd(hn::Set(d, alpha), vx, vy); });
}

// Highway's Dot: four accumulators hide the FMA latency; a tail of at least one vector is one masked,
// overlapping load, a shorter row a scalar loop.
float DotImpl(const float* HWY_RESTRICT a, const float* HWY_RESTRICT b, size_t n) {
  return hn::Dot::Compute<0>(hn::ScalableTag<float>(), a, b, n);
}

float NormImpl(const float* HWY_RESTRICT a, size_t n) { return std::sqrt(DotImpl(a, a, n)); }

// One pass accumulates a.b, a.a and b.b together: a third of the memory traffic of three dots (three
// Dot::Compute calls would read each vector twice more).
float CosineImpl(const float* HWY_RESTRICT a, const float* HWY_RESTRICT b, size_t n) {
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  auto ab0 = hn::Zero(d), aa0 = hn::Zero(d), bb0 = hn::Zero(d);
  auto ab1 = hn::Zero(d), aa1 = hn::Zero(d), bb1 = hn::Zero(d);
  size_t i = 0;
  for (; i + 2 * lanes <= n; i += 2 * lanes) {
    const auto va0 = hn::LoadU(d, a + i), vb0 = hn::LoadU(d, b + i);
    const auto va1 = hn::LoadU(d, a + i + lanes), vb1 = hn::LoadU(d, b + i + lanes);
    ab0 = hn::MulAdd(va0, vb0, ab0);
    aa0 = hn::MulAdd(va0, va0, aa0);
    bb0 = hn::MulAdd(vb0, vb0, bb0);
    ab1 = hn::MulAdd(va1, vb1, ab1);
    aa1 = hn::MulAdd(va1, va1, aa1);
    bb1 = hn::MulAdd(vb1, vb1, bb1);
  }
  float ab = hn::GetLane(hn::SumOfLanes(d, hn::Add(ab0, ab1)));
  float aa = hn::GetLane(hn::SumOfLanes(d, hn::Add(aa0, aa1)));
  float bb = hn::GetLane(hn::SumOfLanes(d, hn::Add(bb0, bb1)));
  for (; i < n; ++i) {
    ab += a[i] * b[i];
    aa += a[i] * a[i];
    bb += b[i] * b[i];
  }
  const float norms = std::sqrt(aa) * std::sqrt(bb);
  return norms > 0.0f ? ab / norms : 0.0f;
}

void CosineMatrixImpl(const float* HWY_RESTRICT a, size_t rows_a, const float* HWY_RESTRICT b, size_t rows_b,
                      size_t dim, float* HWY_RESTRICT out) {
  std::vector<float> norms_b(rows_b);
  for (size_t j = 0; j < rows_b; ++j) norms_b[j] = NormImpl(b + j * dim, dim);
  for (size_t i = 0; i < rows_a; ++i) {
    const float* row_a = a + i * dim;
    const float norm_a = NormImpl(row_a, dim);
    for (size_t j = 0; j < rows_b; ++j) {
      const float norms = norm_a * norms_b[j];
      out[i * rows_b + j] = norms > 0.0f ? DotImpl(row_a, b + j * dim, dim) / norms : 0.0f;
    }
  }
}

void SinCosInterleavedImpl(const float* HWY_RESTRICT angles, size_t n, float* HWY_RESTRICT out) {
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto x = hn::LoadU(d, angles + i);
    hn::StoreInterleaved2(hn::Sin(d, x), hn::Cos(d, x), d, out + 2 * i);
  }
  if (i < n) {
    // Pad the tail into a full vector so every element gets the same SIMD approximation.
    HWY_ALIGN float tail[hn::MaxLanes(d)] = {};
    HWY_ALIGN float tail_out[2 * hn::MaxLanes(d)];
    for (size_t k = i; k < n; ++k) tail[k - i] = angles[k];
    const auto x = hn::Load(d, tail);
    hn::StoreInterleaved2(hn::Sin(d, x), hn::Cos(d, x), d, tail_out);
    for (size_t k = i; k < n; ++k) {
      out[2 * k] = tail_out[2 * (k - i)];
      out[2 * k + 1] = tail_out[2 * (k - i) + 1];
    }
  }
}

// Vector stores: in wasm std::fill of floats becomes a call to the C library's memset, a scalar loop compiled
// without SIMD, and the trainer clears its gradient buffers every step.
void FillImpl(float value, float* HWY_RESTRICT out, size_t n) {
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  const auto v = hn::Set(d, value);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) hn::StoreU(v, d, out + i);
  for (; i < n; ++i) out[i] = value;
}

// x * 0 is 0 for every finite x and NaN for an infinity or a NaN: a block's multiply-adds tell whether it holds
// any, and only such a block is searched element by element (the trainer checks every parameter each step).
size_t FirstNonFiniteImpl(const float* HWY_RESTRICT x, size_t n) {
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  constexpr size_t kBlock = 1024;
  const auto zero = hn::Zero(d);
  for (size_t start = 0; start < n; start += kBlock) {
    const size_t end = std::min(n, start + kBlock);
    auto acc = hn::Zero(d);
    size_t i = start;
    for (; i + lanes <= end; i += lanes) acc = hn::MulAdd(hn::LoadU(d, x + i), zero, acc);
    bool found = !std::isfinite(hn::GetLane(hn::SumOfLanes(d, acc)));
    for (; i < end && !found; ++i) found = !std::isfinite(x[i]);
    if (!found) continue;
    for (size_t k = start; k < end; ++k) {
      if (!std::isfinite(x[k])) return k;
    }
  }
  return n;
}

}  // namespace HWY_NAMESPACE
}  // namespace simd
}  // namespace embedlab
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace embedlab {
namespace simd {

HWY_EXPORT(AddImpl);
HWY_EXPORT(ScaledAddImpl);
HWY_EXPORT(DotImpl);
HWY_EXPORT(NormImpl);
HWY_EXPORT(CosineImpl);
HWY_EXPORT(CosineMatrixImpl);
HWY_EXPORT(SinCosInterleavedImpl);
HWY_EXPORT(FirstNonFiniteImpl);
HWY_EXPORT(FillImpl);

void Add(const float* a, const float* b, float* out, size_t n) { HWY_DYNAMIC_DISPATCH(AddImpl)(a, b, out, n); }
void ScaledAdd(float alpha, const float* x, float* y, size_t n) { HWY_DYNAMIC_DISPATCH(ScaledAddImpl)(alpha, x, y, n); }
float Dot(const float* a, const float* b, size_t n) { return HWY_DYNAMIC_DISPATCH(DotImpl)(a, b, n); }
float Norm(const float* a, size_t n) { return HWY_DYNAMIC_DISPATCH(NormImpl)(a, n); }
float CosineSimilarity(const float* a, const float* b, size_t n) { return HWY_DYNAMIC_DISPATCH(CosineImpl)(a, b, n); }
void CosineSimilarityMatrix(const float* a, size_t rows_a, const float* b, size_t rows_b, size_t dim, float* out) {
  HWY_DYNAMIC_DISPATCH(CosineMatrixImpl)(a, rows_a, b, rows_b, dim, out);
}
void SinCosInterleaved(const float* angles, size_t n, float* out) {
  HWY_DYNAMIC_DISPATCH(SinCosInterleavedImpl)(angles, n, out);
}
size_t FirstNonFinite(const float* values, size_t n) { return HWY_DYNAMIC_DISPATCH(FirstNonFiniteImpl)(values, n); }
void Fill(float value, float* out, size_t n) { HWY_DYNAMIC_DISPATCH(FillImpl)(value, out, n); }

}  // namespace simd
}  // namespace embedlab
#endif  // HWY_ONCE
