// The chapter's claim, checked: without positions "dog bites man" and "man bites dog" are the same bag of
// vectors, and bidirectional attention just permutes its outputs; with positions both differ.
#include <catch2/catch.hpp>
#include <cmath>

#include "compare/self_attention.h"
#include "compare/sentence_comparison.h"
#include "embed/learned_encoding.h"
#include "embed/sinusoidal_encoding.h"
#include "random/prng.h"
#include "reference_math.h"

using namespace embedlab;

namespace {

const std::vector<int32_t> kDogBitesMan = {0, 1, 2};
const std::vector<int32_t> kManBitesDog = {2, 1, 0};

// Largest |A row i - B row (2 - i)|: zero when B's outputs are A's in reverse order.
double ReversalMismatch(const std::vector<float>& a, const std::vector<float>& b, size_t dim) {
  double worst = 0;
  for (size_t i = 0; i < 3; ++i)
    for (size_t c = 0; c < dim; ++c)
      worst = std::max(worst, static_cast<double>(std::fabs(a[i * dim + c] - b[(2 - i) * dim + c])));
  return worst;
}

}  // namespace

TEST_CASE("SelfAttention matches the double-precision reference, causal and not") {
  const size_t dim = 12, length = 6;
  Prng prng(5);
  std::vector<float> x(length * dim);
  for (float& v : x) v = static_cast<float>(prng.NextNormal());
  for (bool causal : {false, true}) {
    SelfAttention attention(dim, 77, causal);
    // The documented weight stream: Wq, Wk, Wv, each N(0, 1/dim), stored column by column.
    Prng weights(77);
    std::vector<double> w[3];
    for (auto& m : w) {
      m.assign(dim * dim, 0);
      for (size_t j = 0; j < dim; ++j)
        for (size_t k = 0; k < dim; ++k) m[k * dim + j] = static_cast<float>(weights.NextNormal() / std::sqrt(12.0));
    }
    const auto expected = reference::Attention(x, length, dim, w[0], w[1], w[2], causal);
    const SelfAttention::Output result = attention.Forward(x.data(), length);
    const std::vector<float>& out = result.outputs;
    for (size_t i = 0; i < out.size(); ++i)
      REQUIRE(std::fabs(out[i] - expected[i]) <= 1e-5 * (1 + std::fabs(expected[i])));
    // The same pass's weights: each row a softmax, nothing above the diagonal when causal.
    for (size_t q = 0; q < length; ++q) {
      double total = 0;
      for (size_t k = 0; k < length; ++k) {
        const float w = result.weights[q * length + k];
        if (causal && k > q) REQUIRE(w == 0.0f);
        total += w;
      }
      REQUIRE(std::fabs(total - 1.0) <= 1e-6);
    }
  }
}

TEST_CASE("Without positions the two sentences are the same bag, and attention only permutes") {
  TokenEmbedding embedding(3, 32, 1);
  SelfAttention attention(32, 2, false);
  const SequenceComparison result = CompareSequences(kDogBitesMan, kManBitesDog, embedding, nullptr, &attention);
  REQUIRE(std::fabs(result.pooled_input_cosine - 1.0) <= 1e-6);
  REQUIRE(std::fabs(result.pooled_attention_cosine - 1.0) <= 1e-6);
  REQUIRE(ReversalMismatch(result.attention_a, result.attention_b, 32) <= 1e-6);
  // The similarity matrix is the identity pattern read backwards: row i matches column 2 - i.
  for (size_t i = 0; i < 3; ++i) REQUIRE(std::fabs(result.input_similarity[i * 3 + (2 - i)] - 1.0) <= 1e-6);
}

TEST_CASE("With sinusoidal or learned positions attention tells the sentences apart") {
  // Unit-scale tokens, as after training; at GPT-2's initial 0.02 the sinusoids would drown them.
  TokenEmbedding embedding(3, 32, 1, 1.0);
  SelfAttention attention(32, 2, false);
  SinusoidalEncoding sinusoidal(32, 16);
  LearnedEncoding learned(16, 32, 3, 1.0);
  for (const PositionalEncoding* encoding :
       {static_cast<const PositionalEncoding*>(&sinusoidal), static_cast<const PositionalEncoding*>(&learned)}) {
    INFO(PositionKindName(encoding->kind()));
    const SequenceComparison result = CompareSequences(kDogBitesMan, kManBitesDog, embedding, encoding, &attention);
    // Mean pooling adds the same positions in both sentences, so the pooled inputs still match:
    // order shows only once a layer mixes tokens with their positions.
    REQUIRE(std::fabs(result.pooled_input_cosine - 1.0) <= 1e-6);
    INFO("pooled attention cosine " << result.pooled_attention_cosine);
    REQUIRE(result.pooled_attention_cosine < 0.999f);
    REQUIRE(ReversalMismatch(result.attention_a, result.attention_b, 32) > 1e-3);
    // "bites" sits at position 1 in both sentences, so its input vector is still identical.
    REQUIRE(std::fabs(result.input_similarity[1 * 3 + 1] - 1.0) <= 1e-6);
  }
}

TEST_CASE("A causal mask tells the sentences apart even without positions") {
  TokenEmbedding embedding(3, 32, 1);
  SelfAttention causal(32, 2, true);
  const SequenceComparison result = CompareSequences(kDogBitesMan, kManBitesDog, embedding, nullptr, &causal);
  REQUIRE(std::fabs(result.pooled_input_cosine - 1.0) <= 1e-6);
  REQUIRE(ReversalMismatch(result.attention_a, result.attention_b, 32) > 1e-3);
}
