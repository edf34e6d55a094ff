#include "random/prng.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

using embedlab::DeterministicLog;
using embedlab::Prng;

TEST_CASE("Prng: the same seed repeats, different seeds differ") {
  Prng a(42), b(42), c(43);
  int same_as_c = 0;
  for (int i = 0; i < 1000; ++i) {
    const uint32_t x = a.NextU32();
    REQUIRE(x == b.NextU32());
    same_as_c += (x == c.NextU32());
  }
  REQUIRE(same_as_c < 5);
}

TEST_CASE("Prng: uniforms and normals have the right moments") {
  Prng prng(7);
  const int n = 200000;
  double sum = 0, sum_sq = 0, normal_sum = 0, normal_sq = 0, normal_fourth = 0;
  for (int i = 0; i < n; ++i) {
    const double u = prng.NextUniform();
    REQUIRE(u >= 0.0);
    REQUIRE(u < 1.0);
    sum += u;
    sum_sq += u * u;
  }
  for (int i = 0; i < n; ++i) {
    const double z = prng.NextNormal();
    normal_sum += z;
    normal_sq += z * z;
    normal_fourth += z * z * z * z;
  }
  // Bounds are ~5 standard errors of each estimate.
  CHECK(std::fabs(sum / n - 0.5) < 5 * std::sqrt(1.0 / 12 / n));
  CHECK(std::fabs(sum_sq / n - 1.0 / 3) < 5 * 0.3 / std::sqrt(n));
  CHECK(std::fabs(normal_sum / n) < 5 / std::sqrt(n));
  CHECK(std::fabs(normal_sq / n - 1.0) < 5 * std::sqrt(2.0 / n));
  CHECK(std::fabs(normal_fourth / n - 3.0) < 5 * std::sqrt(96.0 / n));
}

TEST_CASE("DeterministicLog matches std::log to within 2 ulp") {
  Prng prng(1);
  double worst_ulps = 0;
  for (int i = 0; i < 100000; ++i) {
    const double x = std::ldexp(prng.NextUniform() + 1e-300, static_cast<int>(prng.NextU32() % 200) - 100);
    const double expected = std::log(x);
    const double ulp = std::fabs(std::nextafter(expected, INFINITY) - expected);
    worst_ulps = std::max(worst_ulps, std::fabs(DeterministicLog(x) - expected) / ulp);
  }
  CHECK(DeterministicLog(1.0) == 0.0);
  REQUIRE(worst_ulps <= 2.0);
}
