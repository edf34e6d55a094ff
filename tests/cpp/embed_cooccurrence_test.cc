// GloVe's co-occurrence counts (embed/cooccurrence_counts.h) on hand-made sequences, worked out by hand from
// cooccur.c's rule: a pair d positions apart (d <= window) adds 1/d to both X[a][b] and X[b][a].
#include <catch2/catch.hpp>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "embed/cooccurrence_counts.h"
#include "random/prng.h"

using embedlab::CountCooccurrences;

namespace {

std::vector<std::tuple<uint32_t, uint32_t, double>> Entries(const embedlab::Cooccurrences& table) {
  std::vector<std::tuple<uint32_t, uint32_t, double>> entries;
  for (size_t i = 0; i < table.size(); ++i) entries.emplace_back(table.rows[i], table.cols[i], table.values[i]);
  return entries;
}

}  // namespace

TEST_CASE("co-occurrences: 1/distance, symmetric, within the window, sorted by (row, col)", "[glove]") {
  // 0 1 2 0, window 2: (0,1) at 1 and (1,0) at 2 -> 1.5 both ways; (0,2) at 2 and (2,0) at 1 -> 1.5;
  // (1,2) at 1 -> 1; the two 0s are 3 apart, beyond the window.
  const auto table = CountCooccurrences({0, 1, 2, 0}, 3, 2);
  const std::vector<std::tuple<uint32_t, uint32_t, double>> expected = {{0, 1, 1.5}, {0, 2, 1.5}, {1, 0, 1.5},
                                                                        {1, 2, 1.0}, {2, 0, 1.5}, {2, 1, 1.0}};
  REQUIRE(Entries(table) == expected);
  // Window 3 reaches the two 0s: X[0][0] gets 1/3 from each direction.
  const auto wider = CountCooccurrences({0, 1, 2, 0}, 3, 3);
  REQUIRE(wider.rows[0] == 0);
  REQUIRE(wider.cols[0] == 0);
  REQUIRE(wider.values[0] == Approx(2.0 / 3.0));
}

TEST_CASE("co-occurrences: a token beside itself adds 2/distance to its diagonal and short inputs count nothing",
          "[glove]") {
  const auto table = CountCooccurrences({4, 4, 1}, 5, 1);
  const std::vector<std::tuple<uint32_t, uint32_t, double>> expected = {{1, 4, 1.0}, {4, 1, 1.0}, {4, 4, 2.0}};
  REQUIRE(Entries(table) == expected);
  REQUIRE(CountCooccurrences({}, 5, 10).size() == 0);
  REQUIRE(CountCooccurrences({3}, 5, 10).size() == 0);
}

TEST_CASE("co-occurrences: every distance up to the window weighs 1/d, none beyond", "[glove]") {
  // Token 1 at position 0, token 2 at positions 1..12: X[1][2] = Σ_{d=1..window} 1/d.
  std::vector<int32_t> ids(13, 2);
  ids[0] = 1;
  for (int64_t window : {1, 5, 10, 12}) {
    const auto table = CountCooccurrences(ids, 3, window);
    double harmonic = 0;
    for (int64_t d = 1; d <= window; ++d) harmonic += 1.0 / static_cast<double>(d);
    REQUIRE(table.rows[0] == 1);
    REQUIRE(table.cols[0] == 2);
    REQUIRE(table.values[0] == Approx(harmonic).epsilon(1e-15));
    REQUIRE(table.rows[1] == 2);
    REQUIRE(table.cols[1] == 1);
    REQUIRE(table.values[1] == Approx(harmonic).epsilon(1e-15));
  }
}

TEST_CASE("co-occurrences: the dense table (small vocabularies) and the hash (large ones) agree with a map count",
          "[glove]") {
  for (int64_t vocab : {50, 2048, 2049, 30000}) {  // 2048² cells is the dense table's largest
    embedlab::Prng prng(static_cast<uint64_t>(vocab));
    std::vector<int32_t> ids(20000);
    // Half the ids from the first 20 tokens, so pairs repeat and sums build up, as in text.
    for (int32_t& id : ids) id = static_cast<int32_t>(prng.NextU32() % (prng.NextU32() % 2 ? 20 : vocab));
    std::map<std::pair<uint32_t, uint32_t>, double> expected;
    for (size_t j = 0; j < ids.size(); ++j) {
      for (size_t k = j >= 5 ? j - 5 : 0; k < j; ++k) {
        const auto a = static_cast<uint32_t>(ids[k]), b = static_cast<uint32_t>(ids[j]);
        expected[{a, b}] += 1.0 / static_cast<double>(j - k);
        expected[{b, a}] += 1.0 / static_cast<double>(j - k);
      }
    }
    const auto table = CountCooccurrences(ids, vocab, 5);
    INFO("vocabSize " << vocab);
    REQUIRE(table.size() == expected.size());
    size_t i = 0;
    for (const auto& [pair, value] : expected) {
      REQUIRE(table.rows[i] == pair.first);
      REQUIRE(table.cols[i] == pair.second);
      REQUIRE(table.values[i] == Approx(value).epsilon(1e-14));
      ++i;
    }
  }
}

TEST_CASE("co-occurrences: ids and window are checked, by their JS names", "[glove]") {
  REQUIRE_THROWS_WITH(CountCooccurrences({0, 7, 1}, 7, 2), "ids[1] must be a token id in [0, 6] (vocabSize 7), got 7");
  REQUIRE_THROWS_WITH(CountCooccurrences({0, -1}, 7, 2), "ids[1] must be a token id in [0, 6] (vocabSize 7), got -1");
  REQUIRE_THROWS_WITH(CountCooccurrences({0, 1}, 7, 0), "window must be an integer in [1, 1000], got 0");
  REQUIRE_THROWS_WITH(CountCooccurrences({0, 1}, 0, 2), "vocabSize must be an integer in [1, 2097152], got 0");
  REQUIRE_THROWS_AS(CountCooccurrences({0, 1}, 7, 1001), std::out_of_range);
}

TEST_CASE("co-occurrences: more distinct pairs than the table holds is refused with the limit", "[glove][slow]") {
  // 450,000 random ids over 100,000 tokens, window 10: about 9 million distinct pairs, past 2^23 = 8,388,608.
  embedlab::Prng prng(5);
  std::vector<int32_t> ids(450000);
  for (int32_t& id : ids) id = static_cast<int32_t>(prng.NextU32() % 100000);
  REQUIRE_THROWS_WITH(CountCooccurrences(ids, 100000, 10),
                      "the co-occurrence table of ids would hold more than 8388608 distinct (word, context) pairs: "
                      "use fewer ids, a smaller window or a smaller vocabSize");
}
