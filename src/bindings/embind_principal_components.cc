// Embind binding of the principal components of a table's rows (compare/principal_components.h): the page's
// 2-D scatter plots of token and position embeddings.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "bindings/boundary.h"
#include "compare/principal_components.h"
#include "errors/argument_checks.h"

using emscripten::val;

namespace embedlab {
namespace bindings {
namespace {

val CopyToFloat64Array(const std::vector<double>& values) {
  return val::global("Float64Array").new_(val(emscripten::typed_memory_view(values.size(), values.data())));
}

// The JS layer has checked types; sizes are checked again here, where they are used.
val FindPrincipalComponents(const val& values, double rows, double cols, double count) {
  return Guarded<val>(val::null(), [&] {
    const int64_t height = ToInt64(rows), width = ToInt64(cols);
    RequireInRange("rows", height, 1, kMaxTensorFloats);
    RequireInRange("cols", width, 1, kMaxDim);
    RequireTensorSize("values", height, width);
    const std::vector<float> table = ToFloats(values);
    if (static_cast<int64_t>(table.size()) != height * width) {
      throw std::out_of_range("values.length must be rows * cols (" + std::to_string(height * width) + "), got " +
                              std::to_string(table.size()));
    }
    const PrincipalComponents pca = PrincipalComponentsOf(
        table.data(), static_cast<size_t>(height), static_cast<size_t>(width), static_cast<size_t>(ToInt64(count)));
    val result = val::object();
    result.set("components", CopyToFloat64Array(pca.components));
    result.set("variances", CopyToFloat64Array(pca.variances));
    result.set("projections", CopyToFloat64Array(pca.projections));
    return result;
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(embedlab_principal_components) {
  emscripten::function("principalComponents", &FindPrincipalComponents);
}

}  // namespace bindings
}  // namespace embedlab
