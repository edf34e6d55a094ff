// AdamW with bias correction (torch.optim.AdamW's update, in its order of operations), decoupled weight
// decay on the tensors ParameterLayout marks (2-D: matrices, wte, wpe), and global-norm gradient clipping
// (torch.nn.utils.clip_grad_norm_).
#ifndef EMBEDLAB_MODEL_ADAMW_H_
#define EMBEDLAB_MODEL_ADAMW_H_

#include <cstdint>
#include <string>
#include <vector>

#include "model/gpt.h"

namespace embedlab {

struct AdamWOptions {
  float learning_rate = 1e-3f;
  float beta1 = 0.9f;
  float beta2 = 0.95f;
  float eps = 1e-8f;
  float weight_decay = 0.1f;
  float max_grad_norm = 1.0f;  // <= 0 turns clipping off
};

// Throws std::out_of_range naming the bad option as the caller's API does: name prefixes it (OptionName):
// "config.optimizer" gives config.optimizer.beta1 (createModel), "" the bare option (longContextRun's top-level
// learningRate). These ranges are the only ones: the JS layer checks types alone.
void ValidateAdamWOptions(const AdamWOptions& options, const std::string& name);

class AdamW {
 public:
  AdamW(size_t parameter_count, const AdamWOptions& options);

  // Clips model.gradients() to max_grad_norm, then updates model.parameters(). Returns the global
  // gradient norm before clipping. Throws std::domain_error, before changing the parameters, the moments
  // or step(), when a gradient is NaN or infinite (or the norm overflows float): the message names the
  // step and the first tensor with a non-finite gradient.
  float Step(Gpt& model);

  const AdamWOptions& options() const { return options_; }
  void set_learning_rate(float learning_rate);
  int64_t step() const { return step_; }
  // First and second moments, one float per parameter (saved in checkpoints to resume bit for bit).
  std::vector<float>& m() { return m_; }
  std::vector<float>& v() { return v_; }
  const std::vector<float>& m() const { return m_; }
  const std::vector<float>& v() const { return v_; }
  void set_step(int64_t step) { step_ = step; }

 private:
  AdamWOptions options_;
  std::vector<float> m_, v_;
  int64_t step_ = 0;
};

// One training step: zero gradients, forward with targets, backward, AdamW. Returns the loss.
float TrainStep(Gpt& model, AdamW& optimizer, const int32_t* ids, const int32_t* targets, size_t batch, size_t length);

}  // namespace embedlab

#endif  // EMBEDLAB_MODEL_ADAMW_H_
