#include "training/long_context_data.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "errors/argument_checks.h"
#include "training/evaluation_windows.h"

namespace embedlab {

const char* LongContextTaskName(LongContextTask task) {
  switch (task) {
    case LongContextTask::kPasskey:
      return "passkey";
    case LongContextTask::kRecall:
      return "recall";
    case LongContextTask::kLanguage:
      return "language";
  }
  return "?";
}

LongContextTask ParseLongContextTask(const std::string& name) {
  std::string names;
  for (LongContextTask task : kLongContextTasks) {
    if (name == LongContextTaskName(task)) return task;
    names += std::string(names.empty() ? "" : ", ") + LongContextTaskName(task);
  }
  throw std::invalid_argument("task must be one of " + names + "; got \"" + name + "\"");
}

LongContextData::LongContextData(const LongContextTaskOptions& options, int64_t max_length)
    : options_(options),
      passkey_(options.passkey_digits),
      recall_(options.recall_keys, options.recall_values, "recallKeys", "recallValues") {
  if (options_.task == LongContextTask::kRecall && max_length > 2 * options_.recall_keys + 3) {
    throw std::out_of_range("recall keys must be at least (length - 3) / 2 = " + std::to_string((max_length - 3) / 2) +
                            " for distinct keys at length " + std::to_string(max_length) + ", got " +
                            std::to_string(options_.recall_keys));
  }
  if (options_.task != LongContextTask::kLanguage) return;
  if (!options_.corpus) throw std::invalid_argument("the language task needs a tokenized corpus");
  RequireInRange("vocabSize", options_.corpus_vocab, 2, kMaxVocabSize);
  const std::vector<int32_t>& corpus = *options_.corpus;
  for (size_t i = 0; i < corpus.size(); ++i) {
    if (corpus[i] < 0 || corpus[i] >= options_.corpus_vocab) {
      throw std::out_of_range("corpus[" + std::to_string(i) + "] must be a token id in [0, " +
                              std::to_string(options_.corpus_vocab) + "), got " + std::to_string(corpus[i]));
    }
  }
  held_out_start_ = corpus.size() - corpus.size() / 10;
  // Both parts must hold a window of the longest length read.
  const size_t needed = static_cast<size_t>(max_length) + 1;
  if (corpus.size() / 10 < needed || held_out_start_ < needed) {
    throw std::out_of_range("the corpus has " + std::to_string(corpus.size()) + " tokens; length " +
                            std::to_string(max_length) + " needs at least " + std::to_string(10 * needed) +
                            " (its last tenth is held out and must hold a window)");
  }
}

int64_t LongContextData::vocab_size() const {
  switch (options_.task) {
    case LongContextTask::kPasskey:
      return passkey_.vocab_size();
    case LongContextTask::kRecall:
      return recall_.vocab_size();
    case LongContextTask::kLanguage:
      break;
  }
  return options_.corpus_vocab;
}

int64_t LongContextData::min_length() const {
  if (options_.task == LongContextTask::kPasskey) return passkey_.min_length();
  return options_.task == LongContextTask::kRecall ? 4 : 1;
}

void LongContextData::TrainingBatch(Prng& prng, size_t rows, size_t length, int32_t* ids, int32_t* targets) const {
  for (size_t r = 0; r < rows; ++r) {
    int32_t* row_ids = ids + r * length;
    int32_t* row_targets = targets + r * length;
    if (options_.task == LongContextTask::kLanguage) {
      const size_t starts = held_out_start_ - length;  // windows [start, start + length] inside the training part
      const size_t start = static_cast<size_t>(prng.NextUniform() * static_cast<double>(starts));
      for (size_t t = 0; t < length; ++t) {
        row_ids[t] = (*options_.corpus)[start + t];
        row_targets[t] = (*options_.corpus)[start + t + 1];
      }
    } else if (options_.task == LongContextTask::kPasskey) {
      passkey_.Sample(prng, length, prng.NextUniform(), row_ids, row_targets);
    } else {
      recall_.Sample(prng, length, prng.NextUniform(), row_ids, row_targets);
    }
  }
}

void LongContextData::EvaluationBatch(Prng& prng, double depth, size_t rows, size_t length, std::vector<int32_t>& ids,
                                      std::vector<int32_t>& targets) const {
  ids.resize(rows * length);
  targets.resize(rows * length);
  if (options_.task == LongContextTask::kLanguage) {
    const std::vector<int32_t> held_out(options_.corpus->begin() + static_cast<std::ptrdiff_t>(held_out_start_),
                                        options_.corpus->end());
    EvenlySpacedWindows(held_out, rows, length, ids.data(), targets.data());
    return;
  }
  for (size_t r = 0; r < rows; ++r) {
    if (options_.task == LongContextTask::kPasskey) {
      passkey_.Sample(prng, length, depth, ids.data() + r * length, targets.data() + r * length);
    } else {
      recall_.Sample(prng, length, depth, ids.data() + r * length, targets.data() + r * length);
    }
  }
}

double LongContextData::EntropyFloor() const {
  return options_.task == LongContextTask::kLanguage ? std::numeric_limits<double>::quiet_NaN() : 0.0;
}

double LongContextData::ChanceLoss() const {
  if (options_.task == LongContextTask::kPasskey) return std::log(10.0);
  if (options_.task == LongContextTask::kRecall) return std::log(static_cast<double>(options_.recall_values));
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace embedlab
