// A RoPE scaling as the JSON string a checkpoint's metadata holds under "rope_scaling", with Hugging Face
// transformers' key names (rope_type, factor, original_max_position_embeddings, beta_fast, beta_slow,
// attention_factor, truncate, low_freq_factor, high_freq_factor), so a config.json can take it as it is.
#ifndef EMBEDLAB_TRAINING_ROPE_SCALING_JSON_H_
#define EMBEDLAB_TRAINING_ROPE_SCALING_JSON_H_

#include <string>

#include "model/rope_scaling.h"

namespace embedlab {

// Every key the type uses, defaults included, so a reader needs no defaults of its own (the PyTorch export's
// embedlab_rope_scaling.py has none); attention_factor only when given (absent: YaRN's 0.1 ln(factor) + 1).
// Never called for kNone (the key is absent).
std::string RopeScalingToJson(const RopeScaling& scaling);
// Throws std::invalid_argument naming the bad key; missing optional keys take kRopeScalingDefaults.
RopeScaling RopeScalingFromJson(const std::string& text);

}  // namespace embedlab

#endif  // EMBEDLAB_TRAINING_ROPE_SCALING_JSON_H_
