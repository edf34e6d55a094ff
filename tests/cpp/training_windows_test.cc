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
#include "training/random_uniforms.h"

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

// The ranges of lab.randomUniform, lab.corpusBatches and lab.evenlySpacedWindows are the core's alone (the bindings
// check nothing), and a shape past them is refused before anything is allocated.
TEST_CASE("uniforms and windows: the core checks counts and shapes before allocating", "[training]") {
  REQUIRE(embedlab::RandomUniforms(0, 7).empty());
  embedlab::Prng prng(7);
  const std::vector<double> uniforms = embedlab::RandomUniforms(3, 7);
  for (double u : uniforms) REQUIRE(u == prng.NextUniform());
  REQUIRE_THROWS_WITH(embedlab::RandomUniforms(embedlab::kMaxUniforms + 1, 0),
                      "count must be an integer in [0, 16777216], got 16777217");
  REQUIRE_THROWS_WITH(embedlab::RandomUniforms(-1, 0), "count must be an integer in [0, 16777216], got -1");
  std::vector<int32_t> ids, targets;
  REQUIRE_THROWS_WITH(embedlab::EvenlySpacedWindows(Counting(20), 70000, 2, ids, targets),
                      "batch must be an integer in [1, 65536], got 70000");
  REQUIRE_THROWS_WITH(embedlab::EvenlySpacedWindows(Counting(70000), 65536, 65536, ids, targets),
                      Catch::Contains("batch x length would hold 65536 x 65536"));
  REQUIRE(ids.empty());
  embedlab::EvenlySpacedWindows(Counting(20), 3, 4, ids, targets);
  REQUIRE(ids == std::vector<int32_t>{0, 1, 2, 3, 5, 6, 7, 8, 10, 11, 12, 13});
  REQUIRE_THROWS_WITH(embedlab::CorpusBatches(Counting(70000), 65536, 65536, 0),
                      Catch::Contains("batch x length would hold 65536 x 65536"));
}
