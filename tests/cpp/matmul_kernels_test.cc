// The matmul kernels on every Highway target this CPU supports, against scalar double references written from
// the formulas here (no code shared with src/).
#include "simd/matmul_kernels.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "every_target.h"
#include "random_vectors.h"

namespace simd = embedlab::simd;

namespace {

// Shapes around the vector widths (4, 8, 16 lanes), the 4-row x 2-vector tile and the narrower vectors of products
// of up to 8 and up to 16 columns (4, 8, 9, 12, 17 columns in blocks of 4 rows).
struct MatmulShape {
  size_t rows, in_channels, out_channels;
};
const MatmulShape kShapes[] = {{1, 1, 1},   {3, 5, 7},    {4, 16, 48}, {5, 16, 64},  {16, 64, 16},
                               {9, 17, 33}, {16, 16, 64}, {7, 3, 100}, {13, 40, 31}, {8, 8, 4},
                               {12, 9, 8},  {4, 7, 9},    {8, 5, 12},  {20, 6, 17}};

}  // namespace

TEST_CASE("MatmulForward matches the double reference on every target", "[model]") {
  OnEveryTarget([] {
    for (const MatmulShape& s : kShapes) {
      INFO("rows " << s.rows << " C " << s.in_channels << " OC " << s.out_channels);
      const auto in = RandomVector(s.rows * s.in_channels, 1);
      const auto weight = RandomVector(s.out_channels * s.in_channels, 2);
      const auto bias = RandomVector(s.out_channels, 3);
      std::vector<float> out(s.rows * s.out_channels, -7.0f);
      simd::MatmulForward(in.data(), weight.data(), bias.data(), out.data(), s.rows, s.in_channels, s.out_channels);
      for (size_t n = 0; n < s.rows; ++n) {
        for (size_t o = 0; o < s.out_channels; ++o) {
          double sum = bias[o], scale = std::fabs(bias[o]);
          for (size_t c = 0; c < s.in_channels; ++c) {
            sum += static_cast<double>(in[n * s.in_channels + c]) * weight[o * s.in_channels + c];
            scale += std::fabs(static_cast<double>(in[n * s.in_channels + c]) * weight[o * s.in_channels + c]);
          }
          // A float chain of C FMAs errs by at most about C ulp of the absolute sum.
          REQUIRE(std::fabs(out[n * s.out_channels + o] - sum) <= 1.2e-7 * (s.in_channels + 1) * scale);
        }
      }
    }
  });
}

TEST_CASE("MatmulBackward accumulates dinp, dweight and dbias on every target", "[model]") {
  OnEveryTarget([] {
    for (const MatmulShape& s : kShapes) {
      INFO("rows " << s.rows << " C " << s.in_channels << " OC " << s.out_channels);
      const size_t n_rows = s.rows, c_in = s.in_channels, c_out = s.out_channels;
      const auto in = RandomVector(n_rows * c_in, 4), weight = RandomVector(c_out * c_in, 5);
      const auto dout = RandomVector(n_rows * c_out, 6);
      // Start from non-zero gradients: the kernel must add, not overwrite.
      auto dinp = RandomVector(n_rows * c_in, 7), dweight = RandomVector(c_out * c_in, 8);
      auto dbias = RandomVector(c_out, 9);
      const auto dinp0 = dinp, dweight0 = dweight, dbias0 = dbias;
      simd::MatmulBackward(dout.data(), in.data(), weight.data(), dinp.data(), dweight.data(), dbias.data(), n_rows,
                           c_in, c_out);
      for (size_t n = 0; n < n_rows; ++n) {
        for (size_t c = 0; c < c_in; ++c) {
          double sum = dinp0[n * c_in + c], scale = std::fabs(sum);
          for (size_t o = 0; o < c_out; ++o) {
            const double term = static_cast<double>(dout[n * c_out + o]) * weight[o * c_in + c];
            sum += term;
            scale += std::fabs(term);
          }
          REQUIRE(std::fabs(dinp[n * c_in + c] - sum) <= 1.2e-7 * (c_out + 2) * scale);
        }
      }
      for (size_t o = 0; o < c_out; ++o) {
        double bias_sum = dbias0[o], bias_scale = std::fabs(bias_sum);
        for (size_t c = 0; c < c_in; ++c) {
          double sum = dweight0[o * c_in + c], scale = std::fabs(sum);
          for (size_t n = 0; n < n_rows; ++n) {
            const double term = static_cast<double>(dout[n * c_out + o]) * in[n * c_in + c];
            sum += term;
            scale += std::fabs(term);
          }
          REQUIRE(std::fabs(dweight[o * c_in + c] - sum) <= 1.2e-7 * (n_rows + 2) * scale);
        }
        for (size_t n = 0; n < n_rows; ++n) {
          bias_sum += dout[n * c_out + o];
          bias_scale += std::fabs(dout[n * c_out + o]);
        }
        REQUIRE(std::fabs(dbias[o] - bias_sum) <= 1.2e-7 * (n_rows + 2) * bias_scale);
      }
    }
  });
}

TEST_CASE("MatmulStrided reads A as a strided or transposed view and writes strided rows", "[model]") {
  OnEveryTarget([] {
    for (const MatmulShape& s : kShapes) {
      const size_t m = s.rows, k = s.in_channels, n = s.out_channels;
      INFO("m " << m << " k " << k << " n " << n);
      // A stored transposed (k x m), B row-major (k x n), out rows 3 n apart and accumulated.
      const auto a_t = RandomVector(k * m, 50), b = RandomVector(k * n, 51);
      const size_t out_stride = 3 * n;
      auto out = RandomVector(m * out_stride, 52);
      const auto out0 = out;
      simd::MatmulStrided(a_t.data(), 1, m, b.data(), out.data(), out_stride, m, k, n, true);
      for (size_t i = 0; i < m; ++i) {
        for (size_t j = 0; j < out_stride; ++j) {
          if (j >= n) {
            REQUIRE(out[i * out_stride + j] == out0[i * out_stride + j]);  // outside the product: untouched
            continue;
          }
          double sum = out0[i * out_stride + j], scale = std::fabs(sum);
          for (size_t kk = 0; kk < k; ++kk) {
            const double term = static_cast<double>(a_t[kk * m + i]) * b[kk * n + j];
            sum += term;
            scale += std::fabs(term);
          }
          REQUIRE(std::fabs(out[i * out_stride + j] - sum) <= 1.2e-7 * (k + 2) * scale);
        }
      }
    }
  });
}
