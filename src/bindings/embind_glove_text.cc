// Embind binding of the GloVe text writer (embed/glove_text_writer.h), the inverse of parseGlove: a table of
// word vectors out as the text lab.loadWordVectors reads back.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "bindings/boundary.h"
#include "embed/glove_text_writer.h"
#include "errors/argument_checks.h"

using emscripten::val;

namespace embedlab {
namespace bindings {
namespace {

// The JS layer has checked types; sizes are checked again here, where they are used.
std::string GloveText(const val& words, const val& table, double dim) {
  return Guarded<std::string>("", [&] {
    const std::vector<std::string> rows = emscripten::vecFromJSArray<std::string>(words);
    const int64_t width = ToInt64(dim);
    RequireInRange("dim", width, 1, kMaxDim);
    RequireTensorSize("table", static_cast<int64_t>(rows.size()), width);
    const std::vector<float> vectors = ToFloats(table);
    if (static_cast<int64_t>(vectors.size()) != static_cast<int64_t>(rows.size()) * width) {
      throw std::out_of_range("table.length must be words.length * dim (" +
                              std::to_string(rows.size() * static_cast<size_t>(width)) + "), got " +
                              std::to_string(vectors.size()));
    }
    return WriteGloveText(rows, vectors.data(), static_cast<size_t>(width));
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(embedlab_glove_text) { emscripten::function("gloveText", &GloveText); }

}  // namespace bindings
}  // namespace embedlab
