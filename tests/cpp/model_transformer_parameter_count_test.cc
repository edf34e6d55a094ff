// Parameter counts of published configurations against the totals their releases report (Hugging Face's
// model.num_parameters() of gpt2 and gpt2-xl; the safetensors totals of Meta-Llama-3-8B and -70B): independent
// numbers, not recomputed from our formula.
#include <catch2/catch.hpp>
#include <stdexcept>

#include "model/transformer_parameter_count.h"

namespace {

using embedlab::CountTransformerParameters;
using embedlab::NormKind;
using embedlab::TransformerShape;

// GPT-2 (config.json: n_embd, n_layer, n_head, n_positions 1024, vocab 50257; MLP 4 n_embd; tied head).
TransformerShape Gpt2(int64_t channels, int64_t layers, int64_t heads) {
  TransformerShape s;
  s.vocab_size = 50257;
  s.channels = channels;
  s.layers = layers;
  s.heads = heads;
  s.kv_heads = heads;
  s.ffn_hidden = 4 * channels;
  s.position_rows = 1024;
  return s;  // LayerNorm, biases, plain MLP, tied: the defaults
}

// Llama 3 (config.json: hidden_size, num_hidden_layers, heads, num_key_value_heads 8, intermediate_size,
// vocab 128256, tie_word_embeddings false, RMSNorm, no biases, SwiGLU, RoPE).
TransformerShape Llama3(int64_t channels, int64_t layers, int64_t heads, int64_t ffn) {
  TransformerShape s;
  s.vocab_size = 128256;
  s.channels = channels;
  s.layers = layers;
  s.heads = heads;
  s.kv_heads = 8;
  s.ffn_hidden = ffn;
  s.gated_mlp = true;
  s.tied_output = false;
  s.biases = false;
  s.norm = NormKind::kRmsNorm;
  return s;
}

}  // namespace

TEST_CASE("Parameter counts equal the published totals of GPT-2 and Llama 3", "[model]") {
  CHECK(CountTransformerParameters(Gpt2(768, 12, 12)).total == 124439808);
  CHECK(CountTransformerParameters(Gpt2(1600, 48, 25)).total == 1557611200);
  CHECK(CountTransformerParameters(Llama3(4096, 32, 32, 14336)).total == 8030261248);
  CHECK(CountTransformerParameters(Llama3(8192, 80, 64, 28672)).total == 70553706496);
}

TEST_CASE("The token tables are V x d, the head counted only when untied", "[model]") {
  const auto small = CountTransformerParameters(Gpt2(768, 12, 12));
  CHECK(small.token_embedding == 50257 * 768);
  CHECK(small.output_head == 0);
  CHECK(small.position_table == 1024 * 768);
  TransformerShape untied = Gpt2(768, 12, 12);
  untied.tied_output = false;
  CHECK(CountTransformerParameters(untied).total == 124439808 + 50257 * 768);
  const auto llama = CountTransformerParameters(Llama3(4096, 32, 32, 14336));
  CHECK(llama.output_head == 128256 * 4096);
  CHECK(llama.position_table == 0);
  CHECK(llama.token_embedding + llama.output_head + llama.position_table + llama.attention + llama.mlp + llama.norms ==
        llama.total);
}

TEST_CASE("Parameter count refuses shapes that cannot be built, naming the field", "[model]") {
  TransformerShape s = Gpt2(768, 12, 12);
  s.heads = 7;  // 768 / 7 is not whole
  CHECK_THROWS_WITH(CountTransformerParameters(s), Catch::Contains("heads (7) must divide channels (768)"));
  s = Llama3(4096, 32, 32, 14336);
  s.kv_heads = 5;
  CHECK_THROWS_WITH(CountTransformerParameters(s), Catch::Contains("kvHeads (5) must divide heads (32)"));
  s.kv_heads = 64;
  CHECK_THROWS_AS(CountTransformerParameters(s), std::out_of_range);
  s = Gpt2(768, 12, 12);
  s.vocab_size = 0;
  CHECK_THROWS_WITH(CountTransformerParameters(s), Catch::Contains("vocabSize must be an integer in [1, "));
  CHECK_THROWS_AS(embedlab::ParseNormKind("batchnorm"), std::invalid_argument);
}
