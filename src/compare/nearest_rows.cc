#include "compare/nearest_rows.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "simd/vector_kernels.h"

namespace embedlab {

std::vector<RowCosine> NearestRows(const float* table, size_t rows, size_t dim, const float* query, size_t k,
                                   const std::vector<size_t>& skip) {
  if (dim == 0) throw std::out_of_range("dim must be at least 1, got 0");
  std::vector<bool> skipped(rows, false);
  for (const size_t row : skip) {
    if (row >= rows) {
      throw std::out_of_range("a skipped row must be in [0, " + std::to_string(rows) + "), got " + std::to_string(row));
    }
    skipped[row] = true;
  }
  std::vector<float> cosines(rows);
  simd::CosineSimilarityMatrix(query, 1, table, rows, dim, cosines.data());
  std::vector<RowCosine> candidates;
  candidates.reserve(rows);
  for (size_t row = 0; row < rows; ++row) {
    if (!skipped[row]) candidates.push_back({row, cosines[row]});
  }
  const size_t kept = std::min(k, candidates.size());
  // Only the best k are ordered: O(rows log k), which matters for a 400k-word GloVe file.
  std::partial_sort(candidates.begin(), candidates.begin() + kept, candidates.end(),
                    [](const RowCosine& a, const RowCosine& b) {
                      return a.cosine != b.cosine ? a.cosine > b.cosine : a.row < b.row;
                    });
  candidates.resize(kept);
  return candidates;
}

}  // namespace embedlab
