// GptTrainer::Tensor and SetTensor: a parameter by name, in the layout save() writes; replacing one leaves the
// optimizer state alone, a frozen table keeps the given values while the rest trains, and bad input changes nothing.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "training/corpus_batches.h"
#include "training/gpt_trainer.h"

namespace {

embedlab::GptConfig SmallConfig() {
  embedlab::GptConfig config;
  config.vocab_size = 64;
  config.context_length = 8;
  config.channels = 8;
  config.layers = 1;
  config.heads = 2;
  config.seed = 5;
  return config;
}

std::vector<float> Ramp(size_t n, float scale) {
  std::vector<float> values(n);
  for (size_t i = 0; i < n; ++i) values[i] = scale * static_cast<float>(static_cast<int>(i % 17) - 8);
  return values;
}

void TrainSteps(embedlab::GptTrainer& trainer, int steps) {
  std::vector<int32_t> ids(16), targets(16);
  for (int step = 0; step < steps; ++step) {
    for (size_t i = 0; i < ids.size(); ++i) {
      ids[i] = static_cast<int32_t>((i * 7 + static_cast<size_t>(step)) % 64);
      targets[i] = static_cast<int32_t>((i * 7 + static_cast<size_t>(step) + 1) % 64);
    }
    trainer.TrainStep(ids, targets, 2, 8);
  }
}

}  // namespace

TEST_CASE("setTensor replaces wte, tensor reads it back, and training starts from it", "[training][tensors]") {
  embedlab::GptTrainer trainer(SmallConfig(), embedlab::AdamWOptions());
  const std::vector<float> given = Ramp(64 * 8, 0.01f);
  trainer.SetTensor("wte.weight", given);
  REQUIRE(trainer.Tensor("wte.weight") == given);
  REQUIRE(trainer.TokenEmbeddings() == given);
  // The same model built from the given table by hand: equal logits.
  embedlab::GptTrainer twin(SmallConfig(), embedlab::AdamWOptions());
  const embedlab::ParameterTensor& wte = twin.model().layout().Find("wte.weight");
  std::copy(given.begin(), given.end(), twin.model().parameters().begin() + static_cast<std::ptrdiff_t>(wte.offset));
  const std::vector<int32_t> ids = {1, 2, 3, 4};
  REQUIRE(trainer.Logits(ids, 1, 4) == twin.Logits(ids, 1, 4));
  TrainSteps(trainer, 3);
  TrainSteps(twin, 3);
  REQUIRE(trainer.model().parameters() == twin.model().parameters());
}

TEST_CASE("a frozen wte keeps the values setTensor gave it while the rest trains", "[training][tensors]") {
  embedlab::GptTrainer trainer(SmallConfig(), embedlab::AdamWOptions());
  trainer.SetFrozen({"wte.weight"});
  const std::vector<float> given = Ramp(64 * 8, 0.02f);
  trainer.SetTensor("wte.weight", given);
  const std::vector<float> ln_f = trainer.Tensor("ln_f.weight");
  TrainSteps(trainer, 4);
  REQUIRE(trainer.Tensor("wte.weight") == given);
  REQUIRE(trainer.Tensor("ln_f.weight") != ln_f);
  REQUIRE(trainer.Frozen() == std::vector<std::string>{"wte.weight"});
}

TEST_CASE("tensor and setTensor use the checkpoint layout: Conv1D matrices as (in, out)", "[training][tensors]") {
  embedlab::GptTrainer trainer(SmallConfig(), embedlab::AdamWOptions());
  const embedlab::ParameterTensor& c_attn = trainer.model().layout().Find("h.0.attn.c_attn.weight");
  REQUIRE(c_attn.conv1d_layout);
  const size_t rows = static_cast<size_t>(c_attn.shape[0]), cols = static_cast<size_t>(c_attn.shape[1]);  // (out, in)
  const float* memory = trainer.model().parameters().data() + c_attn.offset;
  const std::vector<float> read = trainer.Tensor("h.0.attn.c_attn.weight");
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < cols; ++c) REQUIRE(read[c * rows + r] == memory[r * cols + c]);
  }
  const std::vector<float> given = Ramp(rows * cols, 0.03f);
  trainer.SetTensor("h.0.attn.c_attn.weight", given);
  REQUIRE(trainer.Tensor("h.0.attn.c_attn.weight") == given);
  REQUIRE(memory[1] == given[rows]);  // memory (0, 1) is checkpoint (1, 0)
  // Every tensor reads back what it was given.
  for (const embedlab::ParameterTensor& tensor : trainer.model().layout().tensors()) {
    const std::vector<float> values = Ramp(tensor.size, 0.001f);
    trainer.SetTensor(tensor.name, values);
    REQUIRE(trainer.Tensor(tensor.name) == values);
  }
}

TEST_CASE("setTensor refuses unknown names, wrong lengths and non-finite values, changing nothing",
          "[training][tensors]") {
  embedlab::GptTrainer trainer(SmallConfig(), embedlab::AdamWOptions());
  const std::vector<float> before = trainer.model().parameters();
  REQUIRE_THROWS_WITH(trainer.SetTensor("wte", std::vector<float>(512)),
                      Catch::StartsWith("name: this model has no tensor \"wte\"; its tensors are wte.weight, "
                                        "wpe.weight, h.0.ln_1.weight"));
  REQUIRE_THROWS_WITH(trainer.Tensor("h.1.ln_1.weight"), Catch::Contains("its tensors are wte.weight"));
  REQUIRE_THROWS_WITH(trainer.SetTensor("wte.weight", std::vector<float>(100)),
                      "values.length must be 512 (wte.weight has shape [64, 8]), got 100");
  REQUIRE_THROWS_WITH(trainer.SetTensor("h.0.mlp.c_fc.weight", std::vector<float>(3)),
                      "values.length must be 256 (h.0.mlp.c_fc.weight has shape [8, 32]), got 3");
  std::vector<float> bad(512, 0.5f);
  bad[9] = NAN;
  REQUIRE_THROWS_WITH(trainer.SetTensor("wte.weight", bad), "values[9] must be a finite number, got NaN");
  bad[9] = -INFINITY;
  REQUIRE_THROWS_WITH(trainer.SetTensor("wte.weight", bad), "values[9] must be a finite number, got -Infinity");
  REQUIRE(trainer.model().parameters() == before);
}
