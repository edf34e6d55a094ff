#include "training/order_task.h"

#include "errors/argument_checks.h"
#include "model/gpt.h"

namespace embedlab {
namespace {

const char* const kNounNames[] = {"dog",  "man",  "cat",   "child", "bird", "fox",   "horse", "woman",
                                  "fish", "king", "queen", "wolf",  "bear", "mouse", "owl",   "snake"};
const char* const kVerbNames[] = {"bites", "sees", "chases", "helps", "pushes", "follows", "calls", "feeds"};

}  // namespace

OrderTask::OrderTask(int64_t nouns, int64_t verbs) : nouns_(nouns), verbs_(verbs) {
  RequireInRange("nouns", nouns, 2, 1000);
  RequireInRange("verbs", verbs, 1, 1000);
}

void OrderTask::Sample(Prng& prng, size_t count, int32_t* ids, int32_t* targets) const {
  const uint32_t nouns = static_cast<uint32_t>(nouns_), verbs = static_cast<uint32_t>(verbs_);
  for (size_t s = 0; s < count; ++s) {
    const int32_t doer = static_cast<int32_t>(prng.NextU32() % nouns);
    // A second noun from the other nouns - 1, shifted past the first: uniform and never equal.
    int32_t receiver = static_cast<int32_t>(prng.NextU32() % (nouns - 1));
    if (receiver >= doer) ++receiver;
    const int32_t verb = static_cast<int32_t>(nouns + prng.NextU32() % verbs);
    const bool ask_who = (prng.NextU32() & 1u) != 0;
    int32_t* sentence = ids + s * kLength;
    int32_t* answer = targets + s * kLength;
    sentence[0] = doer;
    sentence[1] = verb;
    sentence[2] = receiver;
    sentence[3] = static_cast<int32_t>(nouns_ + verbs_ + (ask_who ? 0 : 1));
    answer[0] = answer[1] = answer[2] = -1;
    answer[3] = ask_who ? doer : receiver;
  }
}

std::string OrderTask::Describe(const int32_t* ids) const {
  std::string text;
  for (size_t i = 0; i < kLength; ++i) {
    const int64_t id = ids[i];
    if (!text.empty()) text += ' ';
    if (id < nouns_) {
      text += id < 16 ? kNounNames[id] : "noun" + std::to_string(id);
    } else if (id < nouns_ + verbs_) {
      text += id - nouns_ < 8 ? kVerbNames[id - nouns_] : "verb" + std::to_string(id - nouns_);
    } else {
      text += id == nouns_ + verbs_ ? "WHO?" : "WHOM?";
    }
  }
  return text;
}

OrderTaskResult TrainOrderTask(const OrderTask& task, OrderTaskRun run) {
  run.config.vocab_size = task.vocab_size();
  run.config.context_length = OrderTask::kLength;
  Gpt model(run.config);
  AdamW optimizer(model.parameters().size(), run.optimizer);
  Prng train_data(run.config.seed * 2 + 1);
  const size_t length = OrderTask::kLength;
  std::vector<int32_t> ids(run.batch * length), targets(run.batch * length);
  OrderTaskResult result{0.0f, 0.0f};
  for (size_t step = 0; step < run.steps; ++step) {
    task.Sample(train_data, run.batch, ids.data(), targets.data());
    result.final_loss = TrainStep(model, optimizer, ids.data(), targets.data(), run.batch, length);
  }
  Prng eval_data(run.config.seed * 2 + 2);
  ids.resize(run.eval_sentences * length);
  targets.resize(run.eval_sentences * length);
  task.Sample(eval_data, run.eval_sentences, ids.data(), targets.data());
  model.Forward(ids.data(), nullptr, run.eval_sentences, length);
  const size_t vocab = static_cast<size_t>(task.vocab_size());
  size_t correct = 0;
  for (size_t s = 0; s < run.eval_sentences; ++s) {
    const float* logits = model.logits().data() + (s * length + length - 1) * vocab;
    size_t best = 0;
    for (size_t v = 1; v < vocab; ++v) {
      if (logits[v] > logits[best]) best = v;
    }
    if (static_cast<int32_t>(best) == targets[s * length + length - 1]) ++correct;
  }
  result.accuracy = static_cast<float>(correct) / static_cast<float>(run.eval_sentences);
  return result;
}

}  // namespace embedlab
