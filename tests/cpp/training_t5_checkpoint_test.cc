// T5 models in checkpoints: the bias table under T5's name, not transposed; the bucket settings under T5Config's
// names, read back exactly and checked when loaded.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "checkpoint/safetensors_reader.h"
#include "model/gpt.h"
#include "training/model_checkpoint.h"

namespace {

embedlab::GptConfig T5Config(bool causal) {
  embedlab::GptConfig config;
  config.vocab_size = 11;
  config.channels = 12;
  config.heads = 3;
  config.positions = embedlab::PositionScheme::kT5;
  config.causal = causal;
  config.t5_num_buckets = 10;
  config.t5_max_distance = 40;
  config.seed = 4;
  return config;
}

}  // namespace

TEST_CASE("a T5 checkpoint holds h.0.attn.relative_attention_bias.weight (buckets, heads) and its buckets",
          "[checkpoint]") {
  for (bool causal : {true, false}) {
    INFO("causal " << causal);
    embedlab::Gpt model(T5Config(causal));
    const embedlab::ParameterTensor& table = model.layout().Find("h.0.attn.relative_attention_bias.weight");
    REQUIRE(table.shape == std::vector<int64_t>{10, 3});
    REQUIRE(embedlab::CheckpointShape(table) == std::vector<int64_t>{10, 3});               // nn.Embedding, not Conv1D
    REQUIRE(model.layout().TryFind("h.1.attn.relative_attention_bias.weight") == nullptr);  // shared, as in T5
    REQUIRE(model.layout().TryFind("wpe.weight") == nullptr);
    const embedlab::SafetensorsReader reader(
        std::make_shared<embedlab::MemoryByteSource>(embedlab::SaveCheckpoint(model, nullptr)));
    const auto& metadata = reader.index().metadata();
    REQUIRE(metadata.at("positions") == "t5");
    REQUIRE(metadata.at("relative_attention_num_buckets") == "10");
    REQUIRE(metadata.at("relative_attention_max_distance") == "40");
    const std::vector<float> stored = reader.ReadFloats("h.0.attn.relative_attention_bias.weight");
    REQUIRE(std::equal(stored.begin(), stored.end(), model.parameters().begin() + static_cast<long>(table.offset)));
    embedlab::LoadedCheckpoint loaded = embedlab::LoadCheckpoint(reader);
    REQUIRE(loaded.model->config().t5_num_buckets == 10);
    REQUIRE(loaded.model->config().t5_max_distance == 40);
    REQUIRE(loaded.model->parameters() == model.parameters());
  }
}

TEST_CASE("T5 bucket settings: other schemes' files lack them, bad values are refused by name", "[checkpoint]") {
  embedlab::GptConfig rope = T5Config(true);
  rope.positions = embedlab::PositionScheme::kRope;
  REQUIRE(embedlab::GptConfigToMetadata(rope).count("relative_attention_num_buckets") == 0);
  auto metadata = embedlab::GptConfigToMetadata(T5Config(true));
  metadata["relative_attention_max_distance"] = "5";  // not above the 5 exact buckets of 10 causal ones
  REQUIRE_THROWS_WITH(embedlab::GptConfigFromMetadata(metadata),
                      Catch::StartsWith("checkpoint config.t5MaxDistance must be"));
  metadata["relative_attention_max_distance"] = "40";
  metadata["causal"] = "false";
  metadata["relative_attention_num_buckets"] = "3";
  REQUIRE_THROWS_WITH(embedlab::GptConfigFromMetadata(metadata),
                      "checkpoint config.t5NumBuckets (bidirectional) must be an integer in [4, 4096], got 3");
  metadata.erase("relative_attention_num_buckets");
  REQUIRE_THROWS_WITH(embedlab::GptConfigFromMetadata(metadata),
                      "checkpoint metadata lacks \"relative_attention_num_buckets\"");
}

TEST_CASE("a T5 model runs past any training length and its bias reaches every layer", "[model]") {
  embedlab::GptConfig config = T5Config(true);
  config.layers = 2;
  embedlab::Gpt model(config);
  std::vector<int32_t> ids(300), targets(300);
  for (size_t i = 0; i < ids.size(); ++i) {
    ids[i] = static_cast<int32_t>(i % 11);
    targets[i] = static_cast<int32_t>((i + 1) % 11);
  }
  model.ZeroGradients();
  REQUIRE(std::isfinite(model.Forward(ids.data(), targets.data(), 1, ids.size())));
  model.Backward();
  const size_t offset = model.layout().relative_attention_bias();
  // Offsets up to 299 fill every bucket, so every row of the table gets a gradient.
  for (size_t bucket = 0; bucket < 10; ++bucket) {
    float row = 0.0f;
    for (size_t h = 0; h < 3; ++h) row += std::fabs(model.gradients()[offset + bucket * 3 + h]);
    INFO("bucket " << bucket);
    CHECK(row > 0.0f);
  }
}
