// Embind binding of the parameter count of a published transformer configuration (model/
// transformer_parameter_count.h): the token tables' share of a model and its memory, for the page's table.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <string>

#include "bindings/boundary.h"
#include "model/transformer_parameter_count.h"

using emscripten::val;

namespace embedlab {
namespace bindings {
namespace {

val BytesOf(int64_t parameters) {
  val bytes = val::object();
  bytes.set("float32", static_cast<double>(parameters) * 4.0);
  bytes.set("bfloat16", static_cast<double>(parameters) * 2.0);
  return bytes;
}

// The JS layer has checked the types and filled in the defaults; CountTransformerParameters checks the ranges.
// Every count is below 2^53 (the core's caps), so the doubles are exact.
val TransformerParameterCountOf(double vocab_size, double channels, double layers, double heads, double kv_heads,
                                double ffn_hidden, bool gated_mlp, bool tied_output, bool biases,
                                const std::string& norm, double position_rows) {
  return Guarded<val>(val::null(), [&] {
    TransformerShape shape;
    shape.vocab_size = ToInt64(vocab_size);
    shape.channels = ToInt64(channels);
    shape.layers = ToInt64(layers);
    shape.heads = ToInt64(heads);
    shape.kv_heads = ToInt64(kv_heads);
    shape.ffn_hidden = ToInt64(ffn_hidden);
    shape.gated_mlp = gated_mlp;
    shape.tied_output = tied_output;
    shape.biases = biases;
    shape.norm = ParseNormKind(norm);
    shape.position_rows = ToInt64(position_rows);
    const TransformerParameterCount count = CountTransformerParameters(shape);
    const int64_t token_tables = count.token_embedding + count.output_head;
    val result = val::object();
    result.set("tokenEmbedding", static_cast<double>(count.token_embedding));
    result.set("outputHead", static_cast<double>(count.output_head));
    result.set("positionTable", static_cast<double>(count.position_table));
    result.set("attention", static_cast<double>(count.attention));
    result.set("mlp", static_cast<double>(count.mlp));
    result.set("norms", static_cast<double>(count.norms));
    result.set("total", static_cast<double>(count.total));
    result.set("tokenTables", static_cast<double>(token_tables));
    result.set("tokenTableShare", static_cast<double>(token_tables) / static_cast<double>(count.total));
    result.set("totalBytes", BytesOf(count.total));
    result.set("tokenTableBytes", BytesOf(token_tables));
    return result;
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(embedlab_parameter_count) {
  emscripten::function("transformerParameterCount", &TransformerParameterCountOf);
}

}  // namespace bindings
}  // namespace embedlab
