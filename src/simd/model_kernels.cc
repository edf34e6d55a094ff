#include "simd/model_kernels.h"

#include <algorithm>
#include <cmath>
#include <vector>

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

// Stores (or adds) the first `count` lanes of v to out; count may be below a full vector at the
// right edge of a matrix.
template <class V>
HWY_INLINE void StoreLanes(V v, size_t count, bool accumulate, float* HWY_RESTRICT out) {
  const FloatTag d;
  if (count >= hn::Lanes(d)) {
    if (accumulate) v = hn::Add(hn::LoadU(d, out), v);
    hn::StoreU(v, d, out);
    return;
  }
  HWY_ALIGN float lanes_out[hn::MaxLanes(d)];
  hn::Store(v, d, lanes_out);
  for (size_t i = 0; i < count; ++i) out[i] = accumulate ? out[i] + lanes_out[i] : lanes_out[i];
}

// The register-blocked core: out[M x cols] (+)= A[M x K] . b[K x cols]. A's element (i, k) is
// a[i * a_row + k * a_col], so A may be a strided or transposed view (one broadcast per element either
// way). b's rows are b_stride floats, a whole number of vectors whose padding is zero, so every load of
// b is a full vector (b is one packed panel, see PackPanels). A 4-row x 2-vector tile keeps 8
// accumulators in registers and reuses each loaded b vector four times; each output is one FMA chain
// over k, so its rounding does not depend on the tile.
void GemmTile4x2(const float* HWY_RESTRICT a, size_t a_row, size_t a_col, size_t depth, const float* HWY_RESTRICT b,
                 size_t b_stride, size_t col, size_t cols, bool accumulate, float* HWY_RESTRICT out,
                 size_t out_stride) {
  const FloatTag d;
  const size_t lanes = hn::Lanes(d);
  auto c00 = hn::Zero(d), c01 = hn::Zero(d), c10 = hn::Zero(d), c11 = hn::Zero(d);
  auto c20 = hn::Zero(d), c21 = hn::Zero(d), c30 = hn::Zero(d), c31 = hn::Zero(d);
  const float* a0 = a;
  const float* a1 = a + a_row;
  const float* a2 = a + 2 * a_row;
  const float* a3 = a + 3 * a_row;
  for (size_t k = 0; k < depth; ++k) {
    const float* b_row = b + k * b_stride + col;
    const auto b0 = hn::LoadU(d, b_row), b1 = hn::LoadU(d, b_row + lanes);
    const size_t ak = k * a_col;
    auto x = hn::Set(d, a0[ak]);
    c00 = hn::MulAdd(x, b0, c00);
    c01 = hn::MulAdd(x, b1, c01);
    x = hn::Set(d, a1[ak]);
    c10 = hn::MulAdd(x, b0, c10);
    c11 = hn::MulAdd(x, b1, c11);
    x = hn::Set(d, a2[ak]);
    c20 = hn::MulAdd(x, b0, c20);
    c21 = hn::MulAdd(x, b1, c21);
    x = hn::Set(d, a3[ak]);
    c30 = hn::MulAdd(x, b0, c30);
    c31 = hn::MulAdd(x, b1, c31);
  }
  const size_t first = std::min(lanes, cols - col);
  const size_t second = cols - col > lanes ? std::min(lanes, cols - col - lanes) : 0;
  const auto store_row = [&](size_t r, decltype(c00) v0, decltype(c00) v1) {
    float* out_row = out + r * out_stride + col;
    StoreLanes(v0, first, accumulate, out_row);
    if (second > 0) StoreLanes(v1, second, accumulate, out_row + lanes);
  };
  store_row(0, c00, c01);
  store_row(1, c10, c11);
  store_row(2, c20, c21);
  store_row(3, c30, c31);
}

// Four rows x one vector: the right edge when fewer than two vectors of columns remain (for example
// a 16-wide attention head on AVX-512).
void GemmTile4x1(const float* HWY_RESTRICT a, size_t a_row, size_t a_col, size_t depth, const float* HWY_RESTRICT b,
                 size_t b_stride, size_t col, size_t cols, bool accumulate, float* HWY_RESTRICT out,
                 size_t out_stride) {
  const FloatTag d;
  auto c0 = hn::Zero(d), c1 = hn::Zero(d), c2 = hn::Zero(d), c3 = hn::Zero(d);
  for (size_t k = 0; k < depth; ++k) {
    const auto b0 = hn::LoadU(d, b + k * b_stride + col);
    const size_t ak = k * a_col;
    c0 = hn::MulAdd(hn::Set(d, a[ak]), b0, c0);
    c1 = hn::MulAdd(hn::Set(d, a[a_row + ak]), b0, c1);
    c2 = hn::MulAdd(hn::Set(d, a[2 * a_row + ak]), b0, c2);
    c3 = hn::MulAdd(hn::Set(d, a[3 * a_row + ak]), b0, c3);
  }
  const size_t count = std::min(hn::Lanes(d), cols - col);
  StoreLanes(c0, count, accumulate, out + col);
  StoreLanes(c1, count, accumulate, out + out_stride + col);
  StoreLanes(c2, count, accumulate, out + 2 * out_stride + col);
  StoreLanes(c3, count, accumulate, out + 3 * out_stride + col);
}

// One row x one vector: the remainder tiles. Same FMA chain per output as the big tile.
void GemmTile1x1(const float* HWY_RESTRICT a, size_t a_col, size_t depth, const float* HWY_RESTRICT b, size_t b_stride,
                 size_t col, size_t cols, bool accumulate, float* HWY_RESTRICT out) {
  const FloatTag d;
  auto c = hn::Zero(d);
  for (size_t k = 0; k < depth; ++k) {
    c = hn::MulAdd(hn::Set(d, a[k * a_col]), hn::LoadU(d, b + k * b_stride + col), c);
  }
  StoreLanes(c, std::min(hn::Lanes(d), cols - col), accumulate, out + col);
}

// The part of a block of rows [first, first + count) that a triangular product needs: its depth
// range [begin, end) and its column end.
struct BlockExtent {
  size_t begin, end, cols;
};
BlockExtent TriangleExtent(Triangle triangle, size_t first, size_t count, size_t depth, size_t cols) {
  BlockExtent e{0, depth, cols};
  if (triangle == Triangle::kLowerOut) e.cols = std::min(cols, first + count);
  if (triangle == Triangle::kLowerA) e.end = std::min(depth, first + count);
  if (triangle == Triangle::kUpperA) e.begin = std::min(depth, first);
  return e;
}

// B[depth x cols] repacked as column panels two vectors wide (one at the right edge when at most one
// vector of columns remains), each panel's rows contiguous and zero padded. A tile then streams its
// panel sequentially (whole cache lines, no stride), and the panel stays in L1 while every block of
// rows passes over it. B's element (k, j) is src[k * row_stride + j * col_stride], so packing also
// transposes (the forward's weight^T) for free.
struct PackedPanels {
  std::vector<float> data;
  size_t depth = 0, cols = 0, panel_width = 0;  // panel_width: two vectors
};

size_t PanelWidthAt(const PackedPanels& b, size_t col) {
  return b.cols - col > b.panel_width / 2 ? b.panel_width : b.panel_width / 2;
}

void PackPanels(const float* src, size_t row_stride, size_t col_stride, size_t depth, size_t cols, PackedPanels& b) {
  const FloatTag d;
  const size_t lanes = hn::Lanes(d);
  b.depth = depth;
  b.cols = cols;
  b.panel_width = 2 * lanes;
  b.data.assign(depth * ((cols + b.panel_width - 1) / b.panel_width) * b.panel_width, 0.0f);
  float* dst = b.data.data();
  for (size_t col = 0; col < cols; col += b.panel_width) {
    const size_t width = PanelWidthAt(b, col), used = std::min(width, cols - col);
    for (size_t k = 0; k < depth; ++k, dst += width) {
      const float* row = src + k * row_stride + col * col_stride;
      size_t j = 0;
      if (col_stride == 1) {  // contiguous: vector moves (std::copy of a few floats is a memmove call in wasm)
        for (; j + lanes <= used; j += lanes) hn::StoreU(hn::LoadU(d, row + j), d, dst + j);
      }
      for (; j < used; ++j) dst[j] = row[j * col_stride];
    }
  }
}

// Panel-major: each panel of B is loaded into L1 once and reused by every block of rows.
void Gemm(const float* a, size_t a_row, size_t a_col, size_t rows, const PackedPanels& b, bool accumulate, float* out,
          size_t out_stride, Triangle triangle) {
  const size_t lanes = hn::Lanes(FloatTag());
  const float* panel = b.data.data();
  for (size_t col = 0; col < b.cols; col += b.panel_width) {
    const size_t width = PanelWidthAt(b, col);
    size_t r = 0;
    for (; r + 4 <= rows; r += 4) {
      const BlockExtent e = TriangleExtent(triangle, r, 4, b.depth, b.cols);
      if (col >= e.cols) continue;
      const float* a_block = a + r * a_row + e.begin * a_col;
      const float* b_block = panel + e.begin * width;
      float* out_block = out + r * out_stride + col;
      if (width == 2 * lanes) {
        GemmTile4x2(a_block, a_row, a_col, e.end - e.begin, b_block, width, 0, b.cols - col, accumulate, out_block,
                    out_stride);
      } else {
        GemmTile4x1(a_block, a_row, a_col, e.end - e.begin, b_block, width, 0, b.cols - col, accumulate, out_block,
                    out_stride);
      }
    }
    for (; r < rows; ++r) {
      const BlockExtent e = TriangleExtent(triangle, r, 1, b.depth, b.cols);
      for (size_t v = 0; v < width && col + v < e.cols; v += lanes) {
        GemmTile1x1(a + r * a_row + e.begin * a_col, a_col, e.end - e.begin, panel + e.begin * width, width, v,
                    b.cols - col, accumulate, out + r * out_stride + col);
      }
    }
    panel += b.depth * width;
  }
}

void MatmulForwardImpl(const float* in, const float* weight, const float* bias, float* out, size_t rows,
                       size_t in_channels, size_t out_channels) {
  // weight^T (C x OC) puts the output channels along the vector lanes: no horizontal sums.
  PackedPanels weight_t;
  PackPanels(weight, 1, in_channels, in_channels, out_channels, weight_t);
  Gemm(in, in_channels, 1, rows, weight_t, false, out, out_channels, Triangle::kNone);
  if (bias == nullptr) return;
  const FloatTag d;
  const size_t lanes = hn::Lanes(d);
  for (size_t r = 0; r < rows; ++r) {
    float* out_row = out + r * out_channels;
    size_t o = 0;
    for (; o + lanes <= out_channels; o += lanes) {
      hn::StoreU(hn::Add(hn::LoadU(d, out_row + o), hn::LoadU(d, bias + o)), d, out_row + o);
    }
    for (; o < out_channels; ++o) out_row[o] += bias[o];
  }
}

void MatmulBackwardImpl(const float* dout, const float* in, const float* weight, float* dinp, float* dweight,
                        float* dbias, size_t rows, size_t in_channels, size_t out_channels) {
  PackedPanels b;
  if (dinp != nullptr) {  // dinp[N x C] += dout[N x OC] . weight[OC x C]
    PackPanels(weight, in_channels, 1, out_channels, in_channels, b);
    Gemm(dout, out_channels, 1, rows, b, true, dinp, in_channels, Triangle::kNone);
  }
  if (dweight != nullptr) {  // dweight[OC x C] += dout^T[OC x N] . in[N x C], dout^T read in place
    PackPanels(in, in_channels, 1, rows, in_channels, b);
    Gemm(dout, 1, out_channels, out_channels, b, true, dweight, in_channels, Triangle::kNone);
  }
  if (dbias != nullptr) {
    const FloatTag d;
    const size_t lanes = hn::Lanes(d);
    for (size_t r = 0; r < rows; ++r) {
      const float* dout_row = dout + r * out_channels;
      size_t o = 0;
      for (; o + lanes <= out_channels; o += lanes) {
        hn::StoreU(hn::Add(hn::LoadU(d, dbias + o), hn::LoadU(d, dout_row + o)), d, dbias + o);
      }
      for (; o < out_channels; ++o) dbias[o] += dout_row[o];
    }
  }
}

void MatmulStridedImpl(const float* a, size_t a_row_stride, size_t a_col_stride, const float* b, float* out,
                       size_t out_stride, size_t m, size_t k, size_t n, bool accumulate, Triangle triangle) {
  PackedPanels panels;
  PackPanels(b, n, 1, k, n, panels);
  Gemm(a, a_row_stride, a_col_stride, m, panels, accumulate, out, out_stride, triangle);
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

HWY_EXPORT(MatmulForwardImpl);
HWY_EXPORT(MatmulBackwardImpl);
HWY_EXPORT(MatmulStridedImpl);
HWY_EXPORT(SoftmaxRowImpl);
HWY_EXPORT(LayerNormForwardImpl);
HWY_EXPORT(LayerNormBackwardImpl);
HWY_EXPORT(GeluForwardImpl);
HWY_EXPORT(GeluBackwardImpl);
HWY_EXPORT(AdamWUpdateImpl);

void MatmulForward(const float* in, const float* weight, const float* bias, float* out, size_t rows, size_t in_channels,
                   size_t out_channels) {
  HWY_DYNAMIC_DISPATCH(MatmulForwardImpl)(in, weight, bias, out, rows, in_channels, out_channels);
}
void MatmulBackward(const float* dout, const float* in, const float* weight, float* dinp, float* dweight, float* dbias,
                    size_t rows, size_t in_channels, size_t out_channels) {
  HWY_DYNAMIC_DISPATCH(MatmulBackwardImpl)(dout, in, weight, dinp, dweight, dbias, rows, in_channels, out_channels);
}
void MatmulStrided(const float* a, size_t a_row_stride, size_t a_col_stride, const float* b, float* out,
                   size_t out_stride, size_t m, size_t k, size_t n, bool accumulate, Triangle triangle) {
  HWY_DYNAMIC_DISPATCH(MatmulStridedImpl)
  (a, a_row_stride, a_col_stride, b, out, out_stride, m, k, n, accumulate, triangle);
}
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
