// The data of the long-context experiment: one interface over its three tasks (passkey retrieval, associative
// recall, language modelling on a corpus) that yields training batches at any length and the fixed evaluation
// sets (per depth for the retrieval tasks, evenly spaced held-out windows for the corpus).
#ifndef EMBEDLAB_TRAINING_LONG_CONTEXT_DATA_H_
#define EMBEDLAB_TRAINING_LONG_CONTEXT_DATA_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "random/prng.h"
#include "training/passkey_task.h"
#include "training/recall_task.h"

namespace embedlab {

enum class LongContextTask { kPasskey, kRecall, kLanguage };

// Every task, in the order the API lists them (lab.longContextDefaults.tasks).
inline constexpr LongContextTask kLongContextTasks[] = {LongContextTask::kPasskey, LongContextTask::kRecall,
                                                        LongContextTask::kLanguage};

// "passkey", "recall", "language".
const char* LongContextTaskName(LongContextTask task);
// Throws std::invalid_argument listing the names otherwise.
LongContextTask ParseLongContextTask(const std::string& name);

// The member initializers are the experiment's defaults, defined here once (with LongContextSpec's): the native
// tool starts from them and the JS layer reads them at start-up (lab.longContextDefaults).
struct LongContextTaskOptions {
  LongContextTask task = LongContextTask::kPasskey;
  int64_t passkey_digits = 2;
  int64_t recall_keys = 256, recall_values = 16;
  // kLanguage: the tokenized corpus (its last tenth is held out for evaluation) and its vocabulary size.
  std::shared_ptr<const std::vector<int32_t>> corpus;
  int64_t corpus_vocab = 0;
};

// One sequence of a task (lab.passkeySample, lab.recallSample): ids, targets (-1 but on the answer) and the
// position of KEY (passkey) or of the queried key (recall).
struct LongContextSequence {
  std::vector<int32_t> ids, targets;
  size_t key_position = 0;
};

// A PasskeyTask's or RecallTask's sequence of `length` tokens at `depth` for a seed; the task checks length before
// anything is allocated, and depth.
template <typename Task>
LongContextSequence SampleSequence(const Task& task, int64_t length, double depth, uint64_t seed) {
  task.RequireLength(length);
  LongContextSequence sequence;
  sequence.ids.resize(static_cast<size_t>(length));
  sequence.targets.resize(sequence.ids.size());
  Prng prng(seed);
  sequence.key_position = task.Sample(prng, sequence.ids.size(), depth, sequence.ids.data(), sequence.targets.data());
  return sequence;
}

class LongContextData {
 public:
  // Throws std::out_of_range / std::invalid_argument naming a bad option (a corpus id outside
  // [0, corpus_vocab), a corpus too short for max_length).
  LongContextData(const LongContextTaskOptions& options, int64_t max_length);
  LongContextTask task() const { return options_.task; }
  int64_t vocab_size() const;
  // The shortest length the task fits in.
  int64_t min_length() const;
  // Whether the task is read by depth (passkey, recall) or by position (language).
  bool by_depth() const { return options_.task != LongContextTask::kLanguage; }

  // rows x length training ids and targets: retrieval rows at uniform random depths, or random corpus windows
  // from the training part.
  void TrainingBatch(Prng& prng, size_t rows, size_t length, int32_t* ids, int32_t* targets) const;
  // The fixed evaluation rows at one depth (retrieval tasks; prng seeded by the caller) or the `rows` held-out
  // windows spread evenly (language; depth and prng unused).
  void EvaluationBatch(Prng& prng, double depth, size_t rows, size_t length, std::vector<int32_t>& ids,
                       std::vector<int32_t>& targets) const;
  // The answer's entropy given the context: 0 for the retrieval tasks, NaN (none known) for language.
  double EntropyFloor() const;
  // Loss of a model that cannot find the answer: ln(10) per passkey digit, ln(values) for recall; NaN for
  // language.
  double ChanceLoss() const;

 private:
  LongContextTaskOptions options_;
  PasskeyTask passkey_;
  RecallTask recall_;
  size_t held_out_start_ = 0;
};

}  // namespace embedlab

#endif  // EMBEDLAB_TRAINING_LONG_CONTEXT_DATA_H_
