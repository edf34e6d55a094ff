// Parameter count of a decoder-only transformer from its published configuration: how much of a model its token
// tables (the input embedding and, when untied, the output head) and its learned position table take, and what
// the whole model weighs in memory. Covers GPT-2 (LayerNorm with bias, biased projections, tied head, learned
// positions) and Llama (RMSNorm, no biases, grouped-query attention, gated SiLU MLP, untied head, RoPE).
//
//   token embedding  V d          output head  V d (0 when tied; never a bias)     position table  P d
//   per layer:  attention  d (d + 2 d_kv) + d d          d_kv = kvHeads d / heads (grouped-query attention)
//                          + biases: d + 2 d_kv + d
//               MLP        gated: 3 d F (+ 2F + d)       plain: 2 d F (+ F + d)
//               norms      2 per layer, each d (RMSNorm) or 2d (LayerNorm: scale and shift)
//   final norm  d or 2d
#ifndef EMBEDLAB_MODEL_TRANSFORMER_PARAMETER_COUNT_H_
#define EMBEDLAB_MODEL_TRANSFORMER_PARAMETER_COUNT_H_

#include <cstdint>
#include <string>

namespace embedlab {

enum class NormKind { kLayerNorm, kRmsNorm };

struct TransformerShape {
  int64_t vocab_size = 0;   // V, [1, kMaxCountedVocabSize]
  int64_t channels = 0;     // d, [1, kMaxCountedChannels]
  int64_t layers = 0;       // [1, kMaxCountedLayers]
  int64_t heads = 0;        // [1, d], divides d
  int64_t kv_heads = 0;     // [1, heads], divides heads (heads: multi-head attention)
  int64_t ffn_hidden = 0;   // F, the MLP's inner width, [1, kMaxCountedFfnHidden]
  bool gated_mlp = false;   // SwiGLU (gate, up, down) instead of GELU (up, down)
  bool tied_output = true;  // the output head reuses the embedding table
  bool biases = true;       // every attention and MLP projection has a bias (GPT-2); false: none (Llama)
  NormKind norm = NormKind::kLayerNorm;
  int64_t position_rows = 0;  // P, rows of a learned position table; 0 for RoPE, ALiBi, sinusoidal, NoPE
};

// Caps that keep every count below 2^53, so it crosses to JS exactly.
inline constexpr int64_t kMaxCountedVocabSize = int64_t{1} << 24;
inline constexpr int64_t kMaxCountedChannels = int64_t{1} << 16;
inline constexpr int64_t kMaxCountedLayers = int64_t{1} << 10;
inline constexpr int64_t kMaxCountedFfnHidden = int64_t{1} << 18;
inline constexpr int64_t kMaxCountedPositionRows = int64_t{1} << 24;

struct TransformerParameterCount {
  int64_t token_embedding = 0;  // V d
  int64_t output_head = 0;      // V d untied, 0 tied
  int64_t position_table = 0;   // P d
  int64_t attention = 0;        // all layers
  int64_t mlp = 0;              // all layers
  int64_t norms = 0;            // all layers and the final norm
  int64_t total = 0;
};

// Throws std::out_of_range naming the field (the JS API's names: vocabSize, kvHeads, ...) and its range.
TransformerParameterCount CountTransformerParameters(const TransformerShape& shape);

// "layernorm", "rmsnorm"; ParseNormKind throws std::invalid_argument listing them otherwise.
const char* NormKindName(NormKind kind);
NormKind ParseNormKind(const std::string& name);

}  // namespace embedlab

#endif  // EMBEDLAB_MODEL_TRANSFORMER_PARAMETER_COUNT_H_
