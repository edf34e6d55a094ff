// Embind binding of the GloVe trainer (embed/glove_trainer.h). The JS layer drives it in slices of pairs
// (advance), so a long run yields to the event loop, reports each epoch and stops at an AbortSignal; options
// arrive as numbers the JS layer has type-checked, and every range is checked by the core.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "bindings/boundary.h"
#include "embed/glove_trainer.h"
#include "errors/argument_checks.h"

using emscripten::val;

namespace embedlab {
namespace bindings {
namespace {

template <typename Number>
val CopyToTypedArray(const char* type, const std::vector<Number>& values) {
  return val::global(type).new_(val(emscripten::typed_memory_view(values.size(), values.data())));
}

class WordVectorTrainerBinding {
 public:
  explicit WordVectorTrainerBinding(std::unique_ptr<GloveTrainer> trainer) : trainer_(std::move(trainer)) {}

  // max_pairs clamped to [1, pairs] (at least 1 so a call always makes progress): a larger count would wrap in
  // wasm32's 32-bit size_t.
  bool Advance(double max_pairs) {
    const int64_t pairs = static_cast<int64_t>(trainer_->cooccurrences().size());
    const int64_t count = std::max<int64_t>(1, std::min<int64_t>(ToInt64(max_pairs), pairs));
    return Guarded<bool>(false, [&] { return trainer_->Advance(static_cast<size_t>(count)); });
  }
  double PairCount() const { return static_cast<double>(trainer_->cooccurrences().size()); }
  val Losses() const { return CopyToTypedArray("Float64Array", trainer_->losses()); }

  // {vectors, words, contexts, wordBiases, contextBiases, losses, cooccurrences: {rows, cols, values}}, all copies.
  val Result() const {
    return Guarded<val>(val::null(), [&] {
      val result = val::object();
      result.set("vectors", CopyToFloat32Array(trainer_->Vectors()));
      result.set("words", CopyToFloat32Array(trainer_->words()));
      result.set("contexts", CopyToFloat32Array(trainer_->contexts()));
      result.set("wordBiases", CopyToFloat32Array(trainer_->word_biases()));
      result.set("contextBiases", CopyToFloat32Array(trainer_->context_biases()));
      result.set("losses", Losses());
      const Cooccurrences& table = trainer_->cooccurrences();
      val cooccurrences = val::object();
      cooccurrences.set("rows", CopyToTypedArray("Uint32Array", table.rows));
      cooccurrences.set("cols", CopyToTypedArray("Uint32Array", table.cols));
      cooccurrences.set("values", CopyToTypedArray("Float64Array", table.values));
      result.set("cooccurrences", cooccurrences);
      return result;
    });
  }

 private:
  std::unique_ptr<GloveTrainer> trainer_;
};

// options: {vocabSize, dim, window, epochs, xMax, alpha, learningRate}, every field a number; seed checked here.
WordVectorTrainerBinding* CreateWordVectorTrainer(const val& ids, const val& options, double seed) {
  return Guarded<WordVectorTrainerBinding*>(nullptr, [&] {
    GloveOptions glove;
    glove.vocab_size = ToInt64(options["vocabSize"].as<double>());
    glove.dim = ToInt64(options["dim"].as<double>());
    glove.window = ToInt64(options["window"].as<double>());
    glove.epochs = ToInt64(options["epochs"].as<double>());
    glove.x_max = options["xMax"].as<double>();
    glove.alpha = options["alpha"].as<double>();
    glove.learning_rate = options["learningRate"].as<double>();
    glove.seed = RequireSeed("seed", seed);
    return new WordVectorTrainerBinding(std::make_unique<GloveTrainer>(ToIds(ids), glove));
  });
}

// What trainWordVectors fills in for an option left out (GloveOptions' defaults: glove.c's and the paper's), and
// its caps.
val WordVectorDefaults() {
  const GloveOptions defaults;
  val object = val::object();
  object.set("window", static_cast<double>(defaults.window));
  object.set("epochs", static_cast<double>(defaults.epochs));
  object.set("xMax", defaults.x_max);
  object.set("alpha", defaults.alpha);
  object.set("learningRate", defaults.learning_rate);
  object.set("seed", static_cast<double>(defaults.seed));
  object.set("maxTokens", static_cast<double>(kMaxWordVectorTokens));
  object.set("maxPairs", static_cast<double>(kMaxCooccurrencePairs));
  return object;
}

}  // namespace

EMSCRIPTEN_BINDINGS(embedlab_word_vector_training) {
  using emscripten::allow_raw_pointers;
  emscripten::class_<WordVectorTrainerBinding>("WordVectorTrainer")
      .function("advance", &WordVectorTrainerBinding::Advance)
      .function("pairCount", &WordVectorTrainerBinding::PairCount)
      .function("losses", &WordVectorTrainerBinding::Losses)
      .function("result", &WordVectorTrainerBinding::Result);
  emscripten::function("createWordVectorTrainer", &CreateWordVectorTrainer, allow_raw_pointers());
  emscripten::function("wordVectorDefaults", &WordVectorDefaults);
}

}  // namespace bindings
}  // namespace embedlab
