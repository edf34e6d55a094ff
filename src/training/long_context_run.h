// One run of the long-context experiment: one scheme, one seed. Train a fresh model at train_length T, read it
// zero-shot at T * factor for every factor, then (PI's protocol) fine-tune a copy briefly at each longer length
// and read it again. Runs are independent, so a page can run them in parallel workers. Work advances in small
// units (one optimizer step or one evaluation), so a caller can report progress and stop between them.
#ifndef EMBEDLAB_TRAINING_LONG_CONTEXT_RUN_H_
#define EMBEDLAB_TRAINING_LONG_CONTEXT_RUN_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/adamw.h"
#include "model/gpt.h"
#include "model/gpt_config.h"
#include "training/long_context_data.h"
#include "training/long_context_schemes.h"

namespace embedlab {

// The experiment's tiny GPT: GptConfig's defaults but 64 channels and 4 heads.
inline GptConfig LongContextModelDefaults() {
  GptConfig config;
  config.channels = 64;
  config.heads = 4;
  return config;
}

// The member initializers (with LongContextTaskOptions') are the experiment's defaults, defined here once: the
// native tool (tools/embedlab_long_context.cc) starts from a default LongContextSpec, and the JS layer reads them
// at start-up (lab.longContextDefaults) to complete the options a caller leaves out, as the CLI does its help.
struct LongContextSpec {
  LongContextTaskOptions task;
  std::string scheme = "rope";
  GptConfig model = LongContextModelDefaults();  // channels, layers, heads, seed; positions, vocab_size: the run's
  int64_t train_length = 64;
  std::vector<int64_t> factors = {1, 2, 4, 8};
  int64_t steps = 1500;           // training at train_length
  int64_t fine_tune_steps = 100;  // per longer length; 0: zero-shot only
  int64_t batch = 16;             // rows at train_length; fine-tuning keeps batch * train_length tokens per step
  double learning_rate = 3e-3;    // AdamW's, with its other options' defaults (model/adamw.h)
  double weight_decay = 0.0;
  double fine_tune_learning_rate = 3e-4;                     // 0: the training learning rate
  std::vector<double> depths = {0.0, 0.25, 0.5, 0.75, 1.0};  // retrieval tasks
  int64_t eval_rows = 32;                                    // per depth (retrieval) or held-out windows (language)
};

// The seeds an experiment runs when none are given (lab.longContextExperiment, the CLI, the native tool).
inline constexpr uint64_t kLongContextSeeds[] = {0, 1, 2};

// One (length, zero-shot or fine-tuned) cell.
struct LongContextReading {
  int64_t length = 0;
  bool fine_tuned = false;
  bool available = true;
  std::string reason;                     // why not available (learned positions past T)
  std::vector<double> loss_by_position;   // language: mean loss at each position 0..length-1
  std::vector<double> accuracy_by_depth;  // retrieval: exact-match answers, one per depth
  std::vector<double> loss_by_depth;      // retrieval: mean answer loss, one per depth
};

struct LongContextResult {
  double train_loss = 0.0;  // mean of the last 50 (or fewer) training losses
  std::vector<LongContextReading> readings;
};

class LongContextRunner {
 public:
  // Checks the spec (throws std::out_of_range / std::invalid_argument naming the field).
  explicit LongContextRunner(LongContextSpec spec);
  // Starts from parameters trained by another runner of the same spec but another scheme of the same model
  // (the RoPE rows): training is skipped. Call before the first Advance.
  void UseTrainedParameters(std::vector<float> parameters, double train_loss);

  // Runs up to max_units units of work; returns true when the run is complete.
  bool Advance(int64_t max_units);
  int64_t done() const { return done_; }
  int64_t total() const { return total_; }
  // "train", "evaluate", "fine-tune" or "done".
  const char* phase() const;
  const LongContextResult& result() const { return result_; }
  // The trained parameters (after the training stage).
  const std::vector<float>& trained_parameters() const { return trained_; }
  const LongContextSpec& spec() const { return spec_; }
  double entropy_floor() const { return data_->EntropyFloor(); }
  double chance_loss() const { return data_->ChanceLoss(); }

 private:
  enum class StageKind { kTrain, kEvaluate, kFineTune };
  struct Stage {
    StageKind kind;
    int64_t length;
    int64_t units;
    bool fine_tuned;  // kEvaluate: reads the model the preceding kFineTune stage trained
  };
  // AdamW's defaults with the spec's weight decay and this learning rate.
  AdamWOptions Optimizer(double learning_rate) const;
  void RunUnit();
  void StartModel(int64_t length, bool for_training);
  LongContextReading Evaluate(Gpt& model, int64_t length, bool fine_tuned);

  LongContextSpec spec_;
  LongContextScheme scheme_;
  GptConfig config_;
  std::unique_ptr<LongContextData> data_;
  std::vector<Stage> stages_;
  size_t stage_ = 0;
  int64_t stage_done_ = 0, done_ = 0, total_ = 0;
  std::unique_ptr<Gpt> model_;
  std::unique_ptr<AdamW> optimizer_;
  std::unique_ptr<Prng> prng_;
  std::vector<double> losses_;
  std::vector<float> trained_;
  bool refused_ = false;  // the current fine-tuning length is one the model cannot read
  std::string refusal_;
  LongContextResult result_;
};

// Runs a whole run at once.
LongContextResult RunLongContext(const LongContextSpec& spec);

}  // namespace embedlab

#endif  // EMBEDLAB_TRAINING_LONG_CONTEXT_RUN_H_
