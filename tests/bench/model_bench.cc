// Model benchmark: the tiny GPT's matmuls (forward and backward) at its own shapes, and whole training
// steps. Natively main() prints one JSON line per (target, shape) and per (target, training config); in
// wasm, tests/bench/model.mjs calls the extern "C" functions and times them, and tfjs-wasm, in the same
// process. Times are CPU time of this process, not wall time: the benchmark machine is shared, and wall
// time would count the time spent waiting for a core.
#include <time.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "random/prng.h"
#include "simd/kernel_targets.h"
#include "simd/matmul_kernels.h"
#include "training/corpus_batches.h"
#include "training/gpt_trainer.h"

namespace {

// Inputs of one matmul shape, seeded normals, reused across calls so only the kernel is timed.
struct MatmulData {
  size_t rows = 0, in_channels = 0, out_channels = 0;
  std::vector<float> in, weight, bias, out, dout, dinp, dweight, dbias;

  MatmulData(size_t n, size_t c, size_t oc) : rows(n), in_channels(c), out_channels(oc) {
    embedlab::Prng prng(1);
    const auto fill = [&](std::vector<float>& v, size_t size) {
      v.resize(size);
      for (float& x : v) x = static_cast<float>(prng.NextNormal());
    };
    fill(in, n * c);
    fill(weight, oc * c);
    fill(bias, oc);
    fill(dout, n * oc);
    out.assign(n * oc, 0.0f);
    dinp.assign(n * c, 0.0f);
    dweight.assign(oc * c, 0.0f);
    dbias.assign(oc, 0.0f);
  }
};

// The training configs timed: the benchmark's own model and the two the page trains most (section 2's arms, one per
// word-vector arm, and section 7's race, 37 runs of it). Each step reads batch x length tokens of a seeded random
// corpus.
struct TrainingConfig {
  const char* name;
  int vocab_size, length, channels, layers, heads, batch;
  embedlab::PositionScheme positions;
};
constexpr std::array<TrainingConfig, 3> kTrainingConfigs{{
    {"bench", 256, 64, 64, 2, 4, 8, embedlab::PositionScheme::kLearned},
    {"arms", 1024, 32, 32, 2, 4, 8, embedlab::PositionScheme::kLearned},
    {"race", 512, 32, 32, 2, 4, 16, embedlab::PositionScheme::kRope},
}};

struct TrainingRun {
  TrainingConfig spec;
  std::unique_ptr<embedlab::GptTrainer> trainer;
  std::unique_ptr<embedlab::CorpusBatches> batches;
  std::vector<int32_t> ids, targets;

  explicit TrainingRun(const TrainingConfig& s)
      : spec(s), ids(static_cast<size_t>(s.batch * s.length)), targets(ids.size()) {
    embedlab::GptConfig config;
    config.vocab_size = s.vocab_size;
    config.context_length = s.length;
    config.channels = s.channels;
    config.layers = s.layers;
    config.heads = s.heads;
    config.positions = s.positions;
    trainer = std::make_unique<embedlab::GptTrainer>(config, embedlab::AdamWOptions());
    embedlab::Prng prng(3);
    std::vector<int32_t> tokens(4096);
    for (int32_t& t : tokens) t = static_cast<int32_t>(prng.NextU32() % static_cast<uint32_t>(s.vocab_size));
    batches = std::make_unique<embedlab::CorpusBatches>(tokens, static_cast<size_t>(s.batch),
                                                        static_cast<size_t>(s.length), 3);
  }

  void Step() {
    batches->Next(ids.data(), targets.data());
    trainer->TrainStep(ids, targets, static_cast<size_t>(spec.batch), static_cast<size_t>(spec.length));
  }
};

std::unique_ptr<MatmulData> matmul;
std::unique_ptr<TrainingRun> training;

}  // namespace

// Calls MatmulForward (backward = 0) or MatmulBackward with dinp, dweight and dbias (backward = 1)
// `repetitions` times on the data of the last bench_matmul_prepare.
extern "C" void bench_matmul_run(int backward, int repetitions) {
  MatmulData& m = *matmul;
  for (int r = 0; r < repetitions; ++r) {
    if (backward != 0) {
      embedlab::simd::MatmulBackward(m.dout.data(), m.in.data(), m.weight.data(), m.dinp.data(), m.dweight.data(),
                                     m.dbias.data(), m.rows, m.in_channels, m.out_channels);
    } else {
      embedlab::simd::MatmulForward(m.in.data(), m.weight.data(), m.bias.data(), m.out.data(), m.rows, m.in_channels,
                                    m.out_channels);
    }
  }
}

// Prepares in[rows x in_channels], weight[out_channels x in_channels] and the gradients for
// bench_matmul_run (seeded normals), and warms up with one call of each pass.
extern "C" void bench_matmul_prepare(int rows, int in_channels, int out_channels) {
  matmul = std::make_unique<MatmulData>(rows, in_channels, out_channels);
  bench_matmul_run(0, 1);
  bench_matmul_run(1, 1);
}

// A fresh model of kTrainingConfigs[config], warmed up by `warmup_steps` steps.
extern "C" void bench_training_prepare(int config, int warmup_steps) {
  training = std::make_unique<TrainingRun>(kTrainingConfigs.at(static_cast<size_t>(config)));
  for (int s = 0; s < warmup_steps; ++s) training->Step();
}

// `steps` training steps of the prepared model.
extern "C" void bench_training_run(int steps) {
  for (int s = 0; s < steps; ++s) training->Step();
}

extern "C" int bench_training_tokens_per_step() { return training->spec.batch * training->spec.length; }

#ifndef EMBEDLAB_BENCH_LIBRARY
namespace {

double CpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

// Median of `runs` runs of CPU seconds per call of run(count), count chosen so one run takes ~20 ms
// (as tests/bench/timing.mjs).
template <typename Run>
double MedianSeconds(const Run& run, int runs) {
  const auto timed = [&](int count) {
    const double start = CpuSeconds();
    run(count);
    return (CpuSeconds() - start) / count;
  };
  int count = 1;
  while (timed(count) * count < 0.02 && count < (1 << 20)) count *= 2;
  std::vector<double> seconds;
  for (int i = 0; i < runs; ++i) seconds.push_back(timed(count));
  std::sort(seconds.begin(), seconds.end());
  return seconds[seconds.size() / 2];
}

}  // namespace

// Arguments: shapes as ROWSxINxOUT (e.g. 512x64x192); --training also times training steps of every config
// (--config=NAME: only that one); --target=NAME measures only that Highway target (e.g. AVX2).
int main(int argc, char** argv) {
  std::vector<std::array<int, 3>> shapes;
  bool training = false;
  std::string only_target, only_config;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    std::array<int, 3> s{};
    if (arg == "--training") {
      training = true;
    } else if (arg.rfind("--config=", 0) == 0) {
      only_config = arg.substr(9);
    } else if (arg.rfind("--target=", 0) == 0) {
      only_target = arg.substr(9);
    } else if (std::sscanf(argv[i], "%dx%dx%d", &s[0], &s[1], &s[2]) == 3) {
      shapes.push_back(s);
    } else {
      std::fprintf(stderr, "usage: %s [ROWSxINxOUT ...] [--training] [--config=bench|arms|race] [--target=NAME]\n",
                   argv[0]);
      return 2;
    }
  }
  for (const auto& target : embedlab::simd::AvailableTargets()) {
    if (!only_target.empty() && target.name != only_target) continue;
    embedlab::simd::UseTarget(target.bits);
    for (const auto& s : shapes) {
      bench_matmul_prepare(s[0], s[1], s[2]);
      const auto seconds = [&](int backward) {
        return MedianSeconds([&](int count) { bench_matmul_run(backward, count); }, 7);
      };
      const double forward = seconds(0), backward = seconds(1);
      std::printf("{\"target\":\"%s\",\"shape\":\"%dx%dx%d\",\"forwardSeconds\":%.6e,\"backwardSeconds\":%.6e}\n",
                  target.name.c_str(), s[0], s[1], s[2], forward, backward);
      std::fflush(stdout);
    }
    for (size_t c = 0; training && c < kTrainingConfigs.size(); ++c) {
      if (!only_config.empty() && only_config != kTrainingConfigs[c].name) continue;
      bench_training_prepare(static_cast<int>(c), 3);
      const double step = MedianSeconds([](int count) { bench_training_run(count); }, 5);
      std::printf("{\"target\":\"%s\",\"config\":\"%s\",\"trainingSecondsPerStep\":%.6e,\"tokensPerStep\":%d}\n",
                  target.name.c_str(), kTrainingConfigs[c].name, step, bench_training_tokens_per_step());
      std::fflush(stdout);
    }
  }
  embedlab::simd::UseTarget(0);
  return 0;
}
#endif
