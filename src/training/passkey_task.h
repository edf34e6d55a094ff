// Passkey retrieval (Mohtashami & Jaggi 2023; the test of Position Interpolation, YaRN and LongRoPE): a key of
// digits hidden in filler text at a chosen depth, asked for at the end. In token ids:
//   filler...  KEY d1 .. dk  filler...  QUERY d1 .. d(k-1)
// The filler is the PI paper's sentences ("the grass is green . the sky is blue . the sun is yellow . here we go .
// there and back again .") drawn one at a time at random, so it is varied but carries nothing to remember.
// Targets sit only on the answer: QUERY -> d1, d1 -> d2, ..., d(k-1) -> dk (teacher forcing). Given the
// context the answer is determined, so its entropy floor is 0; a model that cannot see the key is at chance,
// ln(10) per digit.
#ifndef EMBEDLAB_TRAINING_PASSKEY_TASK_H_
#define EMBEDLAB_TRAINING_PASSKEY_TASK_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "random/prng.h"

namespace embedlab {

class PasskeyTask {
 public:
  // Token ids: digits 0..9, then the filler words, then KEY ("the pass key is") and QUERY ("what is the pass
  // key?"). digits: the key's length k, in [1, 16].
  explicit PasskeyTask(int64_t digits);
  int64_t digits() const { return digits_; }
  int64_t vocab_size() const;
  int32_t key_marker() const;
  int32_t query_marker() const;
  // The shortest sequence that holds the key, the query and the answer (no filler): 2k + 1.
  int64_t min_length() const { return 2 * digits_ + 1; }
  // Throws std::out_of_range naming length unless it is in [min_length(), kMaxSequenceLength].
  void RequireLength(int64_t length) const;

  // Writes one sequence of `length` tokens into ids and its targets (-1 except on the answer). depth in [0, 1]
  // places KEY after round(depth * F) of the F filler tokens (0: the first token, 1: just before QUERY).
  // Returns the position of KEY. Throws std::out_of_range naming length or depth.
  size_t Sample(Prng& prng, size_t length, double depth, int32_t* ids, int32_t* targets) const;

  // "the grass is green . KEY 4 0 7 1 here we go . QUERY 4 0 7"
  std::string Describe(const int32_t* ids, size_t length) const;

 private:
  int64_t digits_;
};

}  // namespace embedlab

#endif  // EMBEDLAB_TRAINING_PASSKEY_TASK_H_
