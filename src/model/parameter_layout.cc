#include "model/parameter_layout.h"

#include <cmath>
#include <stdexcept>

namespace embedlab {

ParameterLayout::ParameterLayout(const GptConfig& config) {
  ValidateGptConfig(config, "");  // callers facing JS have checked it under their own names
  const int64_t c = config.channels;
  // GPT-2 init: N(0, 0.02) everywhere, and the two projections that write into the residual stream
  // scaled by 1/sqrt(2 L) so the stream's variance does not grow with depth.
  const float std = 0.02f;
  const float residual_std = static_cast<float>(0.02 / std::sqrt(2.0 * static_cast<double>(config.layers)));
  wte_ = Add("wte.weight", {config.vocab_size, c}, ParameterInit::kNormal, std);
  if (config.positions == PositionScheme::kLearned) {
    wpe_ = Add("wpe.weight", {config.context_length, c}, ParameterInit::kNormal, std);
  }
  for (int64_t layer = 0; layer < config.layers; ++layer) {
    const std::string prefix = "h." + std::to_string(layer) + ".";
    BlockOffsets b;
    b.ln_1_weight = Add(prefix + "ln_1.weight", {c}, ParameterInit::kOnes, 0);
    b.ln_1_bias = Add(prefix + "ln_1.bias", {c}, ParameterInit::kZeros, 0);
    b.c_attn_weight = Add(prefix + "attn.c_attn.weight", {3 * c, c}, ParameterInit::kNormal, std);
    b.c_attn_bias = Add(prefix + "attn.c_attn.bias", {3 * c}, ParameterInit::kZeros, 0);
    b.attn_c_proj_weight = Add(prefix + "attn.c_proj.weight", {c, c}, ParameterInit::kNormal, residual_std);
    b.attn_c_proj_bias = Add(prefix + "attn.c_proj.bias", {c}, ParameterInit::kZeros, 0);
    // T5 keeps the bias table in its first layer (has_relative_attention_bias) and shares it: (buckets, heads),
    // its nn.Embedding layout.
    if (config.positions == PositionScheme::kT5 && layer == 0) {
      relative_attention_bias_ = Add(prefix + "attn.relative_attention_bias.weight",
                                     {config.t5_num_buckets, config.heads}, ParameterInit::kNormal, std);
    }
    b.ln_2_weight = Add(prefix + "ln_2.weight", {c}, ParameterInit::kOnes, 0);
    b.ln_2_bias = Add(prefix + "ln_2.bias", {c}, ParameterInit::kZeros, 0);
    b.c_fc_weight = Add(prefix + "mlp.c_fc.weight", {4 * c, c}, ParameterInit::kNormal, std);
    b.c_fc_bias = Add(prefix + "mlp.c_fc.bias", {4 * c}, ParameterInit::kZeros, 0);
    b.mlp_c_proj_weight = Add(prefix + "mlp.c_proj.weight", {c, 4 * c}, ParameterInit::kNormal, residual_std);
    b.mlp_c_proj_bias = Add(prefix + "mlp.c_proj.bias", {c}, ParameterInit::kZeros, 0);
    blocks_.push_back(b);
  }
  ln_f_weight_ = Add("ln_f.weight", {c}, ParameterInit::kOnes, 0);
  ln_f_bias_ = Add("ln_f.bias", {c}, ParameterInit::kZeros, 0);
}

size_t ParameterLayout::Add(const std::string& name, std::vector<int64_t> shape, ParameterInit init, float init_std) {
  ParameterTensor tensor;
  tensor.name = name;
  tensor.size = 1;
  for (int64_t extent : shape) tensor.size *= static_cast<size_t>(extent);
  tensor.weight_decay = shape.size() >= 2;
  // Every matrix inside a block is a Conv1D in HF GPT-2; the embeddings, T5's bias table among them, are
  // nn.Embedding (rows, width).
  tensor.conv1d_layout =
      shape.size() == 2 && name.rfind("h.", 0) == 0 && name.find("relative_attention_bias") == std::string::npos;
  tensor.shape = std::move(shape);
  tensor.offset = total_size_;
  tensor.init = init;
  tensor.init_std = init_std;
  total_size_ += tensor.size;
  tensors_.push_back(std::move(tensor));
  return tensors_.back().offset;
}

const ParameterTensor* ParameterLayout::TryFind(const std::string& name) const {
  for (const ParameterTensor& tensor : tensors_) {
    if (tensor.name == name) return &tensor;
  }
  return nullptr;
}

const ParameterTensor& ParameterLayout::Find(const std::string& name) const {
  const ParameterTensor* tensor = TryFind(name);
  if (tensor == nullptr) throw std::invalid_argument("the model has no parameter tensor named \"" + name + "\"");
  return *tensor;
}

}  // namespace embedlab
