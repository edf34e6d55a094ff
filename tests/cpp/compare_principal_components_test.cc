// Principal components against what defines them, checked on the explicitly formed covariance C = X^T X / rows
// of the centred rows: C u = variance * u for each component, unit and orthogonal components, variances in
// decreasing order that add up to the total variance when every component is asked for, projections = X u,
// and the sign convention. The Jacobi eigen solver behind the Rayleigh-Ritz step is checked on its own.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "compare/principal_components.h"
#include "compare/symmetric_eigen.h"
#include "random_vectors.h"

namespace {

std::vector<double> Centred(const std::vector<float>& values, size_t rows, size_t cols) {
  std::vector<double> x(values.begin(), values.end());
  for (size_t c = 0; c < cols; ++c) {
    double mean = 0;
    for (size_t r = 0; r < rows; ++r) mean += x[r * cols + c] / rows;
    for (size_t r = 0; r < rows; ++r) x[r * cols + c] -= mean;
  }
  return x;
}

std::vector<double> Covariance(const std::vector<double>& x, size_t rows, size_t cols) {
  std::vector<double> cov(cols * cols, 0.0);
  for (size_t r = 0; r < rows; ++r) {
    for (size_t a = 0; a < cols; ++a) {
      for (size_t b = 0; b < cols; ++b) cov[a * cols + b] += x[r * cols + a] * x[r * cols + b] / rows;
    }
  }
  return cov;
}

// Rows with a clear spectrum: column c scaled by 1 / (c + 1), then mixed by a fixed rotation-like matrix.
std::vector<float> SpreadRows(size_t rows, size_t cols, uint64_t seed) {
  const std::vector<float> noise = RandomVector(rows * cols, seed), mix = RandomVector(cols * cols, seed + 1);
  std::vector<float> values(rows * cols, 0.0f);
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < cols; ++c) {
      for (size_t k = 0; k < cols; ++k) values[r * cols + c] += noise[r * cols + k] / (k + 1.0f) * mix[k * cols + c];
    }
  }
  return values;
}

void CheckComponents(const std::vector<float>& values, size_t rows, size_t cols, size_t count) {
  const embedlab::PrincipalComponents pca = embedlab::PrincipalComponentsOf(values.data(), rows, cols, count);
  REQUIRE(pca.components.size() == count * cols);
  REQUIRE(pca.projections.size() == rows * count);
  const std::vector<double> x = Centred(values, rows, cols), cov = Covariance(x, rows, cols);
  double total = 0;
  for (size_t c = 0; c < cols; ++c) total += cov[c * cols + c];
  double explained = 0;
  for (size_t j = 0; j < count; ++j) {
    const double* u = &pca.components[j * cols];
    for (size_t i = 0; i <= j; ++i) {
      double dot = 0;
      for (size_t c = 0; c < cols; ++c) dot += u[c] * pca.components[i * cols + c];
      REQUIRE(std::fabs(dot - (i == j ? 1.0 : 0.0)) < 1e-9);
    }
    for (size_t a = 0; a < cols; ++a) {
      double cu = 0;
      for (size_t b = 0; b < cols; ++b) cu += cov[a * cols + b] * u[b];
      REQUIRE(std::fabs(cu - pca.variances[j] * u[a]) < 1e-8 * total);
    }
    if (j > 0) REQUIRE(pca.variances[j] <= pca.variances[j - 1] * (1 + 1e-12));
    const auto biggest = std::max_element(u, u + cols, [](double p, double q) { return std::fabs(p) < std::fabs(q); });
    REQUIRE(*biggest > 0);
    for (size_t r = 0; r < rows; ++r) {
      double coordinate = 0;
      for (size_t c = 0; c < cols; ++c) coordinate += x[r * cols + c] * u[c];
      REQUIRE(std::fabs(pca.projections[r * count + j] - coordinate) < 1e-9 * std::sqrt(total) * cols);
    }
    explained += pca.variances[j];
  }
  if (count == cols) REQUIRE(std::fabs(explained - total) < 1e-9 * total);
}

}  // namespace

TEST_CASE("symmetric eigen: A v = lambda v, orthonormal vectors, largest first", "[compare]") {
  for (const size_t n : {size_t{1}, size_t{2}, size_t{7}, size_t{30}}) {
    const std::vector<float> r = RandomVector(n * n, n);
    std::vector<double> a(n * n);
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = 0; j < n; ++j) a[i * n + j] = double{r[i * n + j]} + r[j * n + i];
    }
    const embedlab::SymmetricEigen eigen = embedlab::SymmetricEigenDecomposition(a, n);
    for (size_t j = 0; j < n; ++j) {
      if (j > 0) REQUIRE(eigen.values[j] <= eigen.values[j - 1]);
      for (size_t i = 0; i < n; ++i) {
        double av = 0, vv = 0;
        for (size_t k = 0; k < n; ++k) {
          av += a[i * n + k] * eigen.vectors[k * n + j];
          vv += eigen.vectors[k * n + i] * eigen.vectors[k * n + j];
        }
        REQUIRE(std::fabs(av - eigen.values[j] * eigen.vectors[i * n + j]) < 1e-10 * n);
        REQUIRE(std::fabs(vv - (i == j ? 1.0 : 0.0)) < 1e-12 * n);
      }
    }
  }
  // Repeated eigenvalues of a diagonal matrix: values sorted, equal ones in index order.
  const embedlab::SymmetricEigen diagonal = embedlab::SymmetricEigenDecomposition({1, 0, 0, 0, 3, 0, 0, 0, 3}, 3);
  REQUIRE(diagonal.values == std::vector<double>{3, 3, 1});
  REQUIRE(diagonal.vectors == std::vector<double>{0, 0, 1, 1, 0, 0, 0, 1, 0});
}

TEST_CASE("principal components are the covariance's leading eigenvectors", "[compare]") {
  CheckComponents(SpreadRows(200, 12, 3), 200, 12, 2);
  CheckComponents(SpreadRows(200, 12, 4), 200, 12, 12);
  CheckComponents(SpreadRows(40, 64, 5), 40, 64, 3);  // fewer rows than columns
  CheckComponents(RandomVector(300, 6), 30, 10, 4);   // close variances: plain noise
  CheckComponents(SpreadRows(5, 3, 7), 5, 3, 1);
}

TEST_CASE("principal components of degenerate tables", "[compare]") {
  // Identical rows: no variance at all, so no direction and zero coordinates.
  const std::vector<float> same = {1, 2, 3, 1, 2, 3, 1, 2, 3};
  const embedlab::PrincipalComponents flat = embedlab::PrincipalComponentsOf(same.data(), 3, 3, 2);
  REQUIRE(flat.components == std::vector<double>(6, 0.0));
  REQUIRE(flat.variances == std::vector<double>(2, 0.0));
  REQUIRE(flat.projections == std::vector<double>(6, 0.0));
  // One row.
  REQUIRE(embedlab::PrincipalComponentsOf(same.data(), 1, 3, 2).projections == std::vector<double>(2, 0.0));
  // Rows on a line through (1, 2, 2) / 3: one component along it, the second with no variance.
  std::vector<float> line;
  for (const float t : {-2.0f, 0.5f, 1.0f, 4.0f}) line.insert(line.end(), {t, 2 * t, 2 * t});
  const embedlab::PrincipalComponents pca = embedlab::PrincipalComponentsOf(line.data(), 4, 3, 2);
  REQUIRE(pca.components[0] == Approx(1.0 / 3));
  REQUIRE(pca.components[1] == Approx(2.0 / 3));
  REQUIRE(pca.components[2] == Approx(2.0 / 3));
  REQUIRE(pca.variances[1] == 0.0);
  REQUIRE(pca.projections[0] == Approx(-2.0 * 3 - 0.875 * 3));  // (t - mean t) * |(1, 2, 2)|
  CheckComponents(line, 4, 3, 1);
  // Two rows in five columns (the Gram path): one direction, the difference of the rows; more components are zeros.
  const std::vector<float> two = {1, 0, 0, 2, 0, 0, 3, 0, 0, 0};
  const embedlab::PrincipalComponents pair = embedlab::PrincipalComponentsOf(two.data(), 2, 5, 3);
  const double difference = std::sqrt(1 + 9 + 4.0);
  REQUIRE(pair.components[0] == Approx(-1 / difference));
  REQUIRE(pair.components[1] == Approx(3 / difference));
  REQUIRE(pair.components[3] == Approx(-2 / difference));
  REQUIRE(pair.variances[0] == Approx(difference * difference / 4));
  REQUIRE(std::vector<double>(pair.components.begin() + 5, pair.components.end()) == std::vector<double>(10, 0.0));
  REQUIRE(pair.projections[0] == Approx(-difference / 2));
  REQUIRE_THROWS_AS(embedlab::PrincipalComponentsOf(same.data(), 3, 3, 4), std::out_of_range);
  REQUIRE_THROWS_AS(embedlab::PrincipalComponentsOf(same.data(), 3, 3, 0), std::out_of_range);
  REQUIRE_THROWS_AS(embedlab::PrincipalComponentsOf(same.data(), 0, 3, 1), std::out_of_range);
}
