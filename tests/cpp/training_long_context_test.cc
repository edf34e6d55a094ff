// The long-context tasks and one run of the experiment: the passkey sits at the requested depth and its answer
// is recoverable from the sequence, recall asks a key of the requested pair, both are deterministic per seed,
// per-position losses match a double-precision log-softmax, learned positions are refused past T with the
// model's own message, and a small run yields one reading per length with the documented shapes.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <vector>

#include "random/prng.h"
#include "training/long_context_limits.h"
#include "training/long_context_run.h"
#include "training/passkey_task.h"
#include "training/position_scores.h"
#include "training/recall_task.h"

namespace {

embedlab::LongContextSpec SmallSpec(const char* scheme, embedlab::LongContextTask task) {
  embedlab::LongContextSpec spec;
  spec.task.task = task;
  spec.scheme = scheme;
  spec.model.channels = 16;
  spec.model.layers = 1;
  spec.model.heads = 2;
  spec.train_length = 16;
  spec.factors = {1, 2, 4};
  spec.steps = 4;
  spec.fine_tune_steps = 2;
  spec.batch = 4;
  spec.eval_rows = 3;
  spec.depths = {0.0, 1.0};
  spec.task.recall_keys = 40;
  return spec;
}

}  // namespace

TEST_CASE("passkey: the key sits at the requested depth and the targets spell it", "[training]") {
  const embedlab::PasskeyTask task(5);
  const size_t length = 64, filler = length - 11;
  for (double depth : {0.0, 0.3, 0.5, 1.0}) {
    embedlab::Prng prng(9);
    std::vector<int32_t> ids(length), targets(length);
    const size_t key_at = task.Sample(prng, length, depth, ids.data(), targets.data());
    REQUIRE(key_at == static_cast<size_t>(std::lround(depth * filler)));
    REQUIRE(ids[key_at] == task.key_marker());
    REQUIRE(ids[length - 5] == task.query_marker());
    // Exactly one KEY and one QUERY; digits only in the key and the answer.
    size_t digits = 0, markers = 0;
    for (size_t i = 0; i < length; ++i) {
      REQUIRE(ids[i] >= 0);
      REQUIRE(ids[i] < task.vocab_size());
      digits += ids[i] < 10;
      markers += ids[i] == task.key_marker() || ids[i] == task.query_marker();
    }
    REQUIRE(digits == 5 + 4);
    REQUIRE(markers == 2);
    // Targets: the five key digits, on the last five positions only.
    for (size_t i = 0; i < length; ++i) {
      if (i < length - 5) {
        REQUIRE(targets[i] == -1);
      } else {
        REQUIRE(targets[i] == ids[key_at + 1 + (i - (length - 5))]);
      }
    }
    // The answer tokens the model is shown are the key's first four digits (teacher forcing).
    for (size_t d = 0; d < 4; ++d) REQUIRE(ids[length - 4 + d] == ids[key_at + 1 + d]);
  }
}

TEST_CASE("passkey: same seed, same sequence, other seed, other key, bad arguments named", "[training]") {
  const embedlab::PasskeyTask task(4);
  std::vector<int32_t> a(40), b(40), c(40), t(40);
  embedlab::Prng p1(3), p2(3), p3(4);
  task.Sample(p1, 40, 0.5, a.data(), t.data());
  task.Sample(p2, 40, 0.5, b.data(), t.data());
  task.Sample(p3, 40, 0.5, c.data(), t.data());
  REQUIRE(a == b);
  REQUIRE(a != c);
  REQUIRE_THROWS_WITH(task.Sample(p1, 8, 0.5, a.data(), t.data()), Catch::Contains("length"));
  REQUIRE_THROWS_WITH(task.Sample(p1, 40, 1.5, a.data(), t.data()), Catch::Contains("depth"));
  REQUIRE_THROWS_WITH(embedlab::PasskeyTask(0), Catch::Contains("digits"));
}

TEST_CASE("recall: distinct keys, the queried pair at the requested depth, its value the target", "[training]") {
  const embedlab::RecallTask task(50, 7);
  for (size_t length : {21u, 22u}) {
    for (double depth : {0.0, 0.5, 1.0}) {
      embedlab::Prng prng(11);
      std::vector<int32_t> ids(length), targets(length);
      const size_t key_at = task.Sample(prng, length, depth, ids.data(), targets.data());
      const size_t pairs = embedlab::RecallTask::Pairs(length), first = length % 2;
      REQUIRE(key_at == first + 2 * static_cast<size_t>(std::lround(depth * (pairs - 1))));
      std::set<int32_t> keys;
      for (size_t p = 0; p < pairs; ++p) {
        keys.insert(ids[first + 2 * p]);
        REQUIRE(ids[first + 2 * p] < 50);
        REQUIRE(ids[first + 2 * p + 1] >= 50);
        REQUIRE(ids[first + 2 * p + 1] < 57);
      }
      REQUIRE(keys.size() == pairs);
      REQUIRE(ids[length - 2] == task.query_marker());
      REQUIRE(ids[length - 1] == ids[key_at]);
      REQUIRE(targets[length - 1] == ids[key_at + 1]);
      for (size_t i = 0; i + 1 < length; ++i) REQUIRE(targets[i] == -1);
    }
  }
  std::vector<int32_t> ids(200), targets(200);
  embedlab::Prng prng(1);
  REQUIRE_THROWS_WITH(task.Sample(prng, 200, 0.5, ids.data(), targets.data()), Catch::Contains("length"));
}

TEST_CASE("ScorePositions: per-position loss is the double log-softmax, exact match needs every argmax", "[training]") {
  const std::vector<float> logits = {1, 2, 0.5f, /**/ 3, -1, 0, /**/ 0, 0, 4, /**/ 2, 1, 0};  // 2 rows x 2 x 3
  const std::vector<int32_t> targets = {1, 0, -1, 1};
  embedlab::PositionScores scores;
  embedlab::ScorePositions(logits.data(), targets.data(), 2, 2, 3, scores);
  auto nll = [](double a, double b, double c, double target) {
    return std::log(std::exp(a) + std::exp(b) + std::exp(c)) - target;
  };
  REQUIRE(scores.counted == std::vector<int64_t>{1, 2});
  REQUIRE(scores.loss_sum[0] == Approx(nll(1, 2, 0.5, 2)).epsilon(1e-12));
  REQUIRE(scores.loss_sum[1] == Approx(nll(3, -1, 0, 3) + nll(2, 1, 0, 1)).epsilon(1e-12));
  REQUIRE(scores.row_exact == std::vector<uint8_t>{1, 0});
  REQUIRE(scores.row_loss[1] == Approx(nll(2, 1, 0, 1)).epsilon(1e-12));
  REQUIRE_THROWS(embedlab::ScorePositions(logits.data(), targets.data(), 1, 4, 3, scores));
}

TEST_CASE("long-context run: learned is refused past T with the model's message, others read every length",
          "[training]") {
  const embedlab::LongContextResult learned =
      embedlab::RunLongContext(SmallSpec("learned", embedlab::LongContextTask::kPasskey));
  REQUIRE(learned.readings.size() == 3 + 2);  // zero-shot at 16, 32, 64; fine-tuned at 32, 64
  REQUIRE(learned.readings[0].available);
  for (size_t i = 1; i < learned.readings.size(); ++i) {
    REQUIRE_FALSE(learned.readings[i].available);
    REQUIRE_THAT(learned.readings[i].reason, Catch::Contains("learned positions end at contextLength"));
  }
  for (const char* scheme : {"sinusoidal", "rope_yarn", "rope_dynamic", "alibi", "none"}) {
    const embedlab::LongContextResult result =
        embedlab::RunLongContext(SmallSpec(scheme, embedlab::LongContextTask::kRecall));
    REQUIRE(result.readings.size() == 5);
    for (const auto& reading : result.readings) {
      REQUIRE(reading.available);
      REQUIRE(reading.accuracy_by_depth.size() == 2);
      REQUIRE(reading.loss_by_depth.size() == 2);
      REQUIRE(reading.loss_by_position.empty());
      for (double loss : reading.loss_by_depth) REQUIRE(std::isfinite(loss));
    }
    REQUIRE(result.readings[3].length == 32);
    REQUIRE(result.readings[3].fine_tuned);
  }
}

TEST_CASE("long-context run: language readings hold one loss per position, runs are deterministic", "[training]") {
  embedlab::LongContextSpec spec = SmallSpec("rope_pi", embedlab::LongContextTask::kLanguage);
  std::vector<int32_t> corpus(4000);
  embedlab::Prng prng(5);
  for (size_t i = 0; i < corpus.size(); ++i) corpus[i] = static_cast<int32_t>((i * 7 + prng.NextU32() % 3) % 20);
  spec.task.corpus = std::make_shared<const std::vector<int32_t>>(corpus);
  spec.task.corpus_vocab = 20;
  embedlab::LongContextRunner runner(spec);
  REQUIRE(runner.total() == 4 + 3 + 2 * (2 + 1));
  int64_t last = 0;
  while (!runner.Advance(1)) {
    REQUIRE(runner.done() == last + 1);
    last = runner.done();
  }
  const embedlab::LongContextResult& result = runner.result();
  REQUIRE(result.readings.size() == 5);
  for (const auto& reading : result.readings) {
    REQUIRE(reading.loss_by_position.size() == static_cast<size_t>(reading.length));
    for (double loss : reading.loss_by_position) REQUIRE(std::isfinite(loss));
    REQUIRE(reading.accuracy_by_depth.empty());
  }
  REQUIRE(std::isnan(runner.entropy_floor()));
  const embedlab::LongContextResult again = embedlab::RunLongContext(spec);
  REQUIRE(again.readings[4].loss_by_position == result.readings[4].loss_by_position);
  // The trained model of one RoPE row gives another RoPE row the same zero-shot reading at T.
  spec.scheme = "rope_ntk";
  embedlab::LongContextRunner shared(spec);
  shared.UseTrainedParameters(runner.trained_parameters(), result.train_loss);
  while (!shared.Advance(100)) {
  }
  REQUIRE(shared.result().readings[0].loss_by_position == result.readings[0].loss_by_position);
  REQUIRE(shared.result().readings[2].loss_by_position != result.readings[2].loss_by_position);
}

TEST_CASE("long-context run: bad specs are refused naming the field", "[training]") {
  embedlab::LongContextSpec spec = SmallSpec("rope", embedlab::LongContextTask::kPasskey);
  spec.factors = {2, 1};
  REQUIRE_THROWS_WITH(embedlab::LongContextRunner(spec), Catch::Contains("factors[1]"));
  spec = SmallSpec("rope", embedlab::LongContextTask::kRecall);
  spec.task.recall_keys = 10;
  REQUIRE_THROWS_WITH(embedlab::LongContextRunner(spec), Catch::Contains("recall keys"));
  spec = SmallSpec("rope_xl", embedlab::LongContextTask::kPasskey);
  REQUIRE_THROWS_WITH(embedlab::LongContextRunner(spec), Catch::Contains("scheme must be one of"));
  spec = SmallSpec("rope", embedlab::LongContextTask::kLanguage);
  REQUIRE_THROWS_WITH(embedlab::LongContextRunner(spec), Catch::Contains("corpus"));
  REQUIRE_THROWS_WITH(embedlab::ParseLongContextTask("copy"),
                      "task must be one of passkey, recall, language; got \"copy\"");
}

// The ranges are the core's alone (the bindings and the JS layer leave them to it), named as the caller names them.
TEST_CASE("long-context ranges: checked by the core with the caller's names, before any allocation", "[training]") {
  REQUIRE_THROWS_WITH(embedlab::RecallTask(1, 4), "keys must be an integer in [2, 65536], got 1");
  REQUIRE_THROWS_WITH(embedlab::RecallTask(4, 65537), "values must be an integer in [2, 65536], got 65537");
  embedlab::LongContextSpec spec = SmallSpec("rope", embedlab::LongContextTask::kPasskey);
  spec.task.recall_keys = 1;
  REQUIRE_THROWS_WITH(embedlab::LongContextRunner(spec), "recallKeys must be an integer in [2, 65536], got 1");
  spec = SmallSpec("rope", embedlab::LongContextTask::kPasskey);
  spec.batch = embedlab::kMaxLongContextCount + 1;
  REQUIRE_THROWS_WITH(embedlab::LongContextRunner(spec), "batch must be an integer in [1, 65536], got 65537");
  spec.batch = 4;
  spec.eval_rows = 0;
  REQUIRE_THROWS_WITH(embedlab::LongContextRunner(spec), "evalRows must be an integer in [1, 65536], got 0");
  // A length far past the cap is refused before its sequence is allocated.
  const int64_t huge = int64_t{1} << 40;
  REQUIRE_THROWS_WITH(embedlab::SampleSequence(embedlab::PasskeyTask(2), huge, 0.5, 0),
                      Catch::StartsWith("length must be an integer in [5, 65536]"));
  REQUIRE_THROWS_WITH(embedlab::SampleSequence(embedlab::RecallTask(4, 4), 12, 0.5, 0),
                      "length must be an integer in [4, 11], got 12");
  const embedlab::LongContextSequence sequence = embedlab::SampleSequence(embedlab::RecallTask(8, 4), 12, 0.25, 7);
  REQUIRE(sequence.ids == std::vector<int32_t>{1, 11, 5, 10, 4, 10, 3, 8, 6, 9, 12, 5});
  REQUIRE(sequence.key_position == 2);
}

// The defaults are the spec's member initializers (lab.longContextDefaults reads them): a default spec is a valid
// run of 1500 training steps, 4 readings and 3 x (100 fine-tuning steps and a reading), on 2-digit passkeys.
TEST_CASE("long-context run: the default spec is the experiment the API and the tools run", "[training]") {
  const embedlab::LongContextSpec spec;
  const embedlab::LongContextRunner runner(spec);
  REQUIRE(runner.total() == 1500 + 4 + 3 * (100 + 1));
  REQUIRE(runner.spec().task.passkey_digits == 2);
  REQUIRE(runner.chance_loss() == Approx(std::log(10.0)));  // per digit
  for (embedlab::LongContextTask task : embedlab::kLongContextTasks) {
    REQUIRE(embedlab::ParseLongContextTask(embedlab::LongContextTaskName(task)) == task);
  }
}

// The same numbers are pinned in tests/node/long_context.test.mjs: a seed gives the same sequences in wasm.
TEST_CASE("passkey and recall sequences for seed 7 are pinned (native == wasm)", "[training]") {
  const embedlab::PasskeyTask passkey(2);
  embedlab::Prng a(7);
  std::vector<int32_t> ids(24), targets(24);
  REQUIRE(passkey.Sample(a, 24, 0.5, ids.data(), targets.data()) == 10);
  REQUIRE(ids == std::vector<int32_t>{10, 17, 12, 18, 14, 10, 11, 12, 13, 14, 26, 9,
                                      4,  10, 15, 12, 16, 14, 10, 15, 12, 16, 27, 9});
  REQUIRE(passkey.Describe(ids.data(), 24) ==
          "the sun is yellow . the grass is green . KEY 9 4 the sky is blue . the sky is blue QUERY 9");
  const embedlab::RecallTask recall(8, 4);
  embedlab::Prng b(7);
  ids.resize(12);
  targets.resize(12);
  REQUIRE(recall.Sample(b, 12, 0.25, ids.data(), targets.data()) == 2);
  REQUIRE(ids == std::vector<int32_t>{1, 11, 5, 10, 4, 10, 3, 8, 6, 9, 12, 5});
  REQUIRE(targets[11] == 10);
}
