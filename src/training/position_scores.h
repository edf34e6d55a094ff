// Scores of a forward pass read per position and per sequence, in double: the cross-entropy at each target
// (the loss-by-position curve of the long-context papers) and, per sequence, whether every target was the
// argmax (teacher-forced exact match, which is greedy decoding's exact match: each answer token is the argmax
// given the right tokens before it).
#ifndef EMBEDLAB_TRAINING_POSITION_SCORES_H_
#define EMBEDLAB_TRAINING_POSITION_SCORES_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace embedlab {

struct PositionScores {
  std::vector<double> loss_sum;    // per position: sum over sequences of -ln p(target)
  std::vector<int64_t> counted;    // per position: sequences with a target there
  std::vector<double> row_loss;    // per sequence: mean loss over its targets (0 without targets)
  std::vector<uint8_t> row_exact;  // per sequence: 1 when every target is the (first) argmax
};

// logits: batch x length x vocab; targets: batch x length (-1 = none). Appends the batch's rows to scores and
// adds to its per-position sums (sized on first use to `length`). Throws std::invalid_argument if a later batch
// has another length.
void ScorePositions(const float* logits, const int32_t* targets, size_t batch, size_t length, size_t vocab,
                    PositionScores& scores);

}  // namespace embedlab

#endif  // EMBEDLAB_TRAINING_POSITION_SCORES_H_
