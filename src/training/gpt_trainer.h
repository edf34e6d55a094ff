// A model together with its optimizer: the one object the bindings hold for a model.
// Every method copies results out, so callers own what they get.
#ifndef EMBEDLAB_TRAINING_GPT_TRAINER_H_
#define EMBEDLAB_TRAINING_GPT_TRAINER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/adamw.h"
#include "model/gpt.h"

namespace embedlab {

struct TrainStepResult {
  float loss;
  float gradient_norm;  // before clipping
  int64_t step;         // optimizer steps taken so far, including this one
};

class GptTrainer {
 public:
  GptTrainer(const GptConfig& config, const AdamWOptions& optimizer);
  // Takes over a loaded model (and its optimizer when present; a fresh one with `fallback` otherwise).
  GptTrainer(std::unique_ptr<Gpt> model, std::unique_ptr<AdamW> optimizer, const AdamWOptions& fallback);

  // ids and targets: batch x length (targets -1 = ignored). One AdamW step.
  // Training faults throw std::domain_error (an Error in JS) whose message names the step and what was not
  // finite: the loss (NaN or Inf), a gradient (NaN or Inf, naming the tensor), or a parameter or optimizer
  // moment after the update (e.g. a learning rate far too high). In every case the parameters, the AdamW
  // moments and the step count are left exactly (bit for bit) as after the last good step, so the caller can
  // lower the learning rate and go on, or save the last good model.
  TrainStepResult TrainStep(const std::vector<int32_t>& ids, const std::vector<int32_t>& targets, size_t batch,
                            size_t length);
  // Mean cross-entropy without touching gradients or parameters.
  float Evaluate(const std::vector<int32_t>& ids, const std::vector<int32_t>& targets, size_t batch, size_t length);
  // Logits (batch x length x vocab) of a forward pass.
  std::vector<float> Logits(const std::vector<int32_t>& ids, size_t batch, size_t length);

  // wte: vocab_size x channels.
  std::vector<float> TokenEmbeddings() const;
  // The vectors added to the tokens for positions [0, length): learned wpe rows (length <=
  // context_length), the sinusoidal table, or empty for RoPE, ALiBi and NoPE (they add nothing).
  std::vector<float> PositionEmbeddings(size_t length) const;
  // Residual stream of one sequence (1 x length): layers + 1 arrays of length x channels, index 0 after
  // the embedding, index i after block i.
  std::vector<std::vector<float>> HiddenStates(const std::vector<int32_t>& ids);

  // A parameter tensor by its name (ParameterLayout's: wte.weight, h.0.attn.c_attn.weight, ...), in the layout
  // and shape Save() writes it (Conv1D matrices as (in, out), as Hugging Face's GPT-2). Throws std::invalid_argument
  // for an unknown name, listing the model's tensors.
  std::vector<float> Tensor(const std::string& name) const;
  // Replaces that tensor's values (same layout as Tensor). AdamW's moments and step count stay as they are (as
  // assigning to a PyTorch parameter's .data), a frozen tensor stays frozen, and training goes on from the new values.
  // Throws std::invalid_argument for an unknown name, std::out_of_range for a length other than the tensor's size
  // (stating its shape) or a value that is NaN or infinite; the model is then unchanged.
  void SetTensor(const std::string& name, const std::vector<float>& values);

  // safetensors bytes with the model and the optimizer state (see training/model_checkpoint.h).
  std::vector<uint8_t> Save() const;
  static std::unique_ptr<GptTrainer> Load(const std::vector<uint8_t>& bytes);

  void set_learning_rate(float learning_rate) { optimizer_->set_learning_rate(learning_rate); }
  // Tensors (layout names such as "wte.weight") that training leaves exactly as they are, values and AdamW
  // moments alike, as PyTorch does for requires_grad=False: their gradients are dropped before clipping, so they
  // count nowhere. Replaces the previous set; throws std::invalid_argument naming an unknown or repeated tensor.
  // A training setting, so checkpoints do not record it (as a PyTorch state_dict does not).
  void SetFrozen(const std::vector<std::string>& names);
  std::vector<std::string> Frozen() const;
  const Gpt& model() const { return *model_; }
  Gpt& model() { return *model_; }
  const AdamW& optimizer() const { return *optimizer_; }

 private:
  void CheckShape(const std::vector<int32_t>& ids, const std::vector<int32_t>* targets, size_t batch,
                  size_t length) const;
  std::unique_ptr<Gpt> model_;
  std::unique_ptr<AdamW> optimizer_;
  std::vector<const ParameterTensor*> frozen_;
  // The last good state, copied before each update so that a non-finite result can be rolled back.
  std::vector<float> saved_parameters_, saved_m_, saved_v_;
};

}  // namespace embedlab

#endif  // EMBEDLAB_TRAINING_GPT_TRAINER_H_
