#include "training/long_context_run.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "errors/argument_checks.h"
#include "training/long_context_limits.h"
#include "training/position_scores.h"

namespace embedlab {
namespace {

// Evaluation forwards hold at most this many tokens, so 8x-length attention maps stay small in wasm.
constexpr size_t kEvaluationTokens = 2048;

// Seeds for the streams of one run: training, fine-tuning at a length, evaluation at a (length, depth). They do
// not depend on the scheme, so every scheme of a seed is trained and tested on the same sequences.
uint64_t MixSeed(uint64_t seed, uint64_t salt) { return seed * 0x9E3779B97F4A7C15ull + salt; }

// The model's own refusal to read `length` tokens (learned positions end at T), or "".
std::string Refusal(Gpt& model, int64_t length) {
  if (static_cast<size_t>(length) <= model.max_length()) return "";
  std::vector<int32_t> ids(static_cast<size_t>(length), 0);
  try {
    model.Forward(ids.data(), nullptr, 1, static_cast<size_t>(length));
  } catch (const std::out_of_range& e) {
    return e.what();
  }
  return "";
}

}  // namespace

AdamWOptions LongContextRunner::Optimizer(double learning_rate) const {
  AdamWOptions options;
  options.learning_rate = static_cast<float>(learning_rate);
  options.weight_decay = static_cast<float>(spec_.weight_decay);
  return options;
}

LongContextRunner::LongContextRunner(LongContextSpec spec)
    : spec_(std::move(spec)), scheme_(ParseLongContextScheme(spec_.scheme)) {
  RequireInRange("trainLength", spec_.train_length, 1, kMaxSequenceLength);
  if (spec_.factors.empty()) throw std::out_of_range("factors must list at least one factor, got none");
  int64_t previous = 0;
  for (size_t i = 0; i < spec_.factors.size(); ++i) {
    RequireInRange("factors[" + std::to_string(i) + "]", spec_.factors[i], previous + 1,
                   kMaxSequenceLength / spec_.train_length);
    previous = spec_.factors[i];
  }
  const int64_t max_length = spec_.train_length * spec_.factors.back();
  data_ = std::make_unique<LongContextData>(spec_.task, max_length);
  RequireInRange("trainLength", spec_.train_length, data_->min_length(), kMaxSequenceLength);
  RequireInRange("steps", spec_.steps, 0, 10000000);
  RequireInRange("fineTuneSteps", spec_.fine_tune_steps, 0, 10000000);
  RequireInRange("batch", spec_.batch, 1, kMaxLongContextCount);
  RequireInRange("evalRows", spec_.eval_rows, 1, kMaxLongContextCount);
  RequireFiniteInRange("fineTuneLearningRate", spec_.fine_tune_learning_rate, 0.0, 10.0);
  if (data_->by_depth() && spec_.depths.empty()) throw std::out_of_range("depths must list at least one depth");
  for (size_t i = 0; i < spec_.depths.size(); ++i) {
    RequireFiniteInRange("depths[" + std::to_string(i) + "]", spec_.depths[i], 0.0, 1.0);
  }
  // No prefix: learningRate and weightDecay are longContextRun's own options.
  ValidateAdamWOptions(Optimizer(spec_.learning_rate), "");
  config_ = LongContextModelConfig(scheme_, spec_.model, spec_.train_length);
  config_.vocab_size = data_->vocab_size();
  ValidateGptConfig(config_, "");  // so are channels, layers and heads

  stages_.push_back({StageKind::kTrain, spec_.train_length, spec_.steps, false});
  for (int64_t factor : spec_.factors) stages_.push_back({StageKind::kEvaluate, spec_.train_length * factor, 1, false});
  if (spec_.fine_tune_steps > 0) {
    for (int64_t factor : spec_.factors) {
      if (factor == 1) continue;
      stages_.push_back({StageKind::kFineTune, spec_.train_length * factor, spec_.fine_tune_steps, true});
      stages_.push_back({StageKind::kEvaluate, spec_.train_length * factor, 1, true});
    }
  }
  for (const Stage& stage : stages_) total_ += stage.units;
}

void LongContextRunner::UseTrainedParameters(std::vector<float> parameters, double train_loss) {
  if (done_ > 0) throw std::invalid_argument("UseTrainedParameters must come before the run starts");
  if (parameters.size() != Gpt(config_).parameters().size()) {
    throw std::invalid_argument("the trained parameters have " + std::to_string(parameters.size()) +
                                " values; this run's model needs " + std::to_string(Gpt(config_).parameters().size()));
  }
  trained_ = std::move(parameters);
  result_.train_loss = train_loss;
  total_ -= stages_[0].units;
  stages_[0].units = 0;
}

const char* LongContextRunner::phase() const {
  if (stage_ >= stages_.size()) return "done";
  switch (stages_[stage_].kind) {
    case StageKind::kTrain:
      return "train";
    case StageKind::kFineTune:
      return "fine-tune";
    case StageKind::kEvaluate:
      break;
  }
  return "evaluate";
}

bool LongContextRunner::Advance(int64_t max_units) {
  for (int64_t unit = 0; unit < max_units && stage_ < stages_.size(); ++unit) RunUnit();
  return stage_ >= stages_.size();
}

// A model for `length`: a fresh one to train at T, else the trained parameters read with the scheme's scaling.
void LongContextRunner::StartModel(int64_t length, bool for_training) {
  model_ = std::make_unique<Gpt>(config_);
  if (!trained_.empty()) model_->parameters() = trained_;
  if (config_.positions == PositionScheme::kRope) {
    model_->SetRopeScaling(LongContextRopeScaling(scheme_, spec_.train_length, length));
  }
  if (!for_training) return;
  const bool fine_tuning = !trained_.empty();
  const bool own_rate = fine_tuning && spec_.fine_tune_learning_rate > 0.0;
  optimizer_ = std::make_unique<AdamW>(model_->parameters().size(),
                                       Optimizer(own_rate ? spec_.fine_tune_learning_rate : spec_.learning_rate));
  prng_ = std::make_unique<Prng>(MixSeed(config_.seed, fine_tuning ? 1000 + static_cast<uint64_t>(length) : 1));
}

void LongContextRunner::RunUnit() {
  Stage& stage = stages_[stage_];
  if (stage_done_ == 0 && stage.units > 0) {
    if (stage.kind == StageKind::kTrain) {
      StartModel(stage.length, true);
    } else if (stage.kind == StageKind::kFineTune) {
      StartModel(stage.length, true);
      refusal_ = Refusal(*model_, stage.length);
      refused_ = !refusal_.empty();
    } else if (!stage.fine_tuned) {
      StartModel(stage.length, false);
    }
  }
  if (stage.units > 0) {
    if (stage.kind == StageKind::kEvaluate) {
      LongContextReading reading;
      const std::string refusal = stage.fine_tuned && refused_ ? refusal_ : Refusal(*model_, stage.length);
      if (refusal.empty()) {
        reading = Evaluate(*model_, stage.length, stage.fine_tuned);
      } else {
        reading.length = stage.length;
        reading.fine_tuned = stage.fine_tuned;
        reading.available = false;
        reading.reason = refusal;
      }
      result_.readings.push_back(std::move(reading));
    } else if (!refused_ || stage.kind == StageKind::kTrain) {
      const size_t length = static_cast<size_t>(stage.length);
      const size_t rows = std::max<size_t>(1, static_cast<size_t>(spec_.batch * spec_.train_length) / length);
      std::vector<int32_t> ids(rows * length), targets(rows * length);
      data_->TrainingBatch(*prng_, rows, length, ids.data(), targets.data());
      const float loss = TrainStep(*model_, *optimizer_, ids.data(), targets.data(), rows, length);
      if (stage.kind == StageKind::kTrain) losses_.push_back(loss);
    }
  }
  const int64_t advanced = std::max<int64_t>(1, refused_ && stage.kind == StageKind::kFineTune ? stage.units : 1);
  stage_done_ += advanced;
  done_ += std::min(advanced, stage.units);
  if (stage_done_ < stage.units) return;
  if (stage.kind == StageKind::kTrain && stage.units == 0 && trained_.empty()) {
    trained_ = Gpt(config_).parameters();  // steps 0: the untrained model is the baseline
  } else if (stage.kind == StageKind::kTrain && stage.units > 0) {
    trained_ = model_->parameters();
    const size_t last = std::min<size_t>(50, losses_.size());
    double sum = 0.0;
    for (size_t i = losses_.size() - last; i < losses_.size(); ++i) sum += losses_[i];
    result_.train_loss = last == 0 ? 0.0 : sum / static_cast<double>(last);
  }
  if (stage.kind == StageKind::kEvaluate && stage.fine_tuned) refused_ = false;
  ++stage_;
  stage_done_ = 0;
}

LongContextReading LongContextRunner::Evaluate(Gpt& model, int64_t length, bool fine_tuned) {
  LongContextReading reading;
  reading.length = length;
  reading.fine_tuned = fine_tuned;
  const size_t columns = static_cast<size_t>(length), vocab = static_cast<size_t>(config_.vocab_size);
  const size_t rows = static_cast<size_t>(spec_.eval_rows);
  const size_t rows_per_forward = std::max<size_t>(1, kEvaluationTokens / columns);
  const std::vector<double> one_pass = {0.0};
  const std::vector<double>& depths = data_->by_depth() ? spec_.depths : one_pass;
  std::vector<int32_t> ids, targets;
  for (size_t d = 0; d < depths.size(); ++d) {
    Prng prng(MixSeed(config_.seed, 1000000 + static_cast<uint64_t>(length) * 64 + d));
    data_->EvaluationBatch(prng, depths[d], rows, columns, ids, targets);
    PositionScores scores;
    for (size_t start = 0; start < rows; start += rows_per_forward) {
      const size_t count = std::min(rows_per_forward, rows - start);
      model.Forward(ids.data() + start * columns, nullptr, count, columns);
      ScorePositions(model.logits().data(), targets.data() + start * columns, count, columns, vocab, scores);
    }
    if (!data_->by_depth()) {
      reading.loss_by_position.resize(columns);
      for (size_t t = 0; t < columns; ++t) {
        reading.loss_by_position[t] = scores.counted[t] == 0 ? std::nan("") : scores.loss_sum[t] / scores.counted[t];
      }
      continue;
    }
    double exact = 0.0, loss = 0.0;
    for (size_t r = 0; r < rows; ++r) {
      exact += scores.row_exact[r];
      loss += scores.row_loss[r];
    }
    reading.accuracy_by_depth.push_back(exact / static_cast<double>(rows));
    reading.loss_by_depth.push_back(loss / static_cast<double>(rows));
  }
  return reading;
}

LongContextResult RunLongContext(const LongContextSpec& spec) {
  LongContextRunner runner(spec);
  while (!runner.Advance(1000)) {
  }
  return runner.result();
}

}  // namespace embedlab
