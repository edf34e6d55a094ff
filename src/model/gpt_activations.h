// The tensors a forward pass keeps for its backward pass, and the scratch gradients of one block.
// Sized for one (batch, length); Resize reallocates only when the shape changes.
#ifndef EMBEDLAB_MODEL_GPT_ACTIVATIONS_H_
#define EMBEDLAB_MODEL_GPT_ACTIVATIONS_H_

#include <cstddef>
#include <vector>

#include "model/gpt_config.h"

namespace embedlab {

// Shapes with B batch, T length, C channels, H heads, V vocabulary, L layers.
struct GptLayerActivations {
  std::vector<float> ln_1, ln_1_mean, ln_1_rstd;  // (B,T,C), (B,T), (B,T)
  std::vector<float> qkv;                         // (B,T,3C) after c_attn
  std::vector<float> qkv_rotated;                 // (B,T,3C) RoPE only: q, k rotated
  std::vector<float> att;                         // (B,H,T,T) softmax weights
  std::vector<float> atty;                        // (B,T,C) heads' mixed values
  std::vector<float> residual_2;                  // (B,T,C) residual + attn.c_proj
  std::vector<float> ln_2, ln_2_mean, ln_2_rstd;  // (B,T,C), (B,T), (B,T)
  std::vector<float> fch, fch_gelu;               // (B,T,4C)
  std::vector<float> fch_tanh;                    // (B,T,4C) the tanh inside each GELU, for the backward
  std::vector<float> residual_3;                  // (B,T,C) residual_2 + mlp.c_proj
};

struct GptActivations {
  std::vector<float> encoded;  // (B,T,C) embedding_scale wte[id] + position
  std::vector<GptLayerActivations> layers;
  std::vector<float> ln_f, ln_f_mean, ln_f_rstd;  // (B,T,C), (B,T), (B,T)
  std::vector<float> logits, probs;               // (B,T,V)
  void Resize(const GptConfig& config, size_t batch, size_t length);
};

// Gradients of one block's intermediate tensors, reused layer after layer (zeroed before each).
struct GptActivationGradients {
  std::vector<float> residual;          // (B,T,C) d loss / d residual stream, updated in place
  std::vector<float> ln;                // (B,T,C) d ln_1 or d ln_2 or d ln_f
  std::vector<float> atty;              // (B,T,C)
  std::vector<float> qkv, qkv_rotated;  // (B,T,3C)
  std::vector<float> fch, fch_gelu;     // (B,T,4C)
  std::vector<float> logits;            // (B,T,V)
  void Resize(const GptConfig& config, size_t batch, size_t length);
};

}  // namespace embedlab

#endif  // EMBEDLAB_MODEL_GPT_ACTIVATIONS_H_
