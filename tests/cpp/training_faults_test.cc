// Training faults: NaN/Inf in the loss, the gradients or the updated state surface on the step they happen,
// with the parameters, AdamW moments and step count left bit for bit at the last good step; checkpoints that
// are truncated or tampered with are refused with a message (GptTrainer::Load never returns a half model).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "training/corpus_batches.h"
#include "training/gpt_trainer.h"

using namespace embedlab;
using Catch::Matchers::Contains;

namespace {

const char kCorpus[] = "the dog bites the man. the man bites the dog. a cat sees a bird and the bird sees the cat.";

GptConfig SmallConfig() {
  GptConfig config;
  config.vocab_size = 256;
  config.context_length = 32;
  config.channels = 16;
  config.layers = 1;
  config.heads = 2;
  config.positions = PositionScheme::kLearned;
  config.seed = 7;
  return config;
}

bool SameBits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

struct State {
  std::vector<float> parameters, m, v;
  int64_t step;
};

State Snapshot(const GptTrainer& trainer) {
  return {trainer.model().parameters(), trainer.optimizer().m(), trainer.optimizer().v(), trainer.optimizer().step()};
}

void RequireUnchanged(const GptTrainer& trainer, const State& state) {
  REQUIRE(SameBits(trainer.model().parameters(), state.parameters));
  REQUIRE(SameBits(trainer.optimizer().m(), state.m));
  REQUIRE(SameBits(trainer.optimizer().v(), state.v));
  REQUIRE(trainer.optimizer().step() == state.step);
}

}  // namespace

TEST_CASE("an injected NaN weight fails that step with the loss named, nothing changes", "[model-faults]") {
  GptTrainer trainer(SmallConfig(), AdamWOptions());
  CorpusBatches batches(BytesAsTokens(kCorpus), 2, 16, 3);
  std::vector<int32_t> ids(32), targets(32);
  for (int i = 0; i < 3; ++i) {
    batches.Next(ids.data(), targets.data());
    trainer.TrainStep(ids, targets, 2, 16);
  }
  // The embedding row of 't' (in every batch): the loss itself is NaN.
  const size_t wte = trainer.model().layout().Find("wte.weight").offset + size_t{'t'} * 16 + 5;
  const float good = trainer.model().parameters()[wte];
  trainer.model().parameters()[wte] = std::numeric_limits<float>::quiet_NaN();
  const State before = Snapshot(trainer);
  batches.Next(ids.data(), targets.data());
  REQUIRE_THROWS_AS(trainer.TrainStep(ids, targets, 2, 16), std::domain_error);
  REQUIRE_THROWS_WITH(trainer.TrainStep(ids, targets, 2, 16),
                      Contains("training step 4") && Contains("the loss is NaN") && Contains("those of step 3"));
  RequireUnchanged(trainer, before);

  // Repair the weight: training goes on from step 3.
  trainer.model().parameters()[wte] = good;
  REQUIRE(trainer.TrainStep(ids, targets, 2, 16).step == 4);
  REQUIRE(std::isfinite(trainer.Evaluate(ids, targets, 2, 16)));

  // A NaN in the row of byte 0, which never occurs: only its logit is NaN (the loss may stay finite), and
  // the gradient check catches it on the same step.
  const size_t unused = trainer.model().layout().Find("wte.weight").offset;
  trainer.model().parameters()[unused] = std::numeric_limits<float>::quiet_NaN();
  const State before_unused = Snapshot(trainer);
  REQUIRE_THROWS_WITH(trainer.TrainStep(ids, targets, 2, 16),
                      Contains("training step 5") && Contains("NaN") && Contains("those of step 4"));
  RequireUnchanged(trainer, before_unused);
}

TEST_CASE("a non-finite gradient is refused by AdamW before any change, naming the tensor", "[model-faults]") {
  GptTrainer trainer(SmallConfig(), AdamWOptions());
  const std::vector<int32_t> ids = BytesAsTokens("the dog bites the man");
  std::vector<int32_t> targets(ids.begin() + 1, ids.end());
  targets.push_back(-1);
  trainer.TrainStep(ids, targets, 1, ids.size());
  Gpt& model = trainer.model();
  AdamW& optimizer = const_cast<AdamW&>(trainer.optimizer());
  for (float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
    model.ZeroGradients();
    model.Forward(ids.data(), targets.data(), 1, ids.size());
    model.Backward();
    const ParameterTensor& tensor = model.layout().tensors()[3];
    model.gradients()[tensor.offset + 1] = bad;
    const State before = Snapshot(trainer);
    REQUIRE_THROWS_WITH(optimizer.Step(model), Contains("training step 2") && Contains(tensor.name) &&
                                                   Contains("NaN or Inf") && Contains("those of step 1"));
    RequireUnchanged(trainer, before);
  }
  // Finite gradients whose norm overflows float are refused too (clipping would divide by Inf).
  model.ZeroGradients();
  for (float& g : model.gradients()) g = 3e38f;
  const State before = Snapshot(trainer);
  REQUIRE_THROWS_WITH(optimizer.Step(model), Contains("training step 2") && Contains("overflows float"));
  RequireUnchanged(trainer, before);
}

TEST_CASE("a learning rate far too high fails on the step that overflows, rolled back bit for bit", "[model-faults]") {
  AdamWOptions options;
  options.learning_rate = 10.0f;  // the largest allowed: with weight decay 10, decayed weights grow x99 a step
  options.weight_decay = 10.0f;
  options.max_grad_norm = 0.0f;
  GptTrainer trainer(SmallConfig(), options);
  CorpusBatches batches(BytesAsTokens(kCorpus), 2, 16, 3);
  std::vector<int32_t> ids(32), targets(32);
  bool failed = false;
  for (int step = 1; step <= 200 && !failed; ++step) {
    batches.Next(ids.data(), targets.data());
    const State before = Snapshot(trainer);
    try {
      trainer.TrainStep(ids, targets, 2, 16);
    } catch (const std::domain_error& e) {
      failed = true;
      INFO(e.what());
      CHECK_THAT(e.what(), Contains("training step " + std::to_string(step) + ":") &&
                               Contains("those of step " + std::to_string(step - 1)));
      RequireUnchanged(trainer, before);
      for (float p : trainer.model().parameters()) REQUIRE(std::isfinite(p));
    }
  }
  REQUIRE(failed);
  // A sane learning rate recovers from the last good state? At least the state stays finite and usable.
  trainer.set_learning_rate(0.0f);
  REQUIRE_NOTHROW(trainer.Evaluate(ids, targets, 2, 16));
}

TEST_CASE("GptTrainer::Load refuses truncated, tampered and non-finite checkpoints", "[model-faults]") {
  GptTrainer trainer(SmallConfig(), AdamWOptions());
  const std::vector<int32_t> ids = BytesAsTokens("a cat sees a bird");
  std::vector<int32_t> targets(ids.begin() + 1, ids.end());
  targets.push_back(-1);
  trainer.TrainStep(ids, targets, 1, ids.size());
  const std::vector<uint8_t> bytes = trainer.Save();
  REQUIRE(GptTrainer::Load(bytes)->optimizer().step() == 1);

  // Truncated anywhere: in the length, in the header, in the data.
  for (size_t keep : {size_t{0}, size_t{5}, size_t{8}, size_t{40}, bytes.size() / 2, bytes.size() - 1}) {
    INFO("kept " << keep << " of " << bytes.size() << " bytes");
    const std::vector<uint8_t> truncated(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(keep));
    REQUIRE_THROWS(GptTrainer::Load(truncated));
  }
  // Header length larger than the file, broken JSON, a data offset moved past the end.
  std::vector<uint8_t> tampered = bytes;
  tampered[0] = 0xFF;
  tampered[1] = 0xFF;
  REQUIRE_THROWS(GptTrainer::Load(tampered));
  uint64_t header_length = 0;
  for (int i = 7; i >= 0; --i) header_length = header_length << 8 | bytes[static_cast<size_t>(i)];
  tampered = bytes;
  tampered[8] = '[';
  REQUIRE_THROWS(GptTrainer::Load(tampered));
  std::string header(bytes.begin() + 8, bytes.begin() + 8 + static_cast<std::ptrdiff_t>(header_length));
  const size_t shape = header.find("\"shape\":[");
  REQUIRE(shape != std::string::npos);
  tampered = bytes;
  tampered[8 + shape + 9] = '9';  // first dimension of the first tensor changed: sizes no longer match
  REQUIRE_THROWS(GptTrainer::Load(tampered));

  // A NaN in the data section: refused with the tensor named.
  tampered = bytes;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::memcpy(tampered.data() + 8 + header_length + 4 * 3, &nan, 4);
  REQUIRE_THROWS_WITH(GptTrainer::Load(tampered),
                      Contains("checkpoint:") && Contains("NaN") && Contains("finite values"));
}
