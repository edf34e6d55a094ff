#include "compare/symmetric_eigen.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace embedlab {
namespace {

constexpr int kMaxSweeps = 100;

// Rotates columns p and q of the n x n row-major matrix m by (c, s): (m_p, m_q) <- (c m_p - s m_q, s m_p + c m_q).
void RotateColumns(std::vector<double>& m, size_t n, size_t p, size_t q, double c, double s) {
  for (size_t k = 0; k < n; ++k) {
    const double a = m[k * n + p], b = m[k * n + q];
    m[k * n + p] = c * a - s * b;
    m[k * n + q] = s * a + c * b;
  }
}

}  // namespace

SymmetricEigen SymmetricEigenDecomposition(const std::vector<double>& matrix, size_t n) {
  std::vector<double> a(n * n), v(n * n, 0.0);
  for (size_t i = 0; i < n; ++i) {
    v[i * n + i] = 1.0;
    for (size_t j = i; j < n; ++j) a[i * n + j] = a[j * n + i] = matrix[i * n + j];
  }
  double total = 0.0;
  for (const double x : a) total += x * x;
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    double off = 0.0;
    for (size_t p = 0; p < n; ++p) {
      for (size_t q = p + 1; q < n; ++q) off += a[p * n + q] * a[p * n + q];
    }
    // Off-diagonal mass at rounding level of the whole matrix: the diagonal holds the eigenvalues.
    if (off <= 1e-32 * total || off == 0.0) break;
    for (size_t p = 0; p < n; ++p) {
      for (size_t q = p + 1; q < n; ++q) {
        const double apq = a[p * n + q];
        if (apq == 0.0) continue;
        // The rotation that zeroes a_pq: t = tan(angle) is the smaller root of t^2 + 2 theta t - 1 = 0.
        const double theta = (a[q * n + q] - a[p * n + p]) / (2.0 * apq);
        const double t = (theta >= 0 ? 1.0 : -1.0) / (std::fabs(theta) + std::hypot(theta, 1.0));
        const double c = 1.0 / std::hypot(t, 1.0), s = t * c;
        RotateColumns(a, n, p, q, c, s);
        for (size_t k = 0; k < n; ++k) {  // then the rows: a <- J^T a J
          const double x = a[p * n + k], y = a[q * n + k];
          a[p * n + k] = c * x - s * y;
          a[q * n + k] = s * x + c * y;
        }
        a[p * n + q] = a[q * n + p] = 0.0;
        RotateColumns(v, n, p, q, c, s);
      }
    }
  }
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t i, size_t j) { return a[i * n + i] > a[j * n + j]; });
  SymmetricEigen result{std::vector<double>(n), std::vector<double>(n * n)};
  for (size_t j = 0; j < n; ++j) {
    result.values[j] = a[order[j] * n + order[j]];
    for (size_t k = 0; k < n; ++k) result.vectors[k * n + j] = v[k * n + order[j]];
  }
  return result;
}

}  // namespace embedlab
