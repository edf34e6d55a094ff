// Frozen tensors (GptTrainer::SetFrozen) behave as PyTorch's requires_grad=False: values and AdamW moments stay
// bit for bit, the gradient norm counts only the trainable tensors, everything else trains as before.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "training/corpus_batches.h"
#include "training/gpt_trainer.h"

namespace {

const char kText[] = "the dog bites the man. the man bites the dog. a cat sees a bird and the bird sees the cat.";

embedlab::GptConfig SmallConfig() {
  embedlab::GptConfig config;
  config.vocab_size = 256;
  config.context_length = 16;
  config.channels = 16;
  config.layers = 1;
  config.heads = 2;
  config.seed = 3;
  return config;
}

std::vector<float> Slice(const std::vector<float>& values, const embedlab::ParameterTensor& tensor) {
  const auto begin = values.begin() + static_cast<std::ptrdiff_t>(tensor.offset);
  return std::vector<float>(begin, begin + static_cast<std::ptrdiff_t>(tensor.size));
}

}  // namespace

TEST_CASE("frozen wte keeps its values and moments while the rest trains", "[training][frozen]") {
  embedlab::GptTrainer trainer(SmallConfig(), embedlab::AdamWOptions());
  const embedlab::ParameterLayout& layout = trainer.model().layout();
  const embedlab::ParameterTensor& wte = layout.Find("wte.weight");
  const embedlab::ParameterTensor& wpe = layout.Find("wpe.weight");
  // Train unfrozen first, so the moments of wte are non-zero when it is frozen.
  embedlab::CorpusBatches batches(embedlab::BytesAsTokens(kText), 2, 16, 5);
  std::vector<int32_t> ids(32), targets(32);
  for (int step = 0; step < 3; ++step) {
    batches.Next(ids.data(), targets.data());
    trainer.TrainStep(ids, targets, 2, 16);
  }
  trainer.SetFrozen({"wte.weight"});
  REQUIRE(trainer.Frozen() == std::vector<std::string>{"wte.weight"});
  const std::vector<float> wte_before = Slice(trainer.model().parameters(), wte);
  const std::vector<float> m_before = Slice(trainer.optimizer().m(), wte);
  const std::vector<float> v_before = Slice(trainer.optimizer().v(), wte);
  const std::vector<float> wpe_before = Slice(trainer.model().parameters(), wpe);
  REQUIRE(m_before != std::vector<float>(wte.size, 0.0f));

  for (int step = 0; step < 5; ++step) {
    batches.Next(ids.data(), targets.data());
    // The expected norm from the gradients of one more forward/backward, in double, wte left out.
    trainer.model().ZeroGradients();
    trainer.model().Forward(ids.data(), targets.data(), 2, 16);
    trainer.model().Backward();
    double sum = 0.0;
    const std::vector<float>& gradients = trainer.model().gradients();
    for (size_t i = 0; i < gradients.size(); ++i) {
      if (i < wte.offset || i >= wte.offset + wte.size) sum += double{gradients[i]} * gradients[i];
    }
    const float norm = trainer.TrainStep(ids, targets, 2, 16).gradient_norm;
    CHECK(norm == Approx(std::sqrt(sum)).epsilon(1e-5));
  }
  CHECK(Slice(trainer.model().parameters(), wte) == wte_before);
  CHECK(Slice(trainer.optimizer().m(), wte) == m_before);
  CHECK(Slice(trainer.optimizer().v(), wte) == v_before);
  CHECK(Slice(trainer.model().parameters(), wpe) != wpe_before);

  trainer.SetFrozen({});  // thawed: wte trains again
  batches.Next(ids.data(), targets.data());
  trainer.TrainStep(ids, targets, 2, 16);
  CHECK(Slice(trainer.model().parameters(), wte) != wte_before);
}

TEST_CASE("frozen names are checked", "[training][frozen]") {
  embedlab::GptTrainer trainer(SmallConfig(), embedlab::AdamWOptions());
  REQUIRE_THROWS_WITH(trainer.SetFrozen({"wte"}),
                      Catch::Contains("no tensor \"wte\"") && Catch::Contains("wte.weight"));
  REQUIRE_THROWS_WITH(trainer.SetFrozen({"wte.weight", "wte.weight"}), Catch::Contains("listed twice"));
  CHECK(trainer.Frozen().empty());  // a refused list leaves the previous one
}
