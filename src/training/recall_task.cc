#include "training/recall_task.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "errors/argument_checks.h"
#include "training/long_context_limits.h"

namespace embedlab {

RecallTask::RecallTask(int64_t keys, int64_t values, const std::string& keys_name, const std::string& values_name)
    : keys_(keys), values_(values) {
  RequireInRange(keys_name, keys, 2, kMaxLongContextCount);
  RequireInRange(values_name, values, 2, kMaxLongContextCount);
}

void RecallTask::RequireLength(int64_t length) const {
  RequireInRange("length", length, 4, std::min<int64_t>(2 * keys_ + 3, kMaxSequenceLength));
}

size_t RecallTask::Sample(Prng& prng, size_t length, double depth, int32_t* ids, int32_t* targets) const {
  RequireLength(static_cast<int64_t>(length));
  RequireFiniteInRange("depth", depth, 0.0, 1.0);
  const size_t pairs = Pairs(length);
  // n distinct keys: the first n of a partial Fisher-Yates shuffle of [0, keys).
  std::vector<int32_t> deck(static_cast<size_t>(keys_));
  for (size_t i = 0; i < deck.size(); ++i) deck[i] = static_cast<int32_t>(i);
  for (size_t i = 0; i < pairs; ++i) {
    const size_t j = i + static_cast<size_t>(prng.NextU32() % static_cast<uint32_t>(deck.size() - i));
    std::swap(deck[i], deck[j]);
  }
  const size_t queried = static_cast<size_t>(std::floor(depth * static_cast<double>(pairs - 1) + 0.5));
  size_t position = 0;
  for (size_t i = 0; i < length; ++i) targets[i] = -1;
  if (length % 2 == 1) ids[position++] = pad();
  const size_t first_pair = position;
  int32_t answer = 0;
  for (size_t p = 0; p < pairs; ++p) {
    const int32_t value = static_cast<int32_t>(keys_ + prng.NextU32() % static_cast<uint32_t>(values_));
    ids[position++] = deck[p];
    ids[position++] = value;
    if (p == queried) answer = value;
  }
  ids[position++] = query_marker();
  ids[position] = deck[queried];
  targets[position] = answer;
  return first_pair + 2 * queried;
}

}  // namespace embedlab
