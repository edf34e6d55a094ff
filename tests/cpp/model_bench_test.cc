// Micro-benchmarks, hidden from normal runs: `embedlab_tests "[.model-bench]"` (natively per Highway
// target; the wasm build of the tests measures SIMD128 / EMU128). Prints matmul GFLOP/s for the tiny
// GPT's shapes and training tokens/s for a stated config.
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <vector>

#include "model/corpus_batches.h"
#include "model/gpt_trainer.h"
#include "random/prng.h"
#include "simd/kernel_targets.h"
#include "simd/model_kernels.h"

namespace {

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Repeats f until 0.2 s have passed; returns seconds per call.
template <typename F>
double TimePerCall(F f) {
  f();  // warm up
  size_t calls = 0;
  const auto start = std::chrono::steady_clock::now();
  double elapsed = 0.0;
  do {
    f();
    ++calls;
    elapsed = SecondsSince(start);
  } while (elapsed < 0.2);
  return elapsed / static_cast<double>(calls);
}

}  // namespace

TEST_CASE("matmul and training throughput", "[.model-bench]") {
  struct Shape {
    size_t rows, in_channels, out_channels;
    const char* what;
  };
  // B*T = 8 x 64 tokens through a C = 64 model with a 256-token vocabulary.
  const Shape shapes[] = {{512, 64, 192, "c_attn"},
                          {512, 64, 64, "attn.c_proj"},
                          {512, 64, 256, "mlp.c_fc"},
                          {512, 256, 64, "mlp.c_proj"},
                          {512, 64, 256, "lm head (V=256)"}};
  embedlab::Prng prng(1);
  for (const auto& target : embedlab::simd::AvailableTargets()) {
    embedlab::simd::UseTarget(target.bits);
    for (const Shape& s : shapes) {
      std::vector<float> in(s.rows * s.in_channels), weight(s.out_channels * s.in_channels), bias(s.out_channels);
      std::vector<float> out(s.rows * s.out_channels), dout(out.size()), dinp(in.size()), dweight(weight.size());
      for (float& x : in) x = static_cast<float>(prng.NextNormal());
      for (float& x : weight) x = static_cast<float>(prng.NextNormal());
      for (float& x : dout) x = static_cast<float>(prng.NextNormal());
      const double flops = 2.0 * s.rows * s.in_channels * s.out_channels;
      const double forward = TimePerCall([&] {
        embedlab::simd::MatmulForward(in.data(), weight.data(), bias.data(), out.data(), s.rows, s.in_channels,
                                      s.out_channels);
      });
      const double backward = TimePerCall([&] {
        embedlab::simd::MatmulBackward(dout.data(), in.data(), weight.data(), dinp.data(), dweight.data(), bias.data(),
                                       s.rows, s.in_channels, s.out_channels);
      });
      std::printf("%-7s matmul %-16s %4zux%-3zu . %3zux%-3zu  forward %6.2f GFLOP/s  backward %6.2f GFLOP/s\n",
                  target.name.c_str(), s.what, s.rows, s.in_channels, s.out_channels, s.in_channels,
                  flops / forward * 1e-9, 2 * flops / backward * 1e-9);
    }
    embedlab::GptConfig config;  // the page's training config
    config.vocab_size = 256;
    config.context_length = 64;
    config.channels = 64;
    config.layers = 2;
    config.heads = 4;
    config.positions = embedlab::PositionScheme::kLearned;
    embedlab::GptTrainer trainer(config, embedlab::AdamWOptions());
    std::vector<int32_t> tokens(4096);
    for (int32_t& t : tokens) t = static_cast<int32_t>(prng.NextU32() % 256);
    embedlab::CorpusBatches batches(tokens, 8, 64, 3);
    std::vector<int32_t> ids(512), targets(512);
    const double step = TimePerCall([&] {
      batches.Next(ids.data(), targets.data());
      trainer.TrainStep(ids, targets, 8, 64);
    });
    std::printf("%-7s training V=256 T=64 C=64 L=2 H=4, batch 8: %.1f ms/step, %.0f tokens/s\n", target.name.c_str(),
                step * 1e3, 512 / step);
  }
  embedlab::simd::UseTarget(0);
}
