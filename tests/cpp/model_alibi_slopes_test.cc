// ALiBi slopes against Press et al.'s reference construction (get_slopes in their attention_with_linear_biases
// repository), written here in double precision as they wrote it: recursive, with lists.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "model/attention.h"

namespace {

// get_slopes_power_of_2(n): start = 2^(-2^-(log2 n - 3)) = 2^(-8/n), ratio = start, [start ratio^i].
std::vector<double> PowerOfTwoSlopes(size_t n) {
  const double start = std::pow(2.0, -std::pow(2.0, -(std::log2(static_cast<double>(n)) - 3.0)));
  std::vector<double> slopes;
  for (size_t i = 0; i < n; ++i) slopes.push_back(start * std::pow(start, static_cast<double>(i)));
  return slopes;
}

// get_slopes(n): a power of two as above; otherwise the closest power of two's slopes followed by
// get_slopes(2 * closest)[0::2][:n - closest].
std::vector<double> PressSlopes(size_t n) {
  const double log2n = std::log2(static_cast<double>(n));
  if (log2n == std::floor(log2n)) return PowerOfTwoSlopes(n);
  const size_t closest = static_cast<size_t>(std::pow(2.0, std::floor(log2n)));
  std::vector<double> slopes = PowerOfTwoSlopes(closest);
  const std::vector<double> above = PressSlopes(2 * closest);
  for (size_t i = 0; i < above.size() && slopes.size() < n; i += 2) slopes.push_back(above[i]);
  return slopes;
}

std::vector<float> Slopes(size_t heads) {
  std::vector<float> slopes(heads);
  embedlab::AlibiSlopes(heads, slopes.data());
  return slopes;
}

}  // namespace

TEST_CASE("ALiBi slopes equal Press et al.'s get_slopes for H = 1..64", "[model]") {
  for (size_t heads = 1; heads <= 64; ++heads) {
    INFO("heads " << heads);
    const std::vector<double> expected = PressSlopes(heads);
    const std::vector<float> slopes = Slopes(heads);
    REQUIRE(expected.size() == heads);
    // The float nearest the double slope: an exact power of two for H <= 8, one rounding otherwise.
    for (size_t h = 0; h < heads; ++h) CHECK(slopes[h] == static_cast<float>(expected[h]));
  }
}

TEST_CASE("ALiBi slopes for 3 and 6 heads, stated from the rule", "[model]") {
  // H = 3: the slopes of 2 heads, 2^-4 and 2^-8, then the first of 4 heads' every-other slopes, 2^-2.
  CHECK(Slopes(3) == std::vector<float>{0.0625f, 0.00390625f, 0.25f});
  // H = 6: the slopes of 4 heads, 2^-2 .. 2^-8, then 8 heads' slopes 0 and 2 (2^-1, 2^-3).
  CHECK(Slopes(6) == std::vector<float>{0.25f, 0.0625f, 0.015625f, 0.00390625f, 0.5f, 0.125f});
  // A power of two is the plain geometric sequence 2^(-8h/H).
  const std::vector<float> eight = Slopes(8);
  for (size_t h = 0; h < 8; ++h) CHECK(eight[h] == std::ldexp(1.0f, -static_cast<int>(h + 1)));
}

// lab.alibiSlopes's form: the core checks heads (the bindings check nothing) and gives the slopes above.
TEST_CASE("ALiBi slopes for the API: heads checked by the core", "[model]") {
  REQUIRE(embedlab::AlibiSlopes(int64_t{4}) == std::vector<float>{0.25f, 0.0625f, 0.015625f, 0.00390625f});
  REQUIRE_THROWS_WITH(embedlab::AlibiSlopes(int64_t{0}), "heads must be an integer in [1, 16384], got 0");
}
