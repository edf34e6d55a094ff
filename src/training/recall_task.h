// Associative recall (the induction-head task of Olsson et al. 2022 and Zoology's MQAR, with one query):
// n key-value pairs with distinct keys, then QUERY and one of the keys; the target is its value.
//   [PAD]  k1 v1  k2 v2 ... kn vn  QUERY kq        (PAD only when the length is odd)
// The queried pair sits at a chosen depth, so accuracy can be read by distance, as for the passkey. Given the
// context the value is determined (entropy floor 0); a model that cannot find the pair is at chance, ln(values).
#ifndef EMBEDLAB_TRAINING_RECALL_TASK_H_
#define EMBEDLAB_TRAINING_RECALL_TASK_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "random/prng.h"

namespace embedlab {

class RecallTask {
 public:
  // Token ids: keys [0, keys), values [keys, keys + values), then QUERY and PAD. keys in [2,
  // kMaxLongContextCount] (a sequence holds at most `keys` pairs, since its keys are distinct), values too. The
  // names are the caller's in messages (lab.recallSample's keys and values, a run's recallKeys and recallValues).
  RecallTask(int64_t keys, int64_t values, const std::string& keys_name = "keys",
             const std::string& values_name = "values");
  int64_t keys() const { return keys_; }
  int64_t values() const { return values_; }
  int64_t vocab_size() const { return keys_ + values_ + 2; }
  int32_t query_marker() const { return static_cast<int32_t>(keys_ + values_); }
  int32_t pad() const { return static_cast<int32_t>(keys_ + values_ + 1); }
  // Pairs in a sequence of `length` tokens: (length - 2) / 2.
  static size_t Pairs(size_t length) { return (length - 2) / 2; }
  // Throws std::out_of_range naming length unless it is in [4, min(2 keys + 3, kMaxSequenceLength)].
  void RequireLength(int64_t length) const;

  // Writes one sequence (targets -1 except at the last position, whose target is the queried value). depth in
  // [0, 1] picks pair round(depth * (n - 1)) (0: the first pair, 1: the last). Returns the queried key's
  // position. Throws std::out_of_range naming length (in [4, 2 keys + 3]) or depth.
  size_t Sample(Prng& prng, size_t length, double depth, int32_t* ids, int32_t* targets) const;

 private:
  int64_t keys_, values_;
};

}  // namespace embedlab

#endif  // EMBEDLAB_TRAINING_RECALL_TASK_H_
