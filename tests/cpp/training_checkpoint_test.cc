// Model checkpoints: GPT-2 tensor names, exact round trip, and resuming training bit for bit.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "checkpoint/safetensors_reader.h"
#include "checkpoint/safetensors_writer.h"
#include "model/adamw.h"
#include "model/gpt.h"
#include "random/prng.h"
#include "training/model_checkpoint.h"

namespace {

embedlab::GptConfig SmallConfig(embedlab::PositionScheme positions) {
  embedlab::GptConfig config;
  config.vocab_size = 23;
  config.context_length = 6;
  config.channels = 8;
  config.layers = 2;
  config.heads = 2;
  config.positions = positions;
  config.seed = 99;
  return config;
}

struct Batch {
  std::vector<int32_t> ids, targets;
};

Batch RandomBatch(uint64_t seed, size_t count, int32_t vocab) {
  embedlab::Prng prng(seed);
  Batch batch;
  for (size_t i = 0; i < count; ++i) {
    batch.ids.push_back(static_cast<int32_t>(prng.NextU32() % static_cast<uint32_t>(vocab)));
    batch.targets.push_back(static_cast<int32_t>(prng.NextU32() % static_cast<uint32_t>(vocab)));
  }
  return batch;
}

embedlab::SafetensorsReader Open(std::vector<uint8_t> bytes) {
  return embedlab::SafetensorsReader(std::make_shared<embedlab::MemoryByteSource>(std::move(bytes)));
}

}  // namespace

TEST_CASE("checkpoints use HF GPT-2 names and Conv1D layout, and round-trip exactly", "[checkpoint]") {
  embedlab::Gpt model(SmallConfig(embedlab::PositionScheme::kLearned));
  const auto reader = Open(embedlab::SaveCheckpoint(model, nullptr));
  for (const char* name : {"wte.weight", "wpe.weight", "h.0.ln_1.weight", "h.0.attn.c_attn.weight",
                           "h.1.attn.c_proj.bias", "h.1.mlp.c_fc.weight", "h.1.mlp.c_proj.weight", "ln_f.bias"}) {
    INFO(name);
    REQUIRE(reader.index().TryFind(name) != nullptr);
  }
  // Conv1D (in, out): c_attn is (C, 3C) in the file, (3C, C) in memory; embeddings are not transposed.
  REQUIRE(reader.index().Find("h.0.attn.c_attn.weight").shape == std::vector<int64_t>{8, 24});
  REQUIRE(reader.index().Find("h.1.mlp.c_proj.weight").shape == std::vector<int64_t>{32, 8});
  REQUIRE(reader.index().Find("wte.weight").shape == std::vector<int64_t>{23, 8});
  const auto& c_fc = model.layout().Find("h.0.mlp.c_fc.weight");  // (4C, C) = (32, 8) in memory
  const std::vector<float> stored = reader.ReadFloats("h.0.mlp.c_fc.weight");
  REQUIRE(stored[3 * 32 + 5] == model.parameters()[c_fc.offset + 5 * 8 + 3]);  // file (3, 5) = memory (5, 3)
  const embedlab::LoadedCheckpoint loaded = embedlab::LoadCheckpoint(reader);
  REQUIRE(loaded.optimizer == nullptr);
  REQUIRE(loaded.model->parameters() == model.parameters());
  REQUIRE(loaded.model->config().positions == embedlab::PositionScheme::kLearned);
}

TEST_CASE("the same seed gives bit-identical parameters, another seed different ones", "[checkpoint]") {
  auto config = SmallConfig(embedlab::PositionScheme::kRope);
  embedlab::Gpt a(config), b(config);
  REQUIRE(a.parameters() == b.parameters());
  config.seed = 100;
  embedlab::Gpt c(config);
  REQUIRE(a.parameters() != c.parameters());
}

TEST_CASE("resuming from a checkpoint reproduces the following losses bit for bit", "[checkpoint]") {
  for (auto positions :
       {embedlab::PositionScheme::kLearned, embedlab::PositionScheme::kSinusoidal, embedlab::PositionScheme::kRope,
        embedlab::PositionScheme::kAlibi, embedlab::PositionScheme::kT5, embedlab::PositionScheme::kNone}) {
    INFO("positions " << embedlab::PositionSchemeName(positions));
    const auto config = SmallConfig(positions);
    const size_t batch = 3, length = 6;
    const Batch data = RandomBatch(7, batch * length, static_cast<int32_t>(config.vocab_size));
    embedlab::AdamWOptions options;
    options.learning_rate = 3e-3f;
    embedlab::Gpt model(config);
    embedlab::AdamW optimizer(model.parameters().size(), options);
    for (int step = 0; step < 3; ++step) {
      embedlab::TrainStep(model, optimizer, data.ids.data(), data.targets.data(), batch, length);
    }
    const std::vector<uint8_t> checkpoint = embedlab::SaveCheckpoint(model, &optimizer);
    std::vector<float> continued;
    for (int step = 0; step < 4; ++step) {
      continued.push_back(embedlab::TrainStep(model, optimizer, data.ids.data(), data.targets.data(), batch, length));
    }
    embedlab::LoadedCheckpoint resumed = embedlab::LoadCheckpoint(Open(checkpoint));
    REQUIRE(resumed.optimizer != nullptr);
    REQUIRE(resumed.optimizer->step() == 3);
    for (int step = 0; step < 4; ++step) {
      const float loss =
          embedlab::TrainStep(*resumed.model, *resumed.optimizer, data.ids.data(), data.targets.data(), batch, length);
      REQUIRE(loss == continued[static_cast<size_t>(step)]);
    }
    REQUIRE(resumed.model->parameters() == model.parameters());
  }
}

TEST_CASE("loading a checkpoint with a wrong shape or missing tensor names it", "[checkpoint]") {
  embedlab::Gpt small(SmallConfig(embedlab::PositionScheme::kLearned));
  auto wider_config = SmallConfig(embedlab::PositionScheme::kLearned);
  wider_config.channels = 16;
  embedlab::Gpt wider(wider_config);
  try {
    embedlab::LoadParameters(Open(embedlab::SaveCheckpoint(small, nullptr)), wider);
    FAIL("expected a shape error");
  } catch (const std::invalid_argument& e) {
    REQUIRE(std::string(e.what()).find("\"wte.weight\" has shape [23, 8], the model needs [23, 16]") !=
            std::string::npos);
  }
  embedlab::Gpt rope(SmallConfig(embedlab::PositionScheme::kRope));
  embedlab::Gpt learned(SmallConfig(embedlab::PositionScheme::kLearned));
  try {
    embedlab::LoadParameters(Open(embedlab::SaveCheckpoint(rope, nullptr)), learned);
    FAIL("expected a missing-tensor error");
  } catch (const std::invalid_argument& e) {
    REQUIRE(std::string(e.what()).find("no tensor named \"wpe.weight\"") != std::string::npos);
  }
}

TEST_CASE("bad model inputs are rejected with the argument named", "[model]") {
  embedlab::Gpt model(SmallConfig(embedlab::PositionScheme::kLearned));
  const std::vector<int32_t> ids(7, 1), bad_ids = {1, 2, 23}, bad_targets = {1, -2, 3};
  REQUIRE_THROWS_WITH(model.Forward(ids.data(), nullptr, 1, 7), Catch::Contains("learned positions end"));
  REQUIRE_THROWS_WITH(model.Forward(bad_ids.data(), nullptr, 1, 3), Catch::Contains("ids[2]"));
  REQUIRE_THROWS_WITH(model.Forward(ids.data(), bad_targets.data(), 1, 3), Catch::Contains("targets[1]"));
  REQUIRE_THROWS_AS(model.Backward(), std::logic_error);
  auto config = SmallConfig(embedlab::PositionScheme::kRope);
  config.heads = 8;  // head dim 1: RoPE needs pairs
  REQUIRE_THROWS_WITH(embedlab::Gpt(config), Catch::Contains("channels / heads must be even"));
  config.heads = 3;
  REQUIRE_THROWS_WITH(embedlab::Gpt(config), Catch::Contains("multiple of heads"));
  // The validators name a field as the caller's API does: createModel's config, a checkpoint's, or bare.
  REQUIRE_THROWS_WITH(embedlab::ValidateGptConfig(config, "config"),
                      Catch::Equals("config.channels (8) must be a multiple of config.heads (3)"));
  config.heads = 16;
  REQUIRE_THROWS_WITH(embedlab::ValidateGptConfig(config, ""),
                      Catch::Equals("heads must be an integer in [1, 8], got 16"));
  embedlab::AdamWOptions options;
  options.beta1 = 1.0f;
  REQUIRE_THROWS_WITH(embedlab::ValidateAdamWOptions(options, "config.optimizer"),
                      Catch::Equals("config.optimizer.beta1 must be a finite number in [0, 0.999999], got 1"));
  options.beta1 = 0.9f;
  options.eps = std::nanf("");
  REQUIRE_THROWS_WITH(embedlab::ValidateAdamWOptions(options, ""),
                      Catch::Equals("eps must be a finite number in [1e-30, 1], got NaN"));
  // Schemes without a table run past the training length (for extrapolation curves).
  embedlab::Gpt alibi(SmallConfig(embedlab::PositionScheme::kAlibi));
  const std::vector<int32_t> long_ids(24, 3);
  REQUIRE_NOTHROW(alibi.Forward(long_ids.data(), nullptr, 1, 24));
}

// With EMBEDLAB_TORCH_CHECK_DIR set, writes for every scheme a briefly trained checkpoint
// (<case>.checkpoint.safetensors) and a batch with our logits (<case>.batch.safetensors: ids as F32,
// logits) for tests/reference/gpt_reference.py --verify-checkpoints DIR, which loads them in PyTorch and
// requires the same logits (scripts/generate-model-references.sh --check-checkpoints BINARY runs both).
// Hidden ([.]): ctest does not list it; tests/node/reference_data.test.mjs runs it through that script.
TEST_CASE("checkpoints for the PyTorch cross-check", "[.torch]") {
  const char* directory = std::getenv("EMBEDLAB_TORCH_CHECK_DIR");
  REQUIRE(directory != nullptr);
  struct Case {
    const char* name;
    embedlab::PositionScheme positions;
    embedlab::RopeLayout layout;
    bool causal;
    int64_t heads = 2, channels = 8;
    double embedding_scale = 1.0;
    embedlab::RopeScaling rope_scaling = {};
    int64_t t5_num_buckets = 32, t5_max_distance = 128;
  };
  const Case cases[] = {
      {"learned", embedlab::PositionScheme::kLearned, embedlab::RopeLayout::kInterleaved, true},
      {"sinusoidal", embedlab::PositionScheme::kSinusoidal, embedlab::RopeLayout::kInterleaved, true},
      {"rope_interleaved", embedlab::PositionScheme::kRope, embedlab::RopeLayout::kInterleaved, true},
      {"rope_rotate_half", embedlab::PositionScheme::kRope, embedlab::RopeLayout::kRotateHalf, true},
      {"alibi", embedlab::PositionScheme::kAlibi, embedlab::RopeLayout::kInterleaved, true},
      {"alibi_bidirectional", embedlab::PositionScheme::kAlibi, embedlab::RopeLayout::kInterleaved, false},
      {"none", embedlab::PositionScheme::kNone, embedlab::RopeLayout::kInterleaved, true},
      // Press et al.'s interleaved slopes (3 and 6 heads) and the 2017 Transformer's sqrt(C) input scale.
      {"alibi_3_heads", embedlab::PositionScheme::kAlibi, embedlab::RopeLayout::kInterleaved, true, 3, 12},
      {"alibi_6_heads", embedlab::PositionScheme::kAlibi, embedlab::RopeLayout::kInterleaved, true, 6, 12},
      {"sinusoidal_scaled", embedlab::PositionScheme::kSinusoidal, embedlab::RopeLayout::kInterleaved, true, 2, 8,
       std::sqrt(8.0)},
      // RoPE scaling reaches PyTorch through the checkpoint's rope_scaling JSON (YaRN: ramp and attention factor).
      {"rope_yarn", embedlab::PositionScheme::kRope, embedlab::RopeLayout::kInterleaved, true, 2, 8, 1.0,
       embedlab::RopeScaling{embedlab::RopeScalingType::kYarn, 4.0, 4}},
      // T5's bias table and its buckets reach PyTorch through relative_attention_* (4 buckets to 3: offsets 3-5
      // share the last; bidirectional: 4 per sign).
      {"t5", embedlab::PositionScheme::kT5, embedlab::RopeLayout::kInterleaved, true, 2, 8, 1.0, {}, 4, 3},
      {"t5_bidirectional",
       embedlab::PositionScheme::kT5,
       embedlab::RopeLayout::kInterleaved,
       false,
       2,
       8,
       1.0,
       {},
       8,
       3},
  };
  for (const Case& c : cases) {
    auto config = SmallConfig(c.positions);
    config.rope_layout = c.layout;
    config.causal = c.causal;
    config.heads = c.heads;
    config.channels = c.channels;
    config.embedding_scale = c.embedding_scale;
    config.rope_scaling = c.rope_scaling;
    config.t5_num_buckets = c.t5_num_buckets;
    config.t5_max_distance = c.t5_max_distance;
    const size_t batch = 2, length = 6;
    const Batch data = RandomBatch(3, batch * length, static_cast<int32_t>(config.vocab_size));
    embedlab::AdamWOptions options;
    options.learning_rate = 1e-2f;
    embedlab::Gpt model(config);
    embedlab::AdamW optimizer(model.parameters().size(), options);
    for (int step = 0; step < 5; ++step) {
      embedlab::TrainStep(model, optimizer, data.ids.data(), data.targets.data(), batch, length);
    }
    model.Forward(data.ids.data(), nullptr, batch, length);
    const std::vector<float> ids(data.ids.begin(), data.ids.end());
    const std::string prefix = std::string(directory) + "/" + c.name;
    const auto write = [](const std::string& path, const std::vector<uint8_t>& bytes) {
      std::FILE* file = std::fopen(path.c_str(), "wb");
      REQUIRE(file != nullptr);
      REQUIRE(std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size());
      std::fclose(file);
    };
    write(prefix + ".checkpoint.safetensors", embedlab::SaveCheckpoint(model, &optimizer));
    const int64_t b = static_cast<int64_t>(batch), t = static_cast<int64_t>(length);
    write(prefix + ".batch.safetensors",
          embedlab::WriteSafetensors(
              {{"ids", {b, t}, ids.data()}, {"logits", {b, t, config.vocab_size}, model.logits().data()}}, {}));
  }
}

TEST_CASE("embedding_scale round-trips exactly, a file without it loads with 1, bad values are refused",
          "[checkpoint]") {
  auto config = SmallConfig(embedlab::PositionScheme::kSinusoidal);
  config.embedding_scale = std::sqrt(8.0);  // not a short decimal: needs all 17 digits
  auto metadata = embedlab::GptConfigToMetadata(config);
  REQUIRE(embedlab::GptConfigFromMetadata(metadata).embedding_scale == std::sqrt(8.0));
  embedlab::Gpt model(config);
  const auto reader = Open(embedlab::SaveCheckpoint(model, nullptr));
  REQUIRE(embedlab::LoadCheckpoint(reader).model->config().embedding_scale == std::sqrt(8.0));
  metadata.erase("embedding_scale");
  REQUIRE(embedlab::GptConfigFromMetadata(metadata).embedding_scale == 1.0);
  for (const char* bad : {"0", "-2", "1025", "inf", "nan"}) {
    INFO(bad);
    metadata["embedding_scale"] = bad;
    REQUIRE_THROWS_WITH(embedlab::GptConfigFromMetadata(metadata),
                        Catch::StartsWith("checkpoint config.embeddingScale must be a finite number in (0, 1024]"));
  }
  metadata["embedding_scale"] = "x";
  REQUIRE_THROWS_WITH(embedlab::GptConfigFromMetadata(metadata),
                      Catch::Contains("\"embedding_scale\" must be a number"));
}
