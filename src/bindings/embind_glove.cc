// Embind binding of the GloVe / word2vec text parser: pretrained vectors a learner loads from a file, to
// contrast with embeddings trained jointly with a model. The file is parsed by the bounds-checked,
// fuzzed C++ parser.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "bindings/boundary.h"
#include "embed/glove_file.h"

using emscripten::val;

namespace embedlab {
namespace bindings {
namespace {

// The text is in the staging buffer. Returns {words: string[], dim, vectors: Float32Array}.
val ParseGlove() {
  val result = Guarded<val>(val::null(), [&] {
    const GloveTable table = ParseGloveText(Staging());
    val words = val::array();
    for (const std::string& word : table.words) words.call<void>("push", word);
    val parsed = val::object();
    parsed.set("words", words);
    parsed.set("dim", static_cast<double>(table.dim));
    parsed.set("vectors", CopyToFloat32Array(table.vectors));
    return parsed;
  });
  ReleaseStaging();
  return result;
}

}  // namespace

EMSCRIPTEN_BINDINGS(embedlab_glove) { emscripten::function("parseGlove", &ParseGlove); }

}  // namespace bindings
}  // namespace embedlab
