// The order task (training_order_task_test.cc) with T5's relative bias: bidirectional attention, where NoPE
// sees a bag and stays near chance, while a learned scalar per offset bucket and head lets the question tell
// the noun before the verb from the one after it. Set EMBEDLAB_PRINT_ORDER_TASK=1 to print the accuracies.
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>

#include "training/order_task.h"

namespace {

embedlab::OrderTaskResult Train(embedlab::PositionScheme positions, uint64_t seed) {
  embedlab::OrderTaskRun run;
  run.config.channels = 32;
  run.config.layers = 2;
  run.config.heads = 4;
  run.config.positions = positions;
  run.config.causal = false;  // bidirectional buckets: offsets -3..3 each have their own (exact) bucket
  run.config.seed = seed;
  run.optimizer.learning_rate = 1e-2f;
  run.optimizer.weight_decay = 0.0f;
  run.steps = 400;
  run.batch = 32;
  const embedlab::OrderTaskResult result = embedlab::TrainOrderTask(embedlab::OrderTask(), run);
  if (std::getenv("EMBEDLAB_PRINT_ORDER_TASK") != nullptr) {
    std::printf("%-5s seed %d bidirectional accuracy %5.1f%%  final loss %.4f\n",
                embedlab::PositionSchemeName(positions), static_cast<int>(seed), 100.0 * result.accuracy,
                result.final_loss);
  }
  return result;
}

}  // namespace

TEST_CASE("order task with T5's relative bias: bidirectional NoPE fails where T5 succeeds", "[model][slow]") {
  for (uint64_t seed : {5, 6}) {
    INFO("seed " << seed);
    CHECK(Train(embedlab::PositionScheme::kNone, seed).accuracy < 0.6f);
    CHECK(Train(embedlab::PositionScheme::kT5, seed).accuracy > 0.95f);
  }
}
