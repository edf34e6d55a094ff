// The GloVe trainer (embed/glove_trainer.h) against a scalar double-precision GloVe written here from the paper
// and glove.c's update (its own counting, parameters and loss; it shares only the project PRNG, whose draws the
// header documents), on a toy corpus; losses that fall; determinism; the checks of every option.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <utility>
#include <vector>

#include "embed/glove_trainer.h"
#include "random/prng.h"

using embedlab::GloveOptions;
using embedlab::GloveTrainer;

namespace {

// A corpus of sentences "a x b" and "c y d" with x, y drawn from two groups, so words of a group share contexts.
std::vector<int32_t> ToyCorpus(size_t sentences, uint64_t seed) {
  embedlab::Prng prng(seed);
  std::vector<int32_t> ids;
  for (size_t s = 0; s < sentences; ++s) {
    const bool first = prng.NextU32() % 2 == 0;
    const int32_t middle = static_cast<int32_t>(prng.NextU32() % 3) + (first ? 4 : 7);
    ids.insert(ids.end(), {first ? 0 : 2, middle, first ? 1 : 3});
  }
  return ids;
}

struct ReferenceGlove {
  size_t dim;
  std::vector<std::vector<double>> w, c, gw, gc;  // rows of dim + 1: the vector, then the bias (glove.c's layout)
  std::vector<std::pair<std::pair<size_t, size_t>, double>> pairs;
  double x_max, alpha, eta;

  ReferenceGlove(const std::vector<int32_t>& ids, const GloveOptions& options)
      : dim(static_cast<size_t>(options.dim)), x_max(options.x_max), alpha(options.alpha), eta(options.learning_rate) {
    std::map<std::pair<size_t, size_t>, double> counts;
    const size_t window = static_cast<size_t>(options.window);
    for (size_t j = 0; j < ids.size(); ++j) {
      for (size_t k = j > window ? j - window : 0; k < j; ++k) {
        const size_t a = static_cast<size_t>(ids[k]), b = static_cast<size_t>(ids[j]);
        counts[{a, b}] += 1.0 / static_cast<double>(j - k);
        counts[{b, a}] += 1.0 / static_cast<double>(j - k);
      }
    }
    pairs.assign(counts.begin(), counts.end());
    embedlab::Prng prng(options.seed);
    const size_t vocab = static_cast<size_t>(options.vocab_size);
    for (auto* table : {&w, &c}) {
      table->assign(vocab, std::vector<double>(dim + 1));
      for (auto& row : *table) {
        for (double& x : row) x = static_cast<float>((prng.NextUniform() - 0.5) / static_cast<double>(dim));
      }
    }
    gw.assign(vocab, std::vector<double>(dim + 1, 1.0));
    gc = gw;
    for (size_t i = pairs.size(); i-- > 1;) {
      std::swap(pairs[i], pairs[std::min(i, static_cast<size_t>(prng.NextUniform() * static_cast<double>(i + 1)))]);
    }
  }

  double Weight(double x) const { return x > x_max ? 1.0 : std::pow(x / x_max, alpha); }
  double Error(const std::pair<std::pair<size_t, size_t>, double>& pair) const {
    const auto& word = w[pair.first.first];
    const auto& context = c[pair.first.second];
    double error = word[dim] + context[dim] - std::log(pair.second);
    for (size_t k = 0; k < dim; ++k) error += word[k] * context[k];
    return error;
  }

  void Epoch() {
    for (const auto& pair : pairs) {
      auto &word = w[pair.first.first], &context = c[pair.first.second];
      auto &word_sq = gw[pair.first.first], &context_sq = gc[pair.first.second];
      const double fdiff = Weight(pair.second) * Error(pair);
      for (size_t k = 0; k < dim; ++k) {
        const double g1 = std::min(100.0, std::max(-100.0, fdiff * context[k])) * eta;
        const double g2 = std::min(100.0, std::max(-100.0, fdiff * word[k])) * eta;
        word[k] -= g1 / std::sqrt(word_sq[k]);
        context[k] -= g2 / std::sqrt(context_sq[k]);
        word_sq[k] += g1 * g1;
        context_sq[k] += g2 * g2;
      }
      word[dim] -= fdiff / std::sqrt(word_sq[dim]);  // glove.c: the biases step without eta
      context[dim] -= fdiff / std::sqrt(context_sq[dim]);
      word_sq[dim] += fdiff * fdiff;
      context_sq[dim] += fdiff * fdiff;
    }
  }

  double Loss() const {
    double total = 0;
    for (const auto& pair : pairs) total += Weight(pair.second) * Error(pair) * Error(pair);
    return total;
  }
};

GloveOptions ToyOptions() {
  GloveOptions options;
  options.vocab_size = 11;  // token 10 never occurs: its row only gets its initial draw
  options.dim = 6;
  options.window = 2;
  options.epochs = 8;
  options.x_max = 10;
  options.seed = 42;
  return options;
}

}  // namespace

TEST_CASE("GloVe matches a double-precision reference epoch by epoch", "[glove]") {
  const std::vector<int32_t> ids = ToyCorpus(300, 7);
  const GloveOptions options = ToyOptions();
  GloveTrainer trainer(ids, options);
  ReferenceGlove reference(ids, options);
  REQUIRE(trainer.cooccurrences().size() == reference.pairs.size());
  for (int64_t epoch = 0; epoch < options.epochs; ++epoch) {
    reference.Epoch();
    trainer.Advance(reference.pairs.size());
    REQUIRE(trainer.losses().size() == static_cast<size_t>(epoch + 1));
    INFO("epoch " << epoch);
    REQUIRE(trainer.losses().back() == Approx(reference.Loss()).epsilon(1e-5));
  }
  REQUIRE(trainer.done());
  const size_t dim = static_cast<size_t>(options.dim);
  const std::vector<float> vectors = trainer.Vectors();
  for (size_t row = 0; row < static_cast<size_t>(options.vocab_size); ++row) {
    INFO("row " << row);
    for (size_t k = 0; k < dim; ++k) {
      REQUIRE(std::fabs(trainer.words()[row * dim + k] - reference.w[row][k]) <= 1e-5);
      REQUIRE(std::fabs(trainer.contexts()[row * dim + k] - reference.c[row][k]) <= 1e-5);
      REQUIRE(std::fabs(vectors[row * dim + k] - (reference.w[row][k] + reference.c[row][k])) <= 2e-5);
    }
    REQUIRE(std::fabs(trainer.word_biases()[row] - reference.w[row][dim]) <= 1e-5);
    REQUIRE(std::fabs(trainer.context_biases()[row] - reference.c[row][dim]) <= 1e-5);
  }
}

TEST_CASE("GloVe's loss falls epoch after epoch on a toy corpus", "[glove]") {
  GloveOptions options = ToyOptions();
  options.epochs = 30;
  GloveTrainer trainer(ToyCorpus(2000, 3), options);
  const double initial = trainer.Loss();
  while (!trainer.Advance(SIZE_MAX)) {
  }
  const std::vector<double>& losses = trainer.losses();
  REQUIRE(losses.size() == 30);
  REQUIRE(losses[0] < initial);
  for (size_t k = 1; k < losses.size(); ++k) {
    INFO("epoch " << k);
    REQUIRE(losses[k] < losses[k - 1]);
  }
  REQUIRE(losses.back() < 0.05 * initial);
}

TEST_CASE("GloVe: same seed, same numbers, however the epochs are sliced, and another seed differs", "[glove]") {
  const std::vector<int32_t> ids = ToyCorpus(200, 9);
  GloveOptions options = ToyOptions();
  options.epochs = 3;
  GloveTrainer whole(ids, options), sliced(ids, options);
  while (!whole.Advance(SIZE_MAX)) {
  }
  while (!sliced.Advance(7)) {
  }
  REQUIRE(whole.words() == sliced.words());
  REQUIRE(whole.context_biases() == sliced.context_biases());
  REQUIRE(whole.losses() == sliced.losses());
  options.seed = 43;
  GloveTrainer other(ids, options);
  while (!other.Advance(SIZE_MAX)) {
  }
  REQUIRE(other.words() != whole.words());
}

TEST_CASE("GloVe: initial values are uniform within ±0.5 / dim and zero epochs leave them", "[glove]") {
  GloveOptions options = ToyOptions();
  options.dim = 50;
  options.epochs = 0;
  GloveTrainer trainer(ToyCorpus(10, 1), options);
  REQUIRE(trainer.Advance(1));
  REQUIRE(trainer.losses().empty());
  const auto [low, high] = std::minmax_element(trainer.words().begin(), trainer.words().end());
  REQUIRE(*low >= -0.01f);
  REQUIRE(*high <= 0.01f);
  REQUIRE(*high - *low > 0.019f);
}

TEST_CASE("GloVe options are checked, by their JS names and ranges", "[glove]") {
  const std::vector<int32_t> ids = {0, 1, 2};
  const auto with = [](auto change) {
    GloveOptions options = ToyOptions();
    change(options);
    return options;
  };
  using Options = GloveOptions&;
  REQUIRE_THROWS_WITH(GloveTrainer(ids, with([](Options o) { o.dim = 0; })),
                      "dim must be an integer in [1, 16384], got 0");
  REQUIRE_THROWS_WITH(GloveTrainer(ids, with([](Options o) { o.window = 0; })),
                      "window must be an integer in [1, 1000], got 0");
  REQUIRE_THROWS_WITH(GloveTrainer(ids, with([](Options o) { o.epochs = -1; })),
                      "epochs must be an integer in [0, 100000], got -1");
  REQUIRE_THROWS_WITH(GloveTrainer(ids, with([](Options o) { o.x_max = 0; })),
                      "xMax must be a finite number in (0, 1e+30], got 0");
  REQUIRE_THROWS_WITH(GloveTrainer(ids, with([](Options o) { o.alpha = -0.5; })),
                      "alpha must be a finite number in (0, 100], got -0.5");
  REQUIRE_THROWS_WITH(GloveTrainer(ids, with([](Options o) { o.learning_rate = NAN; })),
                      "learningRate must be a finite number in (0, 100], got NaN");
  REQUIRE_THROWS_WITH(GloveTrainer(ids, with([](Options o) { o.vocab_size = 2; })),
                      "ids[2] must be a token id in [0, 1] (vocabSize 2), got 2");
  REQUIRE_THROWS_WITH(GloveTrainer(ids, with([](Options o) { o.vocab_size = 1 << 21, o.dim = 16384; })),
                      "trainWordVectors' word table (vocabSize x dim) would hold 2097152 x 16384 floats; the limit "
                      "is 268435456 floats (1 GiB)");
}
