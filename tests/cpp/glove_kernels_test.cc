// GloVe's AdaGrad pair step on every Highway target this CPU supports, against a scalar double reference written
// here from glove.c's update (no code shared with src/).
#include "simd/glove_kernels.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "every_target.h"
#include "random_vectors.h"

namespace simd = embedlab::simd;

namespace {

struct PairState {
  std::vector<float> word, context, word_gradsq, context_gradsq;
};

PairState RandomPair(size_t dim, uint64_t seed) {
  PairState state{RandomVector(dim, seed), RandomVector(dim, seed + 1), RandomVector(dim, seed + 2),
                  RandomVector(dim, seed + 3)};
  for (float& s : state.word_gradsq) s = 1.0f + std::fabs(s);
  for (float& s : state.context_gradsq) s = 1.0f + std::fabs(s);
  return state;
}

double Clip(double value, double bound) { return std::min(bound, std::max(-bound, value)); }

void CheckAgainstReference(size_t dim, double weighted_error, uint64_t seed) {
  const double rate = 0.05, clip = 100.0;
  PairState state = RandomPair(dim, seed);
  const PairState before = state;
  simd::GloveAdaGradPair(state.word.data(), state.context.data(), state.word_gradsq.data(), state.context_gradsq.data(),
                         dim, static_cast<float>(weighted_error), static_cast<float>(rate), static_cast<float>(clip));
  const auto near = [](double got, double want) { return std::fabs(got - want) <= 2e-6 * (1 + std::fabs(want)); };
  for (size_t k = 0; k < dim; ++k) {
    const double w = before.word[k], c = before.context[k];
    const double gw = Clip(weighted_error * c, clip) * rate, gc = Clip(weighted_error * w, clip) * rate;
    INFO("dim " << dim << " component " << k << " error " << weighted_error);
    REQUIRE(near(state.word[k], w - gw / std::sqrt(static_cast<double>(before.word_gradsq[k]))));
    REQUIRE(near(state.context[k], c - gc / std::sqrt(static_cast<double>(before.context_gradsq[k]))));
    REQUIRE(near(state.word_gradsq[k], before.word_gradsq[k] + gw * gw));
    REQUIRE(near(state.context_gradsq[k], before.context_gradsq[k] + gc * gc));
  }
}

}  // namespace

TEST_CASE("GloveAdaGradPair follows glove.c's update on every target", "[glove][kernels]") {
  OnEveryTarget([] {
    for (size_t dim : {1, 3, 4, 7, 16, 37, 100}) {
      CheckAgainstReference(dim, 0.37, 10 + dim);
      CheckAgainstReference(dim, -1.9, 20 + dim);
    }
  });
}

TEST_CASE("GloveAdaGradPair clips each gradient component to the bound before the learning rate", "[glove][kernels]") {
  OnEveryTarget([] {
    // |error · component| reaches hundreds: clipped to ±100, so each step is at most 100 · 0.05 = 5 per unit gradsq.
    CheckAgainstReference(37, 400.0, 31);
    CheckAgainstReference(37, -900.0, 32);
    std::vector<float> word(5, 1.0f), context(5, -2.0f), word_gradsq(5, 1.0f), context_gradsq(5, 1.0f);
    simd::GloveAdaGradPair(word.data(), context.data(), word_gradsq.data(), context_gradsq.data(), 5, 1000.0f, 0.05f,
                           100.0f);
    for (size_t k = 0; k < 5; ++k) {
      REQUIRE(word[k] == Approx(1.0 + 5.0));      // gradient 1000 · −2 clipped to −100, times 0.05
      REQUIRE(context[k] == Approx(-2.0 - 5.0));  // gradient 1000 · 1 clipped to 100, times 0.05
      REQUIRE(word_gradsq[k] == Approx(1.0 + 25.0));
      REQUIRE(context_gradsq[k] == Approx(1.0 + 25.0));
    }
  });
}
