// Where every named parameter tensor lives inside the model's single parameter allocation. Names are
// Hugging Face GPT-2's state-dict keys (wte.weight, wpe.weight, h.{i}.ln_1.weight,
// h.{i}.attn.c_attn.weight, ..., ln_f.bias). In memory the matrices keep nn.Linear's (out, in) layout,
// as llm.c does; HF's GPT-2 stores them as Conv1D (in, out), which checkpoints follow (conv1d_layout).
#ifndef EMBEDLAB_MODEL_PARAMETER_LAYOUT_H_
#define EMBEDLAB_MODEL_PARAMETER_LAYOUT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/gpt_config.h"

namespace embedlab {

enum class ParameterInit { kZeros, kOnes, kNormal };

struct ParameterTensor {
  std::string name;
  std::vector<int64_t> shape;
  size_t offset = 0;  // in floats, inside the parameter (and gradient) allocation
  size_t size = 0;
  ParameterInit init = ParameterInit::kZeros;
  float init_std = 0.0f;
  // AdamW decays 2-D tensors only (matrices and the wte/wpe tables, as nanoGPT); biases and
  // LayerNorm gains and shifts are not decayed.
  bool weight_decay = false;
  // A projection matrix that HF GPT-2 stores transposed (Conv1D): checkpoints hold shape reversed.
  bool conv1d_layout = false;
};

// The per-block tensors of one layer, as offsets into the allocation.
struct BlockOffsets {
  size_t ln_1_weight, ln_1_bias, c_attn_weight, c_attn_bias, attn_c_proj_weight, attn_c_proj_bias;
  size_t ln_2_weight, ln_2_bias, c_fc_weight, c_fc_bias, mlp_c_proj_weight, mlp_c_proj_bias;
};

class ParameterLayout {
 public:
  explicit ParameterLayout(const GptConfig& config);
  const std::vector<ParameterTensor>& tensors() const { return tensors_; }
  size_t total_size() const { return total_size_; }
  // Throws std::invalid_argument naming the unknown tensor.
  const ParameterTensor& Find(const std::string& name) const;
  // nullptr when absent (wpe exists only with learned positions).
  const ParameterTensor* TryFind(const std::string& name) const;

  size_t wte() const { return wte_; }
  size_t wpe() const { return wpe_; }  // meaningful only with learned positions
  // T5's (num_buckets, heads) table, h.0.attn.relative_attention_bias.weight; meaningful only with kT5.
  size_t relative_attention_bias() const { return relative_attention_bias_; }
  const BlockOffsets& block(size_t layer) const { return blocks_[layer]; }
  size_t ln_f_weight() const { return ln_f_weight_; }
  size_t ln_f_bias() const { return ln_f_bias_; }

 private:
  size_t Add(const std::string& name, std::vector<int64_t> shape, ParameterInit init, float init_std);
  std::vector<ParameterTensor> tensors_;
  size_t total_size_ = 0;
  size_t wte_ = 0, wpe_ = 0, relative_attention_bias_ = 0, ln_f_weight_ = 0, ln_f_bias_ = 0;
  std::vector<BlockOffsets> blocks_;
};

}  // namespace embedlab

#endif  // EMBEDLAB_MODEL_PARAMETER_LAYOUT_H_
