#include "embed/glove_trainer.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "errors/argument_checks.h"
#include "random/prng.h"
#include "simd/glove_kernels.h"
#include "simd/vector_kernels.h"

namespace embedlab {
namespace {

// f(X) = min(1, (X / xMax)^alpha), in double.
double Weight(double count, const GloveOptions& options) {
  return count >= options.x_max ? 1.0 : std::pow(count / options.x_max, options.alpha);
}

}  // namespace

void ValidateGloveOptions(const GloveOptions& options) {
  RequireInRange("vocabSize", options.vocab_size, 1, kMaxVocabSize);
  RequireInRange("dim", options.dim, 1, kMaxDim);
  RequireTensorSize("trainWordVectors' word table (vocabSize x dim)", options.vocab_size, options.dim);
  RequireInRange("window", options.window, 1, kMaxCooccurrenceWindow);
  RequireInRange("epochs", options.epochs, 0, kMaxGloveEpochs);
  RequireFiniteAboveAtMost("xMax", options.x_max, 0.0, 1e30);
  RequireFiniteAboveAtMost("alpha", options.alpha, 0.0, 100.0);
  RequireFiniteAboveAtMost("learningRate", options.learning_rate, 0.0, 100.0);
}

GloveTrainer::GloveTrainer(const std::vector<int32_t>& ids, const GloveOptions& options)
    : options_(options), dim_(static_cast<size_t>(options.dim)) {
  ValidateGloveOptions(options);
  cooccurrences_ = CountCooccurrences(ids, options.vocab_size, options.window);
  const size_t vocab = static_cast<size_t>(options.vocab_size);
  words_.resize(vocab * dim_);
  contexts_.resize(vocab * dim_);
  word_biases_.resize(vocab);
  context_biases_.resize(vocab);
  Prng prng(options.seed);
  const auto draw = [&] { return static_cast<float>((prng.NextUniform() - 0.5) / static_cast<double>(dim_)); };
  for (std::vector<float>* table : {&words_, &contexts_}) {
    std::vector<float>& biases = table == &words_ ? word_biases_ : context_biases_;
    for (size_t row = 0; row < vocab; ++row) {
      for (size_t k = 0; k < dim_; ++k) (*table)[row * dim_ + k] = draw();
      biases[row] = draw();
    }
  }
  words_gradsq_.assign(words_.size(), 1.0f);
  contexts_gradsq_.assign(contexts_.size(), 1.0f);
  word_biases_gradsq_.assign(vocab, 1.0f);
  context_biases_gradsq_.assign(vocab, 1.0f);

  order_.resize(cooccurrences_.size());
  for (size_t i = 0; i < order_.size(); ++i) {
    const double count = cooccurrences_.values[i];
    order_[i] = {cooccurrences_.rows[i], cooccurrences_.cols[i], static_cast<float>(std::log(count)),
                 static_cast<float>(Weight(count, options_))};
  }
  for (size_t i = order_.size(); i-- > 1;) {
    const size_t j = std::min(i, static_cast<size_t>(prng.NextUniform() * static_cast<double>(i + 1)));
    std::swap(order_[i], order_[j]);
  }
}

void GloveTrainer::Step(const Pair& pair) {
  float* word = &words_[pair.row * dim_];
  float* context = &contexts_[pair.col * dim_];
  const float error =
      simd::Dot(word, context, dim_) + word_biases_[pair.row] + context_biases_[pair.col] - pair.log_count;
  const float weighted = pair.weight * error;
  if (!std::isfinite(error) || !std::isfinite(weighted)) {
    throw std::domain_error("trainWordVectors diverged: the error of pair (" + std::to_string(pair.row) + ", " +
                            std::to_string(pair.col) + ") became " + (std::isnan(error) ? "NaN" : "infinite") +
                            " in epoch " + std::to_string(losses_.size()) + "; try a smaller learningRate");
  }
  simd::GloveAdaGradPair(word, context, &words_gradsq_[pair.row * dim_], &contexts_gradsq_[pair.col * dim_], dim_,
                         weighted, static_cast<float>(options_.learning_rate), kGloveGradientClip);
  word_biases_[pair.row] -= weighted / std::sqrt(word_biases_gradsq_[pair.row]);
  context_biases_[pair.col] -= weighted / std::sqrt(context_biases_gradsq_[pair.col]);
  word_biases_gradsq_[pair.row] += weighted * weighted;
  context_biases_gradsq_[pair.col] += weighted * weighted;
}

bool GloveTrainer::Advance(size_t max_pairs) {
  if (done()) return true;
  const size_t count = std::min(max_pairs, order_.size() - next_);
  for (size_t n = 0; n < count; ++n) Step(order_[next_++]);
  if (next_ == order_.size()) {  // also when there are no pairs at all (fewer than 2 ids)
    losses_.push_back(Loss());
    next_ = 0;
  }
  return done();
}

double GloveTrainer::Loss() const {
  double total = 0.0;
  for (size_t i = 0; i < cooccurrences_.size(); ++i) {
    const size_t row = cooccurrences_.rows[i], col = cooccurrences_.cols[i];
    const double count = cooccurrences_.values[i];
    const double error = static_cast<double>(simd::Dot(&words_[row * dim_], &contexts_[col * dim_], dim_)) +
                         word_biases_[row] + context_biases_[col] - std::log(count);
    total += Weight(count, options_) * error * error;
  }
  return total;
}

std::vector<float> GloveTrainer::Vectors() const {
  std::vector<float> vectors(words_.size());
  simd::Add(words_.data(), contexts_.data(), vectors.data(), vectors.size());
  return vectors;
}

}  // namespace embedlab
