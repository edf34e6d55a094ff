// A tiny GPT in the llm.c mould: token embedding plus a positional scheme, pre-LayerNorm blocks
// (multi-head self-attention with a fused qkv projection, MLP 4C with GELU), a final LayerNorm and an
// output head tied to wte. Forward and backward are written by hand; every parameter lives in one
// allocation and every gradient in another, laid out by ParameterLayout.
#ifndef EMBEDLAB_MODEL_GPT_H_
#define EMBEDLAB_MODEL_GPT_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/attention.h"
#include "model/gpt_activations.h"
#include "model/gpt_config.h"
#include "model/parameter_layout.h"
#include "model/rotary_embedding.h"

namespace embedlab {

class Gpt {
 public:
  // Parameters drawn from Prng(config.seed) in layout order: same seed, bit-identical parameters on
  // every platform.
  explicit Gpt(const GptConfig& config);

  const GptConfig& config() const { return config_; }
  const ParameterLayout& layout() const { return layout_; }
  std::vector<float>& parameters() { return parameters_; }
  const std::vector<float>& parameters() const { return parameters_; }
  std::vector<float>& gradients() { return gradients_; }
  const std::vector<float>& gradients() const { return gradients_; }

  // The longest sequence Forward accepts: context_length for learned positions (the table ends
  // there), otherwise kMaxSequenceLength.
  size_t max_length() const;

  // Replaces the RoPE scaling (positions kRope only): a trained model read zero-shot at longer lengths, then
  // trained on. Parameters are untouched. Throws std::invalid_argument / std::out_of_range naming the field.
  void SetRopeScaling(const RopeScaling& scaling);

  // Runs ids (batch x length, each in [0, vocab_size)). With targets (same shape, -1 = ignore) returns
  // the mean cross-entropy, else 0. Throws std::out_of_range naming a bad id, target or length.
  float Forward(const int32_t* ids, const int32_t* targets, size_t batch, size_t length);
  // Adds d(loss)/d(parameters) to gradients(); needs a preceding Forward with targets.
  void Backward();
  void ZeroGradients();

  // From the last Forward: logits (batch x length x vocab_size) and the residual stream after the
  // embedding (index 0) and after block i (index i + 1), each batch x length x channels.
  const std::vector<float>& logits() const { return activations_.logits; }
  const float* HiddenState(size_t index) const;
  size_t batch() const { return batch_; }
  size_t length() const { return length_; }

 private:
  void InitializeParameters();
  void CheckBatch(const int32_t* ids, const int32_t* targets, size_t batch, size_t length) const;
  void EmbedForward(const int32_t* ids);
  void EmbedBackward(const float* dencoded);
  AttentionShape Attention(bool backward);
  void BlockForward(size_t layer, const float* residual);
  void BlockBackward(size_t layer, const float* residual, float* dresidual);

  GptConfig config_;
  ParameterLayout layout_;
  std::vector<float> parameters_;
  std::vector<float> gradients_;
  std::vector<float> position_table_;  // sinusoidal: fixed (length x C) table
  std::vector<float> alibi_slopes_;
  std::vector<int32_t> t5_buckets_;  // (length x length) of the last Forward, kT5 only
  std::unique_ptr<RotaryEmbedding> rotary_;
  GptActivations activations_;
  GptActivationGradients activation_gradients_;
  std::vector<int32_t> ids_, targets_;
  size_t batch_ = 0, length_ = 0, counted_targets_ = 0;
};

}  // namespace embedlab

#endif  // EMBEDLAB_MODEL_GPT_H_
