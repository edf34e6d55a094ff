#include "training/position_scores.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace embedlab {

void ScorePositions(const float* logits, const int32_t* targets, size_t batch, size_t length, size_t vocab,
                    PositionScores& scores) {
  if (scores.loss_sum.empty()) {
    scores.loss_sum.assign(length, 0.0);
    scores.counted.assign(length, 0);
  } else if (scores.loss_sum.size() != length) {
    throw std::invalid_argument("ScorePositions: every batch must have length " +
                                std::to_string(scores.loss_sum.size()) + ", got " + std::to_string(length));
  }
  for (size_t b = 0; b < batch; ++b) {
    double row_sum = 0.0;
    size_t row_count = 0;
    bool exact = true;
    for (size_t t = 0; t < length; ++t) {
      const int32_t target = targets[b * length + t];
      if (target < 0) continue;
      const float* row = logits + (b * length + t) * vocab;
      size_t best = 0;
      double max = row[0];
      for (size_t v = 1; v < vocab; ++v) {
        if (row[v] > row[best]) best = v;
        if (row[v] > max) max = row[v];
      }
      double sum = 0.0;
      for (size_t v = 0; v < vocab; ++v) sum += std::exp(static_cast<double>(row[v]) - max);
      const double loss = std::log(sum) + max - static_cast<double>(row[target]);
      scores.loss_sum[t] += loss;
      scores.counted[t] += 1;
      row_sum += loss;
      ++row_count;
      exact = exact && static_cast<int32_t>(best) == target;
    }
    scores.row_loss.push_back(row_count == 0 ? 0.0 : row_sum / static_cast<double>(row_count));
    scores.row_exact.push_back(exact && row_count > 0 ? 1 : 0);
  }
}

}  // namespace embedlab
