// Principal components of a table's rows (token embeddings, position embeddings): the directions of largest
// variance and each row's coordinates along them, for 2-D scatter plots of high-dimensional vectors.
#ifndef EMBEDLAB_COMPARE_PRINCIPAL_COMPONENTS_H_
#define EMBEDLAB_COMPARE_PRINCIPAL_COMPONENTS_H_

#include <cstddef>
#include <vector>

namespace embedlab {

struct PrincipalComponents {
  std::vector<double> components;   // count x cols, row-major: unit directions, largest variance first
  std::vector<double> variances;    // count: the variance of the rows along each component
  std::vector<double> projections;  // rows x count, row-major: each centred row's coordinates
};

// The first `count` principal components of values (rows x cols, row-major), in double precision. Signs are
// fixed so that each component's largest-magnitude entry (the first of equals) is positive, so plots do not
// flip between similar tables. A direction the rows do not vary along at all comes back as zeros.
// Subspace iteration on the smaller of the covariance (cols x cols) and the Gram matrix (rows x rows):
// O(rows * cols * min(rows, cols)) to form it, then O(min(rows, cols)^2 * count) per iteration.
// Throws std::out_of_range unless rows >= 1 and 1 <= count <= cols.
PrincipalComponents PrincipalComponentsOf(const float* values, size_t rows, size_t cols, size_t count);

}  // namespace embedlab

#endif  // EMBEDLAB_COMPARE_PRINCIPAL_COMPONENTS_H_
