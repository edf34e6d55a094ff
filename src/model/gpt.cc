#include "model/gpt.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "embed/sinusoidal_encoding.h"
#include "errors/argument_checks.h"
#include "model/attention.h"
#include "model/cross_entropy.h"
#include "model/relative_position_bias.h"
#include "random/prng.h"
#include "simd/activation_kernels.h"
#include "simd/matmul_kernels.h"
#include "simd/normalization_kernels.h"
#include "simd/vector_kernels.h"

namespace embedlab {
namespace {

void Zero(std::vector<float>& v) { simd::Fill(0.0f, v.data(), v.size()); }

}  // namespace

Gpt::Gpt(const GptConfig& config) : config_(config), layout_(config) {
  parameters_.assign(layout_.total_size(), 0.0f);
  gradients_.assign(layout_.total_size(), 0.0f);
  InitializeParameters();
  const size_t c = static_cast<size_t>(config.channels), h = static_cast<size_t>(config.heads);
  if (config.positions == PositionScheme::kAlibi) {
    alibi_slopes_.resize(h);
    AlibiSlopes(h, alibi_slopes_.data());
  }
  if (config.positions == PositionScheme::kRope) {
    rotary_ = std::make_unique<RotaryEmbedding>(c, h, config.rope_base, config.rope_layout, config.rope_scaling);
  }
}

void Gpt::SetRopeScaling(const RopeScaling& scaling) {
  if (config_.positions != PositionScheme::kRope) {
    throw std::invalid_argument(std::string("setRopeScaling needs a model with positions 'rope', this one has '") +
                                PositionSchemeName(config_.positions) + "'");
  }
  ValidateRopeScaling(scaling, "scaling");  // named as setRopeScaling's argument
  GptConfig config = config_;
  config.rope_scaling = scaling;
  ValidateGptConfig(config, "");
  config_ = config;
  rotary_ = std::make_unique<RotaryEmbedding>(static_cast<size_t>(config_.channels), static_cast<size_t>(config_.heads),
                                              config_.rope_base, config_.rope_layout, config_.rope_scaling);
}

void Gpt::InitializeParameters() {
  Prng prng(config_.seed);
  for (const ParameterTensor& tensor : layout_.tensors()) {
    float* p = parameters_.data() + tensor.offset;
    for (size_t i = 0; i < tensor.size; ++i) {
      switch (tensor.init) {
        case ParameterInit::kZeros:
          p[i] = 0.0f;
          break;
        case ParameterInit::kOnes:
          p[i] = 1.0f;
          break;
        case ParameterInit::kNormal:
          p[i] = static_cast<float>(tensor.init_std * prng.NextNormal());
          break;
      }
    }
  }
}

size_t Gpt::max_length() const {
  return config_.positions == PositionScheme::kLearned ? static_cast<size_t>(config_.context_length)
                                                       : static_cast<size_t>(kMaxSequenceLength);
}

void Gpt::CheckBatch(const int32_t* ids, const int32_t* targets, size_t batch, size_t length) const {
  RequireInRange("batch", static_cast<int64_t>(batch), 1, kMaxSequenceLength);
  if (config_.positions == PositionScheme::kLearned && length > max_length()) {
    throw std::out_of_range("length must be an integer in [1, " + std::to_string(max_length()) +
                            "] (learned positions end at contextLength), got " + std::to_string(length));
  }
  RequireInRange("length", static_cast<int64_t>(length), 1, static_cast<int64_t>(max_length()));
  // In int64: batch x length can exceed a 32-bit size_t in wasm before any check would see it.
  const int64_t tokens = static_cast<int64_t>(batch) * static_cast<int64_t>(length);
  RequireTensorSize("the attention weights", tokens * config_.heads, static_cast<int64_t>(length));
  RequireTensorSize("the logits", tokens, config_.vocab_size);
  RequireTensorSize("the MLP activations", tokens, 4 * config_.channels);
  for (size_t i = 0; i < batch * length; ++i) {
    if (ids[i] < 0 || ids[i] >= config_.vocab_size) {
      throw std::out_of_range("ids[" + std::to_string(i) + "] must be a token id in [0, " +
                              std::to_string(config_.vocab_size - 1) + "], got " + std::to_string(ids[i]));
    }
    if (targets != nullptr && (targets[i] < -1 || targets[i] >= config_.vocab_size)) {
      throw std::out_of_range("targets[" + std::to_string(i) + "] must be -1 (ignored) or a token id in [0, " +
                              std::to_string(config_.vocab_size - 1) + "], got " + std::to_string(targets[i]));
    }
  }
}

// encoded (B,T,C) = s wte[ids] (+ wpe[t] | + PE(t)), s = embedding_scale (1 multiplies exactly, so the
// default is bit-identical to the unscaled sum).
void Gpt::EmbedForward(const int32_t* ids) {
  const size_t c = static_cast<size_t>(config_.channels);
  const float scale = static_cast<float>(config_.embedding_scale);
  const float* wte = parameters_.data() + layout_.wte();
  const float* positions = nullptr;
  if (config_.positions == PositionScheme::kLearned) positions = parameters_.data() + layout_.wpe();
  if (config_.positions == PositionScheme::kSinusoidal) {
    if (position_table_.size() < length_ * c) {
      position_table_.resize(length_ * c);
      SinusoidalEncoding(config_.channels, static_cast<int64_t>(length_))
          .Table(0, static_cast<int64_t>(length_), position_table_.data());
    }
    positions = position_table_.data();
  }
  for (size_t b = 0; b < batch_; ++b) {
    for (size_t t = 0; t < length_; ++t) {
      float* out = activations_.encoded.data() + (b * length_ + t) * c;
      const float* token = wte + static_cast<size_t>(ids[b * length_ + t]) * c;
      for (size_t i = 0; i < c; ++i) {
        out[i] = positions != nullptr ? scale * token[i] + positions[t * c + i] : scale * token[i];
      }
    }
  }
}

// dwte[ids] += s dencoded (repeated tokens add), dwpe[t] += dencoded for learned positions.
void Gpt::EmbedBackward(const float* dencoded) {
  const size_t c = static_cast<size_t>(config_.channels);
  const float scale = static_cast<float>(config_.embedding_scale);
  float* dwte = gradients_.data() + layout_.wte();
  float* dwpe = config_.positions == PositionScheme::kLearned ? gradients_.data() + layout_.wpe() : nullptr;
  for (size_t b = 0; b < batch_; ++b) {
    for (size_t t = 0; t < length_; ++t) {
      const float* grad = dencoded + (b * length_ + t) * c;
      float* token = dwte + static_cast<size_t>(ids_[b * length_ + t]) * c;
      for (size_t i = 0; i < c; ++i) token[i] += scale * grad[i];
      if (dwpe != nullptr) {
        for (size_t i = 0; i < c; ++i) dwpe[t * c + i] += grad[i];
      }
    }
  }
}

// The attention of every block: ALiBi's slopes, or T5's bias table (one for all layers, as T5 shares the
// first layer's) read through the buckets of the current length; its gradient collects every layer's share.
AttentionShape Gpt::Attention(bool backward) {
  AttentionShape shape{batch_,
                       length_,
                       static_cast<size_t>(config_.channels),
                       static_cast<size_t>(config_.heads),
                       config_.causal,
                       alibi_slopes_.empty() ? nullptr : alibi_slopes_.data()};
  if (config_.positions == PositionScheme::kT5) {
    shape.bias_index = t5_buckets_.data();
    shape.bias_table = parameters_.data() + layout_.relative_attention_bias();
    if (backward) shape.bias_table_grad = gradients_.data() + layout_.relative_attention_bias();
  }
  return shape;
}

// One pre-LN block on residual (B,T,C):
//   residual_2 = residual + c_proj(attention(c_attn(ln_1(residual))))
//   residual_3 = residual_2 + mlp.c_proj(gelu(c_fc(ln_2(residual_2))))
void Gpt::BlockForward(size_t layer, const float* residual) {
  const size_t bt = batch_ * length_, c = static_cast<size_t>(config_.channels);
  const float* p = parameters_.data();
  const BlockOffsets& w = layout_.block(layer);
  GptLayerActivations& a = activations_.layers[layer];
  simd::LayerNormForward(residual, p + w.ln_1_weight, p + w.ln_1_bias, a.ln_1.data(), a.ln_1_mean.data(),
                         a.ln_1_rstd.data(), bt, c);
  simd::MatmulForward(a.ln_1.data(), p + w.c_attn_weight, p + w.c_attn_bias, a.qkv.data(), bt, c, 3 * c);
  const float* attention_input = a.qkv.data();
  if (rotary_ != nullptr) {
    rotary_->Forward(a.qkv.data(), a.qkv_rotated.data(), batch_, length_);
    attention_input = a.qkv_rotated.data();
  }
  const AttentionShape shape = Attention(false);
  AttentionForward(attention_input, a.att.data(), a.atty.data(), shape);
  simd::MatmulForward(a.atty.data(), p + w.attn_c_proj_weight, p + w.attn_c_proj_bias, a.residual_2.data(), bt, c, c);
  simd::Add(a.residual_2.data(), residual, a.residual_2.data(), bt * c);
  simd::LayerNormForward(a.residual_2.data(), p + w.ln_2_weight, p + w.ln_2_bias, a.ln_2.data(), a.ln_2_mean.data(),
                         a.ln_2_rstd.data(), bt, c);
  simd::MatmulForward(a.ln_2.data(), p + w.c_fc_weight, p + w.c_fc_bias, a.fch.data(), bt, c, 4 * c);
  simd::GeluForwardKeep(a.fch.data(), a.fch_gelu.data(), a.fch_tanh.data(), bt * 4 * c);
  simd::MatmulForward(a.fch_gelu.data(), p + w.mlp_c_proj_weight, p + w.mlp_c_proj_bias, a.residual_3.data(), bt, 4 * c,
                      c);
  simd::Add(a.residual_3.data(), a.residual_2.data(), a.residual_3.data(), bt * c);
}

// dresidual (B,T,C) holds d loss / d residual_3 on entry and d loss / d residual on return: each
// residual connection passes the gradient through unchanged, and each branch's LayerNorm backward
// adds its share in place.
void Gpt::BlockBackward(size_t layer, const float* residual, float* dresidual) {
  const size_t bt = batch_ * length_, c = static_cast<size_t>(config_.channels);
  const float* p = parameters_.data();
  float* g = gradients_.data();
  const BlockOffsets& w = layout_.block(layer);
  const GptLayerActivations& a = activations_.layers[layer];
  GptActivationGradients& d = activation_gradients_;
  // MLP branch: dresidual is d mlp.c_proj's output.
  Zero(d.fch_gelu);
  Zero(d.fch);
  Zero(d.ln);
  simd::MatmulBackward(dresidual, a.fch_gelu.data(), p + w.mlp_c_proj_weight, d.fch_gelu.data(),
                       g + w.mlp_c_proj_weight, g + w.mlp_c_proj_bias, bt, 4 * c, c);
  simd::GeluBackwardKept(a.fch.data(), a.fch_tanh.data(), d.fch_gelu.data(), d.fch.data(), bt * 4 * c);
  simd::MatmulBackward(d.fch.data(), a.ln_2.data(), p + w.c_fc_weight, d.ln.data(), g + w.c_fc_weight, g + w.c_fc_bias,
                       bt, c, 4 * c);
  simd::LayerNormBackward(d.ln.data(), a.residual_2.data(), p + w.ln_2_weight, a.ln_2_mean.data(), a.ln_2_rstd.data(),
                          dresidual, g + w.ln_2_weight, g + w.ln_2_bias, bt, c);
  // Attention branch: dresidual is now d residual_2 = d attn.c_proj's output.
  Zero(d.atty);
  Zero(d.qkv);
  Zero(d.ln);
  simd::MatmulBackward(dresidual, a.atty.data(), p + w.attn_c_proj_weight, d.atty.data(), g + w.attn_c_proj_weight,
                       g + w.attn_c_proj_bias, bt, c, c);
  const AttentionShape shape = Attention(true);
  if (rotary_ != nullptr) {
    Zero(d.qkv_rotated);
    AttentionBackward(d.atty.data(), a.qkv_rotated.data(), a.att.data(), d.qkv_rotated.data(), shape);
    rotary_->Backward(d.qkv_rotated.data(), d.qkv.data(), batch_, length_);
  } else {
    AttentionBackward(d.atty.data(), a.qkv.data(), a.att.data(), d.qkv.data(), shape);
  }
  simd::MatmulBackward(d.qkv.data(), a.ln_1.data(), p + w.c_attn_weight, d.ln.data(), g + w.c_attn_weight,
                       g + w.c_attn_bias, bt, c, 3 * c);
  simd::LayerNormBackward(d.ln.data(), residual, p + w.ln_1_weight, a.ln_1_mean.data(), a.ln_1_rstd.data(), dresidual,
                          g + w.ln_1_weight, g + w.ln_1_bias, bt, c);
}

float Gpt::Forward(const int32_t* ids, const int32_t* targets, size_t batch, size_t length) {
  CheckBatch(ids, targets, batch, length);
  batch_ = batch;
  length_ = length;
  const size_t bt = batch * length, c = static_cast<size_t>(config_.channels);
  const size_t v = static_cast<size_t>(config_.vocab_size);
  ids_.assign(ids, ids + bt);
  if (targets != nullptr) {
    targets_.assign(targets, targets + bt);
  } else {
    targets_.clear();
  }
  activations_.Resize(config_, batch, length);
  if (config_.positions == PositionScheme::kT5 && t5_buckets_.size() != length * length) {
    t5_buckets_ = RelativePositionBuckets(static_cast<int64_t>(length), config_.t5_num_buckets, config_.t5_max_distance,
                                          !config_.causal);
  }
  EmbedForward(ids);
  const float* residual = activations_.encoded.data();
  for (size_t layer = 0; layer < activations_.layers.size(); ++layer) {
    BlockForward(layer, residual);
    residual = activations_.layers[layer].residual_3.data();
  }
  const float* p = parameters_.data();
  simd::LayerNormForward(residual, p + layout_.ln_f_weight(), p + layout_.ln_f_bias(), activations_.ln_f.data(),
                         activations_.ln_f_mean.data(), activations_.ln_f_rstd.data(), bt, c);
  // The output head is wte itself: logits = ln_f . wte^T, no bias.
  simd::MatmulForward(activations_.ln_f.data(), p + layout_.wte(), nullptr, activations_.logits.data(), bt, c, v);
  return CrossEntropyForward(activations_.logits.data(), targets != nullptr ? targets_.data() : nullptr,
                             activations_.probs.data(), bt, v, &counted_targets_);
}

void Gpt::Backward() {
  if (targets_.empty()) throw std::logic_error("Backward needs a preceding Forward with targets");
  const size_t bt = batch_ * length_, c = static_cast<size_t>(config_.channels);
  const size_t v = static_cast<size_t>(config_.vocab_size);
  const float* p = parameters_.data();
  float* g = gradients_.data();
  GptActivationGradients& d = activation_gradients_;
  d.Resize(config_, batch_, length_);
  Zero(d.ln);
  Zero(d.residual);
  CrossEntropyBackward(activations_.probs.data(), targets_.data(), d.logits.data(), bt, v, counted_targets_);
  // Tied head (wte unscaled): wte's gradient collects this product and, in EmbedBackward, the lookup's.
  simd::MatmulBackward(d.logits.data(), activations_.ln_f.data(), p + layout_.wte(), d.ln.data(), g + layout_.wte(),
                       nullptr, bt, c, v);
  const size_t layers = activations_.layers.size();
  const float* last = layers > 0 ? activations_.layers[layers - 1].residual_3.data() : activations_.encoded.data();
  simd::LayerNormBackward(d.ln.data(), last, p + layout_.ln_f_weight(), activations_.ln_f_mean.data(),
                          activations_.ln_f_rstd.data(), d.residual.data(), g + layout_.ln_f_weight(),
                          g + layout_.ln_f_bias(), bt, c);
  for (size_t layer = layers; layer-- > 0;) {
    const float* residual = layer == 0 ? activations_.encoded.data() : activations_.layers[layer - 1].residual_3.data();
    BlockBackward(layer, residual, d.residual.data());
  }
  EmbedBackward(d.residual.data());
}

void Gpt::ZeroGradients() { Zero(gradients_); }

const float* Gpt::HiddenState(size_t index) const {
  RequireInRange("hidden state index", static_cast<int64_t>(index), 0, config_.layers);
  if (batch_ == 0) throw std::logic_error("HiddenState needs a preceding Forward");
  return index == 0 ? activations_.encoded.data() : activations_.layers[index - 1].residual_3.data();
}

}  // namespace embedlab
