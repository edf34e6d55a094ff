// The AdamW kernel on every Highway target this CPU supports, against scalar double references written from
// the formulas here (no code shared with src/).
#include "simd/optimizer_kernels.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "every_target.h"
#include "random_vectors.h"

namespace simd = embedlab::simd;

TEST_CASE("AdamWUpdate follows PyTorch's AdamW formula on every target", "[model]") {
  OnEveryTarget([] {
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
