#include "simd/matmul_kernels.h"

#include <algorithm>
#include <vector>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/matmul_kernels.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

// foreach_target first: it re-includes this file once per target (keep this order when formatting).
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace embedlab {
namespace simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using FloatTag = hn::ScalableTag<float>;

// Every function below takes its vector type D: the widest for most products, a narrower one for products of few
// columns (see PackAndGemm). Stores (or adds) the first `count` lanes of v to out; count may be below a full vector
// at the right edge of a matrix.
template <class D>
HWY_INLINE void StoreLanes(D d, hn::VFromD<D> v, size_t count, bool accumulate, float* HWY_RESTRICT out) {
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
template <class D>
void GemmTile4x2(D d, const float* HWY_RESTRICT a, size_t a_row, size_t a_col, size_t depth,
                 const float* HWY_RESTRICT b, size_t b_stride, size_t col, size_t cols, bool accumulate,
                 float* HWY_RESTRICT out, size_t out_stride) {
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
    StoreLanes(d, v0, first, accumulate, out_row);
    if (second > 0) StoreLanes(d, v1, second, accumulate, out_row + lanes);
  };
  store_row(0, c00, c01);
  store_row(1, c10, c11);
  store_row(2, c20, c21);
  store_row(3, c30, c31);
}

// Four rows x one vector: the right edge when fewer than two vectors of columns remain (for example
// a 16-wide attention head on AVX-512).
template <class D>
void GemmTile4x1(D d, const float* HWY_RESTRICT a, size_t a_row, size_t a_col, size_t depth,
                 const float* HWY_RESTRICT b, size_t b_stride, size_t col, size_t cols, bool accumulate,
                 float* HWY_RESTRICT out, size_t out_stride) {
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
  StoreLanes(d, c0, count, accumulate, out + col);
  StoreLanes(d, c1, count, accumulate, out + out_stride + col);
  StoreLanes(d, c2, count, accumulate, out + 2 * out_stride + col);
  StoreLanes(d, c3, count, accumulate, out + 3 * out_stride + col);
}

// One row x one vector: the remainder tiles. Same FMA chain per output as the big tile.
template <class D>
void GemmTile1x1(D d, const float* HWY_RESTRICT a, size_t a_col, size_t depth, const float* HWY_RESTRICT b,
                 size_t b_stride, size_t col, size_t cols, bool accumulate, float* HWY_RESTRICT out) {
  auto c = hn::Zero(d);
  for (size_t k = 0; k < depth; ++k) {
    c = hn::MulAdd(hn::Set(d, a[k * a_col]), hn::LoadU(d, b + k * b_stride + col), c);
  }
  StoreLanes(d, c, std::min(hn::Lanes(d), cols - col), accumulate, out + col);
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
// One buffer per kernel and thread (thread_local), kept between calls.
struct PackedPanels {
  std::vector<float> data;
  size_t depth = 0, cols = 0, panel_width = 0;  // panel_width: two vectors
};

size_t PanelWidthAt(const PackedPanels& b, size_t col) {
  return b.cols - col > b.panel_width / 2 ? b.panel_width : b.panel_width / 2;
}

template <class D>
void PackPanels(D d, const float* src, size_t row_stride, size_t col_stride, size_t depth, size_t cols,
                PackedPanels& b) {
  const size_t lanes = hn::Lanes(d);
  b.depth = depth;
  b.cols = cols;
  b.panel_width = 2 * lanes;
  // Only grows: the buffer is reused call after call (resize does not zero what it keeps; the padding is
  // written below), so small products, such as attention's per head, allocate nothing.
  const size_t size = depth * ((cols + b.panel_width - 1) / b.panel_width) * b.panel_width;
  if (b.data.size() < size) b.data.resize(size);
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
      for (; j < width; ++j) dst[j] = 0.0f;  // the zero padding every full-vector load of the panel reads
    }
  }
}

// Panel-major: each panel of B is loaded into L1 once and reused by every block of rows.
template <class D>
void Gemm(D d, const float* a, size_t a_row, size_t a_col, size_t rows, const PackedPanels& b, bool accumulate,
          float* out, size_t out_stride, Triangle triangle) {
  const size_t lanes = hn::Lanes(d);
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
        GemmTile4x2(d, a_block, a_row, a_col, e.end - e.begin, b_block, width, 0, b.cols - col, accumulate, out_block,
                    out_stride);
      } else {
        GemmTile4x1(d, a_block, a_row, a_col, e.end - e.begin, b_block, width, 0, b.cols - col, accumulate, out_block,
                    out_stride);
      }
    }
    for (; r < rows; ++r) {
      const BlockExtent e = TriangleExtent(triangle, r, 1, b.depth, b.cols);
      for (size_t v = 0; v < width && col + v < e.cols; v += lanes) {
        GemmTile1x1(d, a + r * a_row + e.begin * a_col, a_col, e.end - e.begin, panel + e.begin * width, width, v,
                    b.cols - col, accumulate, out + r * out_stride + col);
      }
    }
    panel += b.depth * width;
  }
}

// out (+)= A . B with B[depth x cols] (element (k, j) at b[k * b_row_stride + j * b_col_stride]) packed into
// `panels`. Products of few columns (attention's per head: the head size or the sequence length) use vectors no
// wider than two of them fill: on AVX-512 a panel of 4 columns would otherwise pack and multiply 28 zeros for every
// 4 values. Each output is still one FMA chain over k, so the width changes no result.
void PackAndGemm(const float* b, size_t b_row_stride, size_t b_col_stride, size_t depth, size_t cols,
                 PackedPanels& panels, const float* a, size_t a_row, size_t a_col, size_t rows, bool accumulate,
                 float* out, size_t out_stride, Triangle triangle) {
  if (cols <= 8) {
    const hn::CappedTag<float, 4> d;
    PackPanels(d, b, b_row_stride, b_col_stride, depth, cols, panels);
    Gemm(d, a, a_row, a_col, rows, panels, accumulate, out, out_stride, triangle);
  } else if (cols <= 16) {
    const hn::CappedTag<float, 8> d;
    PackPanels(d, b, b_row_stride, b_col_stride, depth, cols, panels);
    Gemm(d, a, a_row, a_col, rows, panels, accumulate, out, out_stride, triangle);
  } else {
    const FloatTag d;
    PackPanels(d, b, b_row_stride, b_col_stride, depth, cols, panels);
    Gemm(d, a, a_row, a_col, rows, panels, accumulate, out, out_stride, triangle);
  }
}

void MatmulForwardImpl(const float* in, const float* weight, const float* bias, float* out, size_t rows,
                       size_t in_channels, size_t out_channels) {
  // weight^T (C x OC) puts the output channels along the vector lanes: no horizontal sums.
  thread_local PackedPanels weight_t;
  PackAndGemm(weight, 1, in_channels, in_channels, out_channels, weight_t, in, in_channels, 1, rows, false, out,
              out_channels, Triangle::kNone);
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
  thread_local PackedPanels b;
  if (dinp != nullptr) {  // dinp[N x C] += dout[N x OC] . weight[OC x C]
    PackAndGemm(weight, in_channels, 1, out_channels, in_channels, b, dout, out_channels, 1, rows, true, dinp,
                in_channels, Triangle::kNone);
  }
  if (dweight != nullptr) {  // dweight[OC x C] += dout^T[OC x N] . in[N x C], dout^T read in place
    PackAndGemm(in, in_channels, 1, rows, in_channels, b, dout, 1, out_channels, out_channels, true, dweight,
                in_channels, Triangle::kNone);
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
  thread_local PackedPanels panels;
  PackAndGemm(b, n, 1, k, n, panels, a, a_row_stride, a_col_stride, m, accumulate, out, out_stride, triangle);
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

}  // namespace simd
}  // namespace embedlab
#endif  // HWY_ONCE
