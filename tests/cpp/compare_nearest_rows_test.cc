// Nearest rows by cosine against a double-precision reference: the same rows in the same order, cosines
// within the kernel tolerance, ties in row order, skipped rows left out.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "compare/nearest_rows.h"
#include "random_vectors.h"

namespace {

double ReferenceCosine(const float* a, const float* b, size_t n) {
  double dot = 0, aa = 0, bb = 0;
  for (size_t i = 0; i < n; ++i) {
    dot += double{a[i]} * b[i];
    aa += double{a[i]} * a[i];
    bb += double{b[i]} * b[i];
  }
  return aa > 0 && bb > 0 ? dot / std::sqrt(aa * bb) : 0.0;
}

}  // namespace

TEST_CASE("nearest rows: the k best cosines in order, like a sorted double reference", "[compare]") {
  const size_t rows = 300, dim = 24;
  const std::vector<float> table = RandomVector(rows * dim, 5);
  const std::vector<float> query = RandomVector(dim, 6);
  const std::vector<size_t> skip = {3, 17, 250};
  const auto found = embedlab::NearestRows(table.data(), rows, dim, query.data(), 10, skip);

  std::vector<std::pair<double, size_t>> reference;
  for (size_t r = 0; r < rows; ++r) {
    if (std::find(skip.begin(), skip.end(), r) == skip.end()) {
      reference.push_back({ReferenceCosine(query.data(), table.data() + r * dim, dim), r});
    }
  }
  std::sort(reference.begin(), reference.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  REQUIRE(found.size() == 10);
  for (size_t i = 0; i < 10; ++i) {
    INFO("rank " << i);
    CHECK(found[i].row == reference[i].second);
    CHECK(std::fabs(found[i].cosine - reference[i].first) <= 2e-6);
  }
}

TEST_CASE("nearest rows: ties keep row order, skips are left out, fewer than k when few remain", "[compare]") {
  // Rows 0, 2 and 3 point the same way as the query; row 1 is orthogonal.
  const std::vector<float> table = {1, 0, 0, 1, 2, 0, 3, 0};
  const float query[] = {1, 0};
  const auto found = embedlab::NearestRows(table.data(), 4, 2, query, 10, {2});
  REQUIRE(found.size() == 3);
  CHECK(found[0].row == 0);
  CHECK(found[1].row == 3);
  CHECK(found[2].row == 1);
  CHECK(found[2].cosine == 0.0f);
  CHECK(embedlab::NearestRows(table.data(), 4, 2, query, 0, {}).empty());
  REQUIRE_THROWS_AS(embedlab::NearestRows(table.data(), 4, 2, query, 1, {4}), std::out_of_range);
  REQUIRE_THROWS_AS(embedlab::NearestRows(table.data(), 4, 0, query, 1, {}), std::out_of_range);
}
