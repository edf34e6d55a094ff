#include "compare/principal_components.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "compare/symmetric_eigen.h"
#include "random/prng.h"

namespace embedlab {
namespace {

// Subspace iteration converges at the rate (eigenvalue m + 1) / (eigenvalue wanted) per step with m = wanted
// + kExtraDirections: the extra directions keep that fast when the wanted variances are close.
constexpr size_t kExtraDirections = 8;
constexpr int kMaxIterations = 1000;
// A Ritz pair (theta, u) counts as found once |S u - theta u| <= kTolerance * the largest eigenvalue.
constexpr double kTolerance = 1e-11;
// Variances this far below the largest are rounding noise of a direction the rows do not vary along.
constexpr double kZeroVariance = 1e-13;

double Dot(const double* a, const double* b, size_t n) {
  double sum = 0.0;
  for (size_t i = 0; i < n; ++i) sum += a[i] * b[i];
  return sum;
}

// A column-major block of m vectors of length n.
struct Block {
  size_t n, m;
  std::vector<double> data;
  double* column(size_t j) { return &data[j * n]; }
  const double* column(size_t j) const { return &data[j * n]; }
};

// Modified Gram-Schmidt, twice for orthogonality at rounding level. A column with nothing left after removing
// the earlier ones (the matrix has fewer directions) becomes zero.
void Orthonormalize(Block& block) {
  double largest = 0.0;
  for (size_t j = 0; j < block.m; ++j) largest = std::max(largest, Dot(block.column(j), block.column(j), block.n));
  largest = std::sqrt(largest);
  for (size_t j = 0; j < block.m; ++j) {
    double* v = block.column(j);
    for (int pass = 0; pass < 2; ++pass) {
      for (size_t i = 0; i < j; ++i) {
        const double* u = block.column(i);
        const double d = Dot(u, v, block.n);
        for (size_t k = 0; k < block.n; ++k) v[k] -= d * u[k];
      }
    }
    const double norm = std::sqrt(Dot(v, v, block.n));
    const double scale = norm > 1e-13 * largest && norm > 0.0 ? 1.0 / norm : 0.0;
    for (size_t k = 0; k < block.n; ++k) v[k] *= scale;
  }
}

// block <- block * w (w is m x m, row-major).
void Combine(Block& block, const std::vector<double>& w) {
  std::vector<double> mixed(block.data.size(), 0.0);
  for (size_t j = 0; j < block.m; ++j) {
    for (size_t i = 0; i < block.m; ++i) {
      const double weight = w[i * block.m + j];
      if (weight == 0.0) continue;
      for (size_t k = 0; k < block.n; ++k) mixed[j * block.n + k] += weight * block.data[i * block.n + k];
    }
  }
  block.data.swap(mixed);
}

// The `wanted` leading eigenpairs of the symmetric n x n matrix s (row-major): eigenvalues, largest first, and
// the eigenvectors as the first `wanted` columns of the returned block. Subspace iteration from a fixed start
// (seeded normals, so a matrix always gives the same answer) with a Rayleigh-Ritz step each time.
std::vector<double> LeadingEigenpairs(const std::vector<double>& s, size_t n, size_t wanted, Block& vectors) {
  const size_t m = std::min(n, wanted + kExtraDirections);
  Block q{n, m, std::vector<double>(n * m)}, sq = q;
  Prng prng(1);
  for (double& v : q.data) v = prng.NextNormal();
  Orthonormalize(q);
  std::vector<double> ritz_values(m, 0.0), projected(m * m);
  for (int iteration = 0; iteration < kMaxIterations; ++iteration) {
    for (size_t j = 0; j < m; ++j) {
      for (size_t i = 0; i < n; ++i) sq.column(j)[i] = Dot(&s[i * n], q.column(j), n);
    }
    // Rayleigh-Ritz: the best approximations to s's eigenpairs within span(q).
    for (size_t i = 0; i < m; ++i) {
      for (size_t j = i; j < m; ++j) projected[i * m + j] = projected[j * m + i] = Dot(q.column(i), sq.column(j), n);
    }
    const SymmetricEigen eigen = SymmetricEigenDecomposition(projected, m);
    Combine(q, eigen.vectors);
    Combine(sq, eigen.vectors);
    ritz_values = eigen.values;
    const double largest = std::max(ritz_values[0], 0.0);
    bool converged = true;
    for (size_t j = 0; j < wanted && converged; ++j) {
      double residual = 0.0;
      for (size_t k = 0; k < n; ++k) {
        const double d = sq.column(j)[k] - ritz_values[j] * q.column(j)[k];
        residual += d * d;
      }
      converged = std::sqrt(residual) <= kTolerance * largest;
    }
    // With m == n the span is the whole space: Rayleigh-Ritz is then exact.
    if (converged || m == n) break;
    q = sq;
    Orthonormalize(q);
  }
  vectors = q;
  return ritz_values;
}

}  // namespace

PrincipalComponents PrincipalComponentsOf(const float* values, size_t rows, size_t cols, size_t count) {
  if (rows == 0) throw std::out_of_range("rows must be at least 1, got 0");
  if (count == 0 || count > cols) {
    throw std::out_of_range("count must be in [1, cols (" + std::to_string(cols) + ")], got " + std::to_string(count));
  }
  std::vector<double> mean(cols, 0.0), x(rows * cols);
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < cols; ++c) mean[c] += values[r * cols + c];
  }
  for (double& m : mean) m /= static_cast<double>(rows);
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < cols; ++c) x[r * cols + c] = values[r * cols + c] - mean[c];
  }

  // The covariance X^T X (cols x cols) and the Gram matrix X X^T (rows x rows) share their nonzero
  // eigenvalues; iterate on the smaller one. A Gram eigenvector w gives the component X^T w / sqrt(theta).
  const bool gram = rows < cols;
  const size_t n = gram ? rows : cols;
  std::vector<double> s(n * n);
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = i; j < n; ++j) {
      double sum = 0.0;
      if (gram) {
        sum = Dot(&x[i * cols], &x[j * cols], cols);
      } else {
        for (size_t r = 0; r < rows; ++r) sum += x[r * cols + i] * x[r * cols + j];
      }
      s[i * n + j] = s[j * n + i] = sum;
    }
  }
  const size_t found = std::min(count, n);  // beyond n the rows have no variance left
  Block eigenvectors{n, 0, {}};
  const std::vector<double> eigenvalues = LeadingEigenpairs(s, n, found, eigenvectors);

  PrincipalComponents result{std::vector<double>(count * cols), std::vector<double>(count),
                             std::vector<double>(rows * count)};
  const double largest = std::max(eigenvalues[0], 0.0);
  std::vector<double> u(cols);
  for (size_t j = 0; j < found; ++j) {
    // No variance (at rounding level) along this direction: the direction is arbitrary, so none is given.
    if (!(eigenvalues[j] > kZeroVariance * largest)) continue;
    const double* w = eigenvectors.column(j);
    if (gram) {
      std::fill(u.begin(), u.end(), 0.0);
      for (size_t r = 0; r < rows; ++r) {
        for (size_t c = 0; c < cols; ++c) u[c] += w[r] * x[r * cols + c];
      }
      const double norm = std::sqrt(Dot(u.data(), u.data(), cols));
      for (double& v : u) v /= norm;
    } else {
      std::copy(w, w + cols, u.begin());
    }
    size_t biggest = 0;
    for (size_t k = 1; k < cols; ++k) {
      if (std::fabs(u[k]) > std::fabs(u[biggest])) biggest = k;
    }
    const double sign = u[biggest] < 0 ? -1.0 : 1.0;
    for (size_t k = 0; k < cols; ++k) result.components[j * cols + k] = sign * u[k] + 0.0;  // + 0.0: no -0
    double sum_of_squares = 0.0;
    for (size_t r = 0; r < rows; ++r) {
      const double coordinate = Dot(&x[r * cols], &result.components[j * cols], cols);
      result.projections[r * count + j] = coordinate;
      sum_of_squares += coordinate * coordinate;
    }
    result.variances[j] = sum_of_squares / static_cast<double>(rows);
  }
  return result;
}

}  // namespace embedlab
