// The model kernels on every Highway target this CPU supports, against scalar double references written
// from the formulas here (no code shared with src/).
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "random/prng.h"
#include "random_vectors.h"
#include "simd/activation_kernels.h"
#include "simd/kernel_targets.h"
#include "simd/matmul_kernels.h"
#include "simd/normalization_kernels.h"
#include "simd/optimizer_kernels.h"

namespace simd = embedlab::simd;

namespace {

template <typename Check>
void ForEachTarget(Check check) {
  for (const simd::KernelTarget& target : simd::AvailableTargets()) {
    simd::UseTarget(target.bits);
    INFO("target " << target.name);
    check();
  }
  simd::UseTarget(0);
}

// Shapes around the vector widths (4, 8, 16 lanes) and the 4-row x 2-vector tile.
struct MatmulShape {
  size_t rows, in_channels, out_channels;
};
const MatmulShape kShapes[] = {{1, 1, 1},   {3, 5, 7},    {4, 16, 48}, {5, 16, 64}, {16, 64, 16},
                               {9, 17, 33}, {16, 16, 64}, {7, 3, 100}, {13, 40, 31}};

}  // namespace

TEST_CASE("MatmulForward matches the double reference on every target", "[model]") {
  ForEachTarget([] {
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
  ForEachTarget([] {
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

TEST_CASE("SoftmaxRow matches the double reference on every target", "[model]") {
  ForEachTarget([] {
    for (size_t n : {1, 2, 3, 7, 8, 9, 16, 17, 33, 100}) {
      auto x = RandomVector(n, 10 + n, 3.0);
      x[0] = 60.0f;  // a large score must not overflow
      std::vector<float> out(n);
      simd::SoftmaxRow(x.data(), out.data(), n);
      double max_value = -INFINITY, total = 0.0;
      for (float v : x) max_value = std::max(max_value, static_cast<double>(v));
      for (float v : x) total += std::exp(v - max_value);
      for (size_t i = 0; i < n; ++i) {
        const double expected = std::exp(x[i] - max_value) / total;
        REQUIRE(std::fabs(out[i] - expected) <= 2e-6 * expected + 1e-30);
      }
    }
  });
}

TEST_CASE("LayerNorm forward and backward match the double reference on every target", "[model]") {
  ForEachTarget([] {
    for (size_t channels : {1, 3, 8, 16, 20, 64}) {
      const size_t rows = 5;
      INFO("channels " << channels);
      const auto x = RandomVector(rows * channels, 20, 2.0), weight = RandomVector(channels, 21);
      const auto bias = RandomVector(channels, 22), dout = RandomVector(rows * channels, 23);
      std::vector<float> out(rows * channels), mean(rows), rstd(rows);
      simd::LayerNormForward(x.data(), weight.data(), bias.data(), out.data(), mean.data(), rstd.data(), rows,
                             channels);
      std::vector<float> dx(rows * channels, 0.5f), dweight(channels, 0.25f), dbias(channels, -0.25f);
      simd::LayerNormBackward(dout.data(), x.data(), weight.data(), mean.data(), rstd.data(), dx.data(), dweight.data(),
                              dbias.data(), rows, channels);
      std::vector<double> expected_dweight(channels, 0.25), expected_dbias(channels, -0.25);
      for (size_t r = 0; r < rows; ++r) {
        const float* row = &x[r * channels];
        double m = 0, var = 0;
        for (size_t c = 0; c < channels; ++c) m += row[c];
        m /= channels;
        for (size_t c = 0; c < channels; ++c) var += (row[c] - m) * (row[c] - m);
        var /= channels;
        const double s = 1.0 / std::sqrt(var + 1e-5);
        REQUIRE(std::fabs(mean[r] - m) <= 1e-6 * (1 + std::fabs(m)));
        REQUIRE(std::fabs(rstd[r] - s) <= 1e-5 * s);
        // d/dx_c of sum_k g_k w_k xhat_k = s (w_c g_c - mean(w g) - xhat_c mean(w g xhat))
        double mean_wg = 0, mean_wg_xhat = 0;
        for (size_t c = 0; c < channels; ++c) {
          const double xhat = (row[c] - m) * s, g = dout[r * channels + c];
          mean_wg += weight[c] * g / channels;
          mean_wg_xhat += weight[c] * g * xhat / channels;
          expected_dweight[c] += g * xhat;
          expected_dbias[c] += g;
        }
        for (size_t c = 0; c < channels; ++c) {
          const double xhat = (row[c] - m) * s, g = dout[r * channels + c];
          REQUIRE(std::fabs(out[r * channels + c] - (xhat * weight[c] + bias[c])) <= 1e-5);
          const double expected_dx = 0.5 + s * (weight[c] * g - mean_wg - xhat * mean_wg_xhat);
          REQUIRE(std::fabs(dx[r * channels + c] - expected_dx) <= 2e-5 * (1 + std::fabs(expected_dx)));
        }
      }
      for (size_t c = 0; c < channels; ++c) {
        REQUIRE(std::fabs(dweight[c] - expected_dweight[c]) <= 1e-5);
        REQUIRE(std::fabs(dbias[c] - expected_dbias[c]) <= 1e-5);
      }
    }
  });
}

TEST_CASE("GELU forward and backward match the double reference on every target", "[model]") {
  ForEachTarget([] {
    for (size_t n : {1, 5, 8, 13, 64, 101}) {
      auto x = RandomVector(n, 30, 3.0);
      x[0] = -12.0f;
      const auto dout = RandomVector(n, 31);
      std::vector<float> y(n), dx(n, 1.0f);
      simd::GeluForward(x.data(), y.data(), n);
      simd::GeluBackward(x.data(), dout.data(), dx.data(), n);
      for (size_t i = 0; i < n; ++i) {
        const double v = x[i], k = std::sqrt(2.0 / M_PI);
        const double t = std::tanh(k * (v + 0.044715 * v * v * v));
        const double gelu = 0.5 * v * (1 + t);
        const double slope = 0.5 * (1 + t) + 0.5 * v * (1 - t * t) * k * (1 + 3 * 0.044715 * v * v);
        REQUIRE(std::fabs(y[i] - gelu) <= 1e-6 * (1 + std::fabs(gelu)));
        REQUIRE(std::fabs(dx[i] - (1.0 + slope * dout[i])) <= 2e-6 * (1 + std::fabs(slope * dout[i])));
      }
    }
  });
}

TEST_CASE("AdamWUpdate follows PyTorch's AdamW formula on every target", "[model]") {
  ForEachTarget([] {
    const size_t n = 37;
    const simd::AdamWSettings settings{1e-2f, 0.9f, 0.95f, 1e-8f, 0.1f, 1.0f - 0.9f * 0.9f, 1.0f - 0.95f * 0.95f};
    auto params = RandomVector(n, 40), m = RandomVector(n, 41, 0.1), v = RandomVector(n, 42, 0.1);
    for (float& x : v) x = std::fabs(x);
    const auto grads = RandomVector(n, 43), p0 = params, m0 = m, v0 = v;
    simd::AdamWUpdate(params.data(), grads.data(), m.data(), v.data(), n, settings);
    for (size_t i = 0; i < n; ++i) {
      const double g = grads[i];
      const double m1 = 0.9 * m0[i] + 0.1 * g, v1 = 0.95 * v0[i] + 0.05 * g * g;
      const double mhat = m1 / settings.bias_correction1, vhat = v1 / settings.bias_correction2;
      const double p1 = p0[i] * (1 - 1e-2 * 0.1) - 1e-2 * mhat / (std::sqrt(vhat) + 1e-8);
      REQUIRE(std::fabs(m[i] - m1) <= 1e-6 * (1 + std::fabs(m1)));
      REQUIRE(std::fabs(v[i] - v1) <= 1e-6 * (1 + std::fabs(v1)));
      REQUIRE(std::fabs(params[i] - p1) <= 1e-6 * (1 + std::fabs(p1)));
    }
  });
}

TEST_CASE("MatmulStrided reads A as a strided or transposed view and writes strided rows", "[model]") {
  ForEachTarget([] {
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
