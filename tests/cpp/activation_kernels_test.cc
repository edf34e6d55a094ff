// The GELU kernels on every Highway target this CPU supports, against scalar double references written from
// the formulas here (no code shared with src/).
#include "simd/activation_kernels.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "every_target.h"
#include "random_vectors.h"

namespace simd = embedlab::simd;

TEST_CASE("GELU forward and backward match the double reference on every target", "[model]") {
  OnEveryTarget([] {
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
      std::vector<float> in_place = x;  // in place: the same bits
      simd::GeluForward(in_place.data(), in_place.data(), n);
      REQUIRE(in_place == y);
    }
  });
}

TEST_CASE("GELU with the kept tanh gives the bits of the plain pair on every target", "[model]") {
  OnEveryTarget([] {
    for (size_t n : {1, 3, 8, 13, 64, 101}) {
      auto x = RandomVector(n, 32, 3.0);
      x[0] = 9.0f;
      const auto dout = RandomVector(n, 33);
      std::vector<float> y(n), dx(n, 0.5f), kept_y(n), tanh_inner(n), kept_dx(n, 0.5f);
      simd::GeluForward(x.data(), y.data(), n);
      simd::GeluBackward(x.data(), dout.data(), dx.data(), n);
      simd::GeluForwardKeep(x.data(), kept_y.data(), tanh_inner.data(), n);
      simd::GeluBackwardKept(x.data(), tanh_inner.data(), dout.data(), kept_dx.data(), n);
      REQUIRE(kept_y == y);
      REQUIRE(kept_dx == dx);
      for (size_t i = 0; i < n; ++i) {
        const double v = x[i], t = std::tanh(std::sqrt(2.0 / M_PI) * (v + 0.044715 * v * v * v));
        REQUIRE(std::fabs(tanh_inner[i] - t) <= 1e-6);
      }
    }
  });
}
