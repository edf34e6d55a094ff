// Training and evaluation windows of a token stream, and the seeded numbers behind them pinned to values
// an independent BigInt reference of splitmix64 + xoshiro128** computes (tests/node/batches.test.mjs pins
// the same values in wasm, so a seed gives the same batches natively and in the browser).
#include <catch2/catch.hpp>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "random/prng.h"
#include "training/corpus_batches.h"
#include "training/evaluation_windows.h"

namespace {

// Token i is i, so a window's first id is its start.
std::vector<int32_t> Counting(size_t n) {
  std::vector<int32_t> tokens(n);
  std::iota(tokens.begin(), tokens.end(), 0);
  return tokens;
}

}  // namespace

TEST_CASE("Prng: seed 7 gives the reference uniforms (53-bit numerators)", "[random]") {
  embedlab::Prng prng(7);
  const double scale = 9007199254740992.0;  // 2^53
  REQUIRE(prng.NextUniform() * scale == 3777173713491078.0);
  REQUIRE(prng.NextUniform() * scale == 6276358306508284.0);
  REQUIRE(prng.NextUniform() * scale == 4355904173978053.0);
  REQUIRE(prng.NextUniform() * scale == 6979584994824798.0);
}

TEST_CASE("corpus batches: seed 7 starts windows where the reference uniforms say", "[training]") {
  embedlab::CorpusBatches batches(Counting(100), 4, 8, 7);
  std::vector<int32_t> ids(32), targets(32);
  batches.Next(ids.data(), targets.data());
  const int32_t starts[] = {38, 64, 44, 71};  // floor(u * (100 - 8)) for the four uniforms above
  for (size_t b = 0; b < 4; ++b) {
    for (size_t t = 0; t < 8; ++t) {
      REQUIRE(ids[b * 8 + t] == starts[b] + static_cast<int32_t>(t));
      REQUIRE(targets[b * 8 + t] == starts[b] + static_cast<int32_t>(t) + 1);
    }
  }
}

TEST_CASE("evenly spaced windows start at multiples of (tokens - length - 1) / batch", "[training]") {
  std::vector<int32_t> ids(3 * 4), targets(3 * 4);
  embedlab::EvenlySpacedWindows(Counting(20), 3, 4, ids.data(), targets.data());
  // stride (20 - 4 - 1) / 3 = 5
  const std::vector<int32_t> expected_ids = {0, 1, 2, 3, 5, 6, 7, 8, 10, 11, 12, 13};
  const std::vector<int32_t> expected_targets = {1, 2, 3, 4, 6, 7, 8, 9, 11, 12, 13, 14};
  REQUIRE(ids == expected_ids);
  REQUIRE(targets == expected_targets);
}

TEST_CASE("evenly spaced windows: a stream just long enough gives windows at 0, and shorter is refused", "[training]") {
  std::vector<int32_t> ids(2 * 5), targets(2 * 5);
  embedlab::EvenlySpacedWindows(Counting(6), 2, 5, ids.data(), targets.data());
  REQUIRE(ids == std::vector<int32_t>{0, 1, 2, 3, 4, 0, 1, 2, 3, 4});
  REQUIRE(targets == std::vector<int32_t>{1, 2, 3, 4, 5, 1, 2, 3, 4, 5});
  REQUIRE_THROWS_AS(embedlab::EvenlySpacedWindows(Counting(5), 2, 5, ids.data(), targets.data()), std::out_of_range);
  REQUIRE_THROWS_AS(embedlab::EvenlySpacedWindows(Counting(6), 0, 5, ids.data(), targets.data()), std::out_of_range);
  REQUIRE_THROWS_AS(embedlab::EvenlySpacedWindows(Counting(6), 1, 0, ids.data(), targets.data()), std::out_of_range);
}
