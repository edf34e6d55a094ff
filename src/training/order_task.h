// The "who did what to whom" task: a sentence "noun_a verb noun_b" followed by a question token
// (WHO? = the doer, WHOM? = the one it was done to); the answer is noun_a or noun_b. Both nouns and the
// verb are the same bag of tokens in "dog bites man" and "man bites dog", so only word order decides
// the answer: a model that sees a bag (NoPE with bidirectional attention) is stuck at chance (50%).
#ifndef EMBEDLAB_TRAINING_ORDER_TASK_H_
#define EMBEDLAB_TRAINING_ORDER_TASK_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/adamw.h"
#include "model/gpt_config.h"
#include "random/prng.h"

namespace embedlab {

class OrderTask {
 public:
  // Token ids: nouns [0, nouns), verbs [nouns, nouns + verbs), then WHO? and WHOM?.
  OrderTask(int64_t nouns = 8, int64_t verbs = 4);
  int64_t vocab_size() const { return nouns_ + verbs_ + 2; }
  static constexpr size_t kLength = 4;  // noun verb noun question
  // Writes count sentences: ids (count x 4) and targets (count x 4, -1 except at the question, whose
  // target is the answer noun). The two nouns always differ.
  void Sample(Prng& prng, size_t count, int32_t* ids, int32_t* targets) const;
  // "dog bites man WHO?"
  std::string Describe(const int32_t* ids) const;

 private:
  int64_t nouns_, verbs_;
};

struct OrderTaskRun {
  GptConfig config;
  AdamWOptions optimizer;
  size_t steps = 300;
  size_t batch = 32;
  size_t eval_sentences = 1000;
};

struct OrderTaskResult {
  float final_loss;
  float accuracy;  // on fresh sentences from another seed
};

// Trains a fresh model (config.vocab_size and context_length are set from the task) and evaluates it.
OrderTaskResult TrainOrderTask(const OrderTask& task, OrderTaskRun run);

}  // namespace embedlab

#endif  // EMBEDLAB_TRAINING_ORDER_TASK_H_
