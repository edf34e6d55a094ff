// GloVe word vectors (Pennington et al. 2014) trained as their reference glove.c trains them: the weighted
// least squares J = Σ_ij f(X_ij) (w_i · c_j + b_i + b̃_j − log X_ij)² over every nonzero X_ij of the
// co-occurrence counts (embed/cooccurrence_counts.h), f(X) = min(1, (X / xMax)^alpha), minimised by AdaGrad one
// pair at a time in a shuffled order; the result's vectors are words + contexts (glove.c's "-model 2").
//
// As glove.c (its version since 2020, with gradient clipping):
//   - every parameter, biases included, starts uniform in [−0.5, 0.5] / dim and every AdaGrad accumulator at 1;
//   - a vector component's gradient f·diff·(other vector's component) is clipped to ±kGloveGradientClip, then
//     times learningRate, and the accumulator adds its square;
//   - a bias steps by f·diff / sqrt(accumulator), without learningRate and unclipped, and the accumulator adds
//     (f·diff)². (stanfordnlp/GloVe pull request 209 proposes learningRate there too; its maintainers found the
//     vectors worse with it, and glove.c still does this.)
// Where it differs: one thread (glove.c's are asynchronous, so it has no fixed order), float32 parameters and
// accumulators (glove.c uses double), the shuffle drawn from the project's PRNG once before the first epoch
// (as glove's separate shuffle step does once), and a NaN or infinite error stops training with an error
// (glove.c skips that pair and goes on).
//
// Losses: losses()[k] is J of the parameters as they are after k + 1 epochs, computed in a separate pass over every
// nonzero X_ij, in double from the float32 parameters: the sum, without ½ and not divided by the number of pairs.
// (glove.c prints as "cost" ½ Σ f·diff² / pairs, accumulated during the epoch from each pair's error before its
// own update.)
//
// Draws, all from Prng(seed): first the initial values in glove.c's memory order, word rows then context rows,
// each row dim components then its bias: value = (NextUniform() − 0.5) / dim; then the order of the pairs:
// starting from the pairs sorted by (row, col), for i from pairs − 1 down to 1, j = min(i, floor(NextUniform()
// · (i + 1))) and pairs i and j swap places (Fisher–Yates). Every epoch goes through that one order.
#ifndef EMBEDLAB_EMBED_GLOVE_TRAINER_H_
#define EMBEDLAB_EMBED_GLOVE_TRAINER_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "embed/cooccurrence_counts.h"

namespace embedlab {

constexpr float kGloveGradientClip = 100.0f;  // glove.c's default -grad-clip
constexpr int64_t kMaxGloveEpochs = 100000;

// trainWordVectors' options; the defaults are glove.c's (-iter 25, -x-max 100, -eta 0.05, -alpha 0.75) and the
// paper's window of 10 (cooccur.c's default is 15). vocab_size and dim have none.
struct GloveOptions {
  int64_t vocab_size = 0;
  int64_t dim = 0;
  int64_t window = 10;
  int64_t epochs = 25;
  double x_max = 100.0;
  double alpha = 0.75;
  double learning_rate = 0.05;
  uint64_t seed = 0;
};

// Throws std::out_of_range naming the option as trainWordVectors does (vocabSize, dim, window, epochs, xMax, alpha,
// learningRate) and its range.
void ValidateGloveOptions(const GloveOptions& options);

class GloveTrainer {
 public:
  // Checks the options and ids, counts the co-occurrences, draws the initial values and the order.
  GloveTrainer(const std::vector<int32_t>& ids, const GloveOptions& options);

  // Trains on up to max_pairs pairs of the current epoch, never past its end; when the epoch ends, appends its loss
  // to losses() (so a caller sees every epoch's end). Returns true once every epoch is done. Throws
  // std::domain_error when an error becomes NaN or infinite.
  bool Advance(size_t max_pairs);
  bool done() const { return static_cast<int64_t>(losses_.size()) >= options_.epochs; }
  // J of the parameters as they are now (see Losses above).
  double Loss() const;

  const GloveOptions& options() const { return options_; }
  const Cooccurrences& cooccurrences() const { return cooccurrences_; }
  const std::vector<double>& losses() const { return losses_; }
  const std::vector<float>& words() const { return words_; }        // vocabSize x dim
  const std::vector<float>& contexts() const { return contexts_; }  // vocabSize x dim
  const std::vector<float>& word_biases() const { return word_biases_; }
  const std::vector<float>& context_biases() const { return context_biases_; }
  // words + contexts, vocabSize x dim.
  std::vector<float> Vectors() const;

 private:
  // One nonzero X_ij with what training needs of it, computed once in double.
  struct Pair {
    uint32_t row, col;
    float log_count, weight;
  };
  void Step(const Pair& pair);

  GloveOptions options_;
  size_t dim_;
  Cooccurrences cooccurrences_;
  std::vector<Pair> order_;
  size_t next_ = 0;  // position in order_ within the current epoch
  std::vector<float> words_, contexts_, word_biases_, context_biases_;
  std::vector<float> words_gradsq_, contexts_gradsq_, word_biases_gradsq_, context_biases_gradsq_;
  std::vector<double> losses_;
};

}  // namespace embedlab

#endif  // EMBEDLAB_EMBED_GLOVE_TRAINER_H_
