// GptTrainer, the object the bindings hold, and training determinism across targets: every Highway target
// reproduces the first 20 losses of the best target within 1e-5, and a seed gives the same parameters on
// every target. (tests/node/model.test.mjs holds the wasm builds to the native run the same way.)
// A CPU may have a single target, where those comparisons compare the target with itself; so every target
// is also held to references that do not come from the project: PyTorch's 10 AdamW losses
// (tests/reference/gpt_reference.py) through GptTrainer::TrainStep, and GPT-2's documented init.
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "checkpoint/safetensors_reader.h"
#include "every_target.h"
#include "model_reference_files.h"
#include "random/prng.h"
#include "simd/kernel_targets.h"
#include "training/corpus_batches.h"
#include "training/gpt_trainer.h"
#include "training/model_checkpoint.h"

namespace {

const char kCorpus[] =
    "the dog bites the man. the man bites the dog. a cat sees a bird and the bird sees the cat. "
    "who did what to whom? the order of the words tells us, and a model must learn where each word is.";

embedlab::GptConfig ByteConfig(embedlab::PositionScheme positions) {
  embedlab::GptConfig config;
  config.vocab_size = 256;
  config.context_length = 16;
  config.channels = 32;
  config.layers = 2;
  config.heads = 4;
  config.positions = positions;
  config.seed = 42;
  return config;
}

std::vector<float> TwentyLosses(embedlab::PositionScheme positions) {
  embedlab::AdamWOptions options;
  options.learning_rate = 3e-3f;
  embedlab::GptTrainer trainer(ByteConfig(positions), options);
  embedlab::CorpusBatches batches(embedlab::BytesAsTokens(kCorpus), 4, 16, 7);
  std::vector<int32_t> ids(64), targets(64);
  std::vector<float> losses;
  for (int step = 0; step < 20; ++step) {
    batches.Next(ids.data(), targets.data());
    losses.push_back(trainer.TrainStep(ids, targets, 4, 16).loss);
  }
  return losses;
}

// GptTrainer from PyTorch's initial weights must take PyTorch's 10 AdamW steps: losses within 1e-5.
void RequirePyTorchLosses(const std::string& name) {
  INFO("reference case " << name);
  const embedlab::SafetensorsReader reader(std::make_shared<embedlab::MemoryByteSource>(
      reference::ReadFileBytes(reference::DataDirectory() + "/gpt_" + name + ".safetensors")));
  const auto& metadata = reader.index().metadata();
  auto model = std::make_unique<embedlab::Gpt>(embedlab::GptConfigFromMetadata(metadata));
  for (const auto& tensor : model->layout().tensors()) {
    const std::vector<float> values = reader.ReadFloats("param/" + tensor.name);
    REQUIRE(values.size() == tensor.size);
    std::copy(values.begin(), values.end(), model->parameters().begin() + static_cast<long>(tensor.offset));
  }
  auto optimizer =
      std::make_unique<embedlab::AdamW>(model->parameters().size(), embedlab::AdamWOptionsFromMetadata(metadata));
  embedlab::GptTrainer trainer(std::move(model), std::move(optimizer), embedlab::AdamWOptions());
  const size_t batch = std::stoul(metadata.at("batch")), length = std::stoul(metadata.at("length"));
  const std::vector<int32_t> ids = reader.ReadInts("ids"), targets = reader.ReadInts("targets");
  const std::vector<float> expected = reader.ReadFloats("adamw_losses");
  REQUIRE(expected.size() == 10);
  for (size_t step = 0; step < expected.size(); ++step) {
    const float loss = trainer.TrainStep(ids, targets, batch, length).loss;
    INFO("AdamW step " << step << " loss " << loss << " PyTorch " << expected[step]);
    CHECK(std::fabs(double{loss} - expected[step]) <= 1e-5);
  }
}

// Runs the 20 steps on the best target, then on every other target, which must agree within 1e-5: the
// targets differ only in lane count and FMA, i.e. in float rounding. Each target also meets PyTorch.
void RequireSameLossesOnEveryTarget(embedlab::PositionScheme positions) {
  embedlab::simd::UseTarget(embedlab::simd::AvailableTargets().front().bits);
  const std::vector<float> expected = TwentyLosses(positions);
  REQUIRE(expected.back() < expected.front());  // it trains
  OnEveryTarget([&] {
    INFO("positions " << embedlab::PositionSchemeName(positions));
    const std::vector<float> losses = TwentyLosses(positions);
    double worst = 0.0;
    for (size_t i = 0; i < expected.size(); ++i) worst = std::max(worst, std::fabs(double{losses[i]} - expected[i]));
    CHECK(worst <= 1e-5);
    RequirePyTorchLosses(positions == embedlab::PositionScheme::kRope ? "rope_interleaved" : "learned");
  });
}

// GPT-2's init written from its description (N(0, 0.02), the residual projections' std divided by
// sqrt(2 L), LayerNorm weights 1, biases 0), drawing normals from the project PRNG in the layout's order.
std::vector<double> Gpt2Init(const embedlab::GptConfig& config, const embedlab::ParameterLayout& layout) {
  embedlab::Prng prng(config.seed);
  std::vector<double> values;
  for (const auto& tensor : layout.tensors()) {
    const std::string& n = tensor.name;
    const bool bias = n.size() > 5 && n.compare(n.size() - 5, 5, ".bias") == 0;
    const bool layer_norm = n.find("ln_") != std::string::npos;
    const bool residual = n.find("c_proj.weight") != std::string::npos;
    for (size_t i = 0; i < tensor.size; ++i) {
      if (bias) {
        values.push_back(0.0);
      } else if (layer_norm) {
        values.push_back(1.0);
      } else {
        values.push_back((residual ? 0.02 / std::sqrt(2.0 * config.layers) : 0.02) * prng.NextNormal());
      }
    }
  }
  return values;
}

}  // namespace

TEST_CASE("every Highway target reproduces the best target's first 20 training losses", "[model]") {
  RequireSameLossesOnEveryTarget(embedlab::PositionScheme::kLearned);
  RequireSameLossesOnEveryTarget(embedlab::PositionScheme::kRope);
}

TEST_CASE("GptTrainer exposes embeddings, hidden states, evaluation and save/load", "[model]") {
  embedlab::GptTrainer trainer(ByteConfig(embedlab::PositionScheme::kLearned), embedlab::AdamWOptions());
  REQUIRE(trainer.TokenEmbeddings().size() == 256 * 32);
  REQUIRE(trainer.PositionEmbeddings(16).size() == 16 * 32);
  REQUIRE_THROWS_AS(trainer.PositionEmbeddings(17), std::out_of_range);
  const std::vector<int32_t> ids = embedlab::BytesAsTokens("dog bites man");
  const auto states = trainer.HiddenStates(ids);
  REQUIRE(states.size() == 3);
  for (const auto& state : states) REQUIRE(state.size() == ids.size() * 32);
  // Hidden state 0 is wte[id] + wpe[t].
  const auto wte = trainer.TokenEmbeddings(), wpe = trainer.PositionEmbeddings(16);
  REQUIRE(states[0][32 * 2 + 5] == wte[static_cast<size_t>(ids[2]) * 32 + 5] + wpe[32 * 2 + 5]);

  std::vector<int32_t> targets(ids.begin() + 1, ids.end());
  targets.push_back(-1);
  const float before = trainer.Evaluate(ids, targets, 1, ids.size());
  trainer.TrainStep(ids, targets, 1, ids.size());
  const auto copy = embedlab::GptTrainer::Load(trainer.Save());
  REQUIRE(copy->optimizer().step() == 1);
  REQUIRE(copy->Evaluate(ids, targets, 1, ids.size()) == trainer.Evaluate(ids, targets, 1, ids.size()));
  REQUIRE(trainer.Evaluate(ids, targets, 1, ids.size()) < before);
  REQUIRE(copy->Logits(ids, 1, ids.size()) == trainer.Logits(ids, 1, ids.size()));
  REQUIRE_THROWS_WITH(trainer.TrainStep(ids, targets, 2, ids.size()), Catch::Contains("batch x length"));

  embedlab::GptTrainer rope(ByteConfig(embedlab::PositionScheme::kRope), embedlab::AdamWOptions());
  REQUIRE(rope.PositionEmbeddings(16).empty());
  embedlab::GptTrainer sinusoidal(ByteConfig(embedlab::PositionScheme::kSinusoidal), embedlab::AdamWOptions());
  const auto table = sinusoidal.PositionEmbeddings(64);  // fixed tables extend past the context length
  REQUIRE(table.size() == 64 * 32);
  REQUIRE(table[1] == 1.0f);  // cos(0)
}

TEST_CASE("a seed gives bit-identical parameters on every target, and another seed others", "[model]") {
  // The init uses only the project PRNG and IEEE arithmetic, never a SIMD kernel or libm.
  embedlab::simd::UseTarget(embedlab::simd::AvailableTargets().front().bits);
  const std::vector<float> expected = embedlab::Gpt(ByteConfig(embedlab::PositionScheme::kLearned)).parameters();
  const embedlab::Gpt reference_model(ByteConfig(embedlab::PositionScheme::kLearned));
  const std::vector<double> gpt2 = Gpt2Init(reference_model.config(), reference_model.layout());
  OnEveryTarget([&] {
    const std::vector<float> parameters = embedlab::Gpt(ByteConfig(embedlab::PositionScheme::kLearned)).parameters();
    REQUIRE(parameters == expected);
    REQUIRE(parameters.size() == gpt2.size());
    double worst = 0.0;  // float rounding of the std (0.02f) and of the product: ~1e-7 relative
    for (size_t i = 0; i < gpt2.size(); ++i) worst = std::max(worst, std::fabs(parameters[i] - gpt2[i]));
    CHECK(worst <= 1e-8);
  });
  embedlab::GptConfig other = ByteConfig(embedlab::PositionScheme::kLearned);
  other.seed = 43;
  REQUIRE(embedlab::Gpt(other).parameters() != expected);
}
