// The softmax and layernorm kernels on every Highway target this CPU supports, against scalar double references written
// from the formulas here (no code shared with src/).
#include "simd/normalization_kernels.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "every_target.h"
#include "random_vectors.h"

namespace simd = embedlab::simd;

TEST_CASE("SoftmaxRow matches the double reference on every target", "[model]") {
  OnEveryTarget([] {
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
      // In place (attention's use): the same bits.
      std::vector<float> in_place = x;
      simd::SoftmaxRow(in_place.data(), in_place.data(), n);
      REQUIRE(in_place == out);
    }
  });
}

TEST_CASE("LayerNorm forward and backward match the double reference on every target", "[model]") {
  OnEveryTarget([] {
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
