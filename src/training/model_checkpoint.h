// A model (and optionally its AdamW state) as one safetensors file. Parameters are stored as in Hugging
// Face GPT-2's state dict: its key names (wte.weight, wpe.weight, h.0.attn.c_attn.weight, ...) and its
// Conv1D (in, out) layout for the block matrices (transposed on save and load), so a learned-position
// checkpoint reads like a GPT2Model state dict. The optimizer's moments, in the same layout, are
// stored as optimizer.exp_avg.<name> and optimizer.exp_avg_sq.<name> (torch.optim.AdamW's state
// names); the configuration, the optimizer settings and step are string metadata. Floats are stored
// exactly, so resuming reproduces the following losses bit for bit.
#ifndef EMBEDLAB_TRAINING_MODEL_CHECKPOINT_H_
#define EMBEDLAB_TRAINING_MODEL_CHECKPOINT_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "checkpoint/safetensors_reader.h"
#include "model/adamw.h"
#include "model/gpt.h"

namespace embedlab {

// Metadata keys: vocab_size, context_length, channels, layers, heads, positions, rope_layout,
// rope_base, causal, embedding_scale, seed (the names tests/reference/gpt_reference.py writes too), and
// rope_scaling (a JSON string with transformers' keys, rope_scaling_json.h) when the RoPE is scaled. A file
// without embedding_scale (written before it existed) loads with 1; without rope_scaling, unscaled. T5 models
// add relative_attention_num_buckets and relative_attention_max_distance (T5Config's names).
std::map<std::string, std::string> GptConfigToMetadata(const GptConfig& config);
// Throws std::invalid_argument naming a missing or malformed key; then validates the config.
GptConfig GptConfigFromMetadata(const std::map<std::string, std::string>& metadata);
// Keys adamw_learning_rate, adamw_beta1, adamw_beta2, adamw_eps, adamw_weight_decay, adamw_max_grad_norm.
AdamWOptions AdamWOptionsFromMetadata(const std::map<std::string, std::string>& metadata);

// The shape a parameter has in a checkpoint: reversed for the Conv1D matrices.
std::vector<int64_t> CheckpointShape(const ParameterTensor& tensor);
// A tensor's values from memory layout to the checkpoint's and back: Conv1D matrices (rows x cols in memory) are
// transposed to the checkpoint's (cols x rows); every other tensor is copied as it is.
std::vector<float> ToCheckpointLayout(const ParameterTensor& tensor, const float* values);
void FromCheckpointLayout(const ParameterTensor& tensor, const float* values, float* out);

// Copies every parameter tensor of the model from the file; throws naming a missing tensor or a shape
// that differs from the model's.
void LoadParameters(const SafetensorsReader& reader, Gpt& model);

std::vector<uint8_t> SaveCheckpoint(const Gpt& model, const AdamW* optimizer);

struct LoadedCheckpoint {
  std::unique_ptr<Gpt> model;
  std::unique_ptr<AdamW> optimizer;  // null when the file holds no optimizer state
};
LoadedCheckpoint LoadCheckpoint(const SafetensorsReader& reader);

}  // namespace embedlab

#endif  // EMBEDLAB_TRAINING_MODEL_CHECKPOINT_H_
