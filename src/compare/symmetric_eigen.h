// Eigenvalues and eigenvectors of a small dense symmetric matrix (cyclic Jacobi rotations, double precision):
// the Rayleigh-Ritz step of the principal components.
#ifndef EMBEDLAB_COMPARE_SYMMETRIC_EIGEN_H_
#define EMBEDLAB_COMPARE_SYMMETRIC_EIGEN_H_

#include <cstddef>
#include <vector>

namespace embedlab {

struct SymmetricEigen {
  std::vector<double> values;   // n eigenvalues, largest first (equal values keep index order)
  std::vector<double> vectors;  // n x n, row-major: column j is the unit eigenvector of values[j]
};

// matrix is n x n, row-major and symmetric (only its upper triangle is read). O(n^3) per sweep; a few sweeps
// reach double precision.
SymmetricEigen SymmetricEigenDecomposition(const std::vector<double>& matrix, size_t n);

}  // namespace embedlab

#endif  // EMBEDLAB_COMPARE_SYMMETRIC_EIGEN_H_
