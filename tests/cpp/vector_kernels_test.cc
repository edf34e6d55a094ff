// Every kernel, on every Highway target this CPU supports, against the double-precision reference.
#include "simd/vector_kernels.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "every_target.h"
#include "random_vectors.h"
#include "reference_math.h"

namespace simd = embedlab::simd;

namespace {

// Sizes around every vector width (4, 8, 16 lanes, x4 unrolled) plus a long one.
const size_t kSizes[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 129, 1000, 4099};

}  // namespace

TEST_CASE("Add and ScaledAdd match the reference on every target") {
  OnEveryTarget([] {
    for (size_t n : kSizes) {
      const auto a = RandomVector(n, 1), b = RandomVector(n, 2);
      std::vector<float> sum(n), y = b;
      simd::Add(a.data(), b.data(), sum.data(), n);
      simd::ScaledAdd(0.37f, a.data(), y.data(), n);
      for (size_t i = 0; i < n; ++i) {
        // One float rounding of the exact result; MulAdd may fuse, so allow one more.
        REQUIRE(sum[i] == static_cast<float>(static_cast<double>(a[i]) + b[i]));
        const double expected = static_cast<double>(b[i]) + 0.37 * a[i];
        REQUIRE(std::fabs(y[i] - expected) <= 2.5e-7 * (std::fabs(b[i]) + std::fabs(0.37 * a[i])) + 1e-30);
      }
    }
  });
}

TEST_CASE("Dot, Norm and CosineSimilarity match the reference on every target") {
  OnEveryTarget([] {
    for (size_t n : kSizes) {
      const auto a = RandomVector(n, 3), b = RandomVector(n, 4);
      // Float summation error grows at most like n * eps * sum|a_i b_i|; in practice far less.
      const double bound = 1e-6 * (1 + std::sqrt(static_cast<double>(n))) * reference::AbsDot(a.data(), b.data(), n);
      REQUIRE(std::fabs(simd::Dot(a.data(), b.data(), n) - reference::Dot(a.data(), b.data(), n)) <= bound + 1e-30);
      const double norm = std::sqrt(reference::Dot(a.data(), a.data(), n));
      REQUIRE(std::fabs(simd::Norm(a.data(), n) - norm) <= 1e-6 * norm + 1e-30);
      REQUIRE(std::fabs(simd::CosineSimilarity(a.data(), b.data(), n) - reference::Cosine(a.data(), b.data(), n)) <=
              2e-6);
      if (n > 0) REQUIRE(std::fabs(simd::CosineSimilarity(a.data(), a.data(), n) - 1.0) <= 1e-6);
    }
  });
}

TEST_CASE("CosineSimilarity of a zero vector is 0, not NaN") {
  const std::vector<float> zero(9, 0.0f), one(9, 1.0f);
  REQUIRE(simd::CosineSimilarity(zero.data(), one.data(), 9) == 0.0f);
}

TEST_CASE("CosineSimilarityMatrix matches pairwise reference cosines on every target") {
  OnEveryTarget([] {
    for (size_t dim : {1, 3, 8, 17, 64}) {
      const size_t rows_a = 5, rows_b = 7;
      const auto a = RandomVector(rows_a * dim, 5), b = RandomVector(rows_b * dim, 6);
      std::vector<float> out(rows_a * rows_b);
      simd::CosineSimilarityMatrix(a.data(), rows_a, b.data(), rows_b, dim, out.data());
      for (size_t i = 0; i < rows_a; ++i)
        for (size_t j = 0; j < rows_b; ++j)
          REQUIRE(std::fabs(out[i * rows_b + j] - reference::Cosine(&a[i * dim], &b[j * dim], dim)) <= 2e-6);
    }
  });
}

TEST_CASE("SinCosInterleaved is within 3e-7 of double sin/cos on [-pi, pi] on every target") {
  OnEveryTarget([] {
    for (size_t n : kSizes) {
      std::vector<float> angles(n), out(2 * n);
      for (size_t i = 0; i < n; ++i) angles[i] = static_cast<float>(-M_PI + 2 * M_PI * i / std::max<size_t>(n, 1));
      simd::SinCosInterleaved(angles.data(), n, out.data());
      double worst = 0;
      for (size_t i = 0; i < n; ++i) {
        worst = std::max(worst, std::fabs(out[2 * i] - std::sin(static_cast<double>(angles[i]))));
        worst = std::max(worst, std::fabs(out[2 * i + 1] - std::cos(static_cast<double>(angles[i]))));
      }
      REQUIRE(worst <= 3e-7);
    }
  });
}

TEST_CASE("FirstNonFinite finds the first infinity or NaN, and Fill writes every element, on every target") {
  OnEveryTarget([] {
    const float specials[] = {INFINITY, -INFINITY, NAN, -NAN};
    for (size_t n : kSizes) {
      auto values = RandomVector(n, 5, 1e30);  // large finite values: their product with 0 is still 0
      REQUIRE(simd::FirstNonFinite(values.data(), n) == n);
      for (size_t at : {size_t{0}, n / 3, n / 2 + 1, n - 1}) {
        if (at >= n) continue;
        for (float special : specials) {
          auto copy = values;
          copy[at] = special;
          if (at + 1 < n) copy[n - 1] = NAN;  // a later one does not hide the first
          REQUIRE(simd::FirstNonFinite(copy.data(), n) == at);
        }
      }
      std::vector<float> filled(n + 1, 7.0f);
      simd::Fill(-0.5f, filled.data(), n);
      for (size_t i = 0; i < n; ++i) REQUIRE(filled[i] == -0.5f);
      REQUIRE(filled[n] == 7.0f);  // nothing past n
    }
  });
}
