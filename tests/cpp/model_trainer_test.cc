// GptTrainer, the object the bindings hold, and training determinism across platforms: the first 20
// losses of a fixed run are pinned here (recorded natively on AVX2) and must be reproduced within 1e-5
// by every Highway target and by the wasm builds (SIMD128 and the EMU128 fallback) of this same test.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "model/corpus_batches.h"
#include "model/gpt_trainer.h"
#include "simd/kernel_targets.h"

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

void RequireLosses(embedlab::PositionScheme positions, const std::vector<float>& expected) {
  for (const embedlab::simd::KernelTarget& target : embedlab::simd::AvailableTargets()) {
    embedlab::simd::UseTarget(target.bits);
    INFO("target " << target.name << " positions " << embedlab::PositionSchemeName(positions));
    const std::vector<float> losses = TwentyLosses(positions);
    if (std::getenv("EMBEDLAB_PRINT_LOSSES") != nullptr) {
      std::printf("%s %s:", target.name.c_str(), embedlab::PositionSchemeName(positions));
      for (float loss : losses) std::printf(" %.9gf,", loss);
      std::printf("\n");
    }
    double worst = 0.0;
    for (size_t i = 0; i < expected.size(); ++i) worst = std::max(worst, std::fabs(double{losses[i]} - expected[i]));
    CHECK(worst <= 1e-5);
  }
  embedlab::simd::UseTarget(0);
}

}  // namespace

TEST_CASE("the first 20 training losses match the pinned native run on every target", "[model]") {
  RequireLosses(embedlab::PositionScheme::kLearned,
                {5.53970575f, 5.33772135f, 5.18120861f, 5.08151722f, 4.92482948f, 4.82753563f, 4.68512774f,
                 4.51995754f, 4.40142298f, 4.2491765f,  4.16568804f, 4.02536964f, 3.88682795f, 3.7481029f,
                 3.6034174f,  3.49820948f, 3.39673376f, 3.41919732f, 3.16714978f, 3.17291999f});
  RequireLosses(embedlab::PositionScheme::kRope,
                {5.5440836f,  5.28982639f, 5.14488602f, 5.0433917f,  4.87435293f, 4.76886082f, 4.63041258f,
                 4.48743916f, 4.36605978f, 4.22004175f, 4.1255827f,  3.98613596f, 3.84708571f, 3.72494197f,
                 3.56346202f, 3.46863413f, 3.38168311f, 3.38495517f, 3.13771415f, 3.1375041f});
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

TEST_CASE("a seed gives bit-identical parameters on every platform (pinned hash)", "[model]") {
  // FNV-1a over the float bits of every parameter. The init uses only the project PRNG and IEEE
  // arithmetic, so native and wasm builds must both hit this value.
  embedlab::Gpt model(ByteConfig(embedlab::PositionScheme::kLearned));
  uint64_t hash = 1469598103934665603ULL;
  for (float value : model.parameters()) {
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof(bits));
    for (int byte = 0; byte < 4; ++byte) {
      hash ^= (bits >> (8 * byte)) & 0xFFu;
      hash *= 1099511628211ULL;
    }
  }
  if (std::getenv("EMBEDLAB_PRINT_LOSSES") != nullptr)
    std::printf("parameter hash 0x%016llx\n", (unsigned long long)hash);
  REQUIRE(hash == 0x8b6e9942ba59c2fcULL);
}
