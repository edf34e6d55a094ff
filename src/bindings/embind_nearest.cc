// Embind binding of the nearest-neighbour search by cosine (compare/nearest_rows.h), for any table of rows:
// a model's token embeddings as much as a GloVe file's vectors.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "bindings/boundary.h"
#include "compare/nearest_rows.h"

using emscripten::val;

namespace embedlab {
namespace bindings {
namespace {

// The JS layer has checked types and ranges; the sizes are checked again here, where they are used.
val FindNearestRows(const val& table, double dim, const val& query, double k, const val& skip) {
  return Guarded<val>(val::null(), [&] {
    const std::vector<float> rows = ToFloats(table), target = ToFloats(query);
    const size_t width = static_cast<size_t>(ToInt64(dim));
    if (width == 0 || rows.size() % width != 0) {
      throw std::out_of_range("table.length must be a multiple of dim (" + std::to_string(width) + "), got " +
                              std::to_string(rows.size()));
    }
    if (target.size() != width) {
      throw std::out_of_range("query.length must be dim (" + std::to_string(width) + "), got " +
                              std::to_string(target.size()));
    }
    const std::vector<int32_t> skipped_ids = ToIds(skip);
    const std::vector<size_t> skipped(skipped_ids.begin(), skipped_ids.end());
    const std::vector<RowCosine> nearest =
        NearestRows(rows.data(), rows.size() / width, width, target.data(), static_cast<size_t>(ToInt64(k)), skipped);
    val result = val::array();
    for (const RowCosine& found : nearest) {
      val entry = val::object();
      entry.set("row", static_cast<double>(found.row));
      entry.set("cosine", found.cosine);
      result.call<void>("push", entry);
    }
    return result;
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(embedlab_nearest) { emscripten::function("nearestRows", &FindNearestRows); }

}  // namespace bindings
}  // namespace embedlab
