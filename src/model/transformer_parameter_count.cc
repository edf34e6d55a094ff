#include "model/transformer_parameter_count.h"

#include <stdexcept>

#include "errors/argument_checks.h"

namespace embedlab {
namespace {

void RequireDivides(const std::string& divisor_name, int64_t divisor, const std::string& name, int64_t value) {
  if (value % divisor != 0) {
    throw std::out_of_range(divisor_name + " (" + std::to_string(divisor) + ") must divide " + name + " (" +
                            std::to_string(value) + ")");
  }
}

}  // namespace

TransformerParameterCount CountTransformerParameters(const TransformerShape& s) {
  RequireInRange("vocabSize", s.vocab_size, 1, kMaxCountedVocabSize);
  RequireInRange("channels", s.channels, 1, kMaxCountedChannels);
  RequireInRange("layers", s.layers, 1, kMaxCountedLayers);
  RequireInRange("heads", s.heads, 1, s.channels);
  RequireDivides("heads", s.heads, "channels", s.channels);
  RequireInRange("kvHeads", s.kv_heads, 1, s.heads);
  RequireDivides("kvHeads", s.kv_heads, "heads", s.heads);
  RequireInRange("ffnHidden", s.ffn_hidden, 1, kMaxCountedFfnHidden);
  RequireInRange("positionRows", s.position_rows, 0, kMaxCountedPositionRows);

  const int64_t d = s.channels;
  const int64_t f = s.ffn_hidden;
  // Keys and values have kvHeads heads of the query heads' width (grouped-query attention shares each among
  // heads / kvHeads query heads).
  const int64_t kv_width = s.kv_heads * (d / s.heads);
  const int64_t attention = d * (d + 2 * kv_width) + d * d + (s.biases ? d + 2 * kv_width + d : 0);
  const int64_t mlp = s.gated_mlp ? 3 * d * f + (s.biases ? 2 * f + d : 0) : 2 * d * f + (s.biases ? f + d : 0);
  const int64_t norm = s.norm == NormKind::kLayerNorm ? 2 * d : d;

  TransformerParameterCount count;
  count.token_embedding = s.vocab_size * d;
  count.output_head = s.tied_output ? 0 : s.vocab_size * d;
  count.position_table = s.position_rows * d;
  count.attention = s.layers * attention;
  count.mlp = s.layers * mlp;
  count.norms = (2 * s.layers + 1) * norm;
  count.total =
      count.token_embedding + count.output_head + count.position_table + count.attention + count.mlp + count.norms;
  return count;
}

const char* NormKindName(NormKind kind) { return kind == NormKind::kLayerNorm ? "layernorm" : "rmsnorm"; }

NormKind ParseNormKind(const std::string& name) {
  if (name == "layernorm") return NormKind::kLayerNorm;
  if (name == "rmsnorm") return NormKind::kRmsNorm;
  throw std::invalid_argument("norm must be one of layernorm, rmsnorm; got \"" + name + "\"");
}

}  // namespace embedlab
