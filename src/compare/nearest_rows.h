// Nearest neighbours by cosine: the rows of a table (word vectors, a model's token embeddings) that point
// most nearly the way a query vector does.
#ifndef EMBEDLAB_COMPARE_NEAREST_ROWS_H_
#define EMBEDLAB_COMPARE_NEAREST_ROWS_H_

#include <cstddef>
#include <vector>

namespace embedlab {

struct RowCosine {
  size_t row = 0;
  float cosine = 0.0f;
};

// The k rows of table (rows x dim, row-major) with the largest cosine to query (dim floats), best first;
// equal cosines keep row order. Rows listed in skip are left out; fewer than k come back when fewer remain.
// Throws std::out_of_range for dim 0 or a skipped row past the table.
std::vector<RowCosine> NearestRows(const float* table, size_t rows, size_t dim, const float* query, size_t k,
                                   const std::vector<size_t>& skip);

}  // namespace embedlab

#endif  // EMBEDLAB_COMPARE_NEAREST_ROWS_H_
