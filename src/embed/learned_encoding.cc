#include "embed/learned_encoding.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "embed/token_embedding.h"
#include "errors/argument_checks.h"
#include "text/decimal.h"

namespace embedlab {

LearnedEncoding::LearnedEncoding(int64_t max_length, int64_t dim, double seed, double stddev)
    : PositionalEncoding(dim, max_length) {
  const uint64_t checked_seed = RequireSeed("seed", seed);
  RequireFiniteInRange("stddev", stddev, 0.0, 100.0);
  table_.resize(max_length * dim);
  FillNormal(table_, stddev, checked_seed);
}

void LearnedEncoding::SetRow(int64_t position, const std::vector<float>& values) {
  RequireInRange("position", position, 0, static_cast<int64_t>(max_length()) - 1);
  RequireInRange("values.length", static_cast<int64_t>(values.size()), static_cast<int64_t>(dim()),
                 static_cast<int64_t>(dim()));
  for (size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i])) {
      throw std::out_of_range("values[" + std::to_string(i) + "] must be finite, got " + FormatShortest(values[i]));
    }
  }
  std::copy(values.begin(), values.end(), table_.begin() + position * dim());
}

void LearnedEncoding::WriteRows(size_t offset, size_t length, float* out) const {
  const auto first = table_.begin() + offset * dim();
  std::copy(first, first + length * dim(), out);
}

}  // namespace embedlab
