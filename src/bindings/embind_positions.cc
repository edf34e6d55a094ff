// Embind bindings of the tiny GPT's positional schemes that act inside attention, one piece at a time: the
// RoPE rotation of one vector at one position (model/rotary_embedding.h) and the ALiBi slopes of each head
// (model/attention.h), so a page can show exactly what the model computes.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "bindings/boundary.h"
#include "errors/argument_checks.h"
#include "model/attention.h"
#include "model/gpt_config.h"
#include "model/rotary_embedding.h"

using emscripten::val;

namespace embedlab {
namespace bindings {
namespace {

// The JS layer has checked types; sizes and ranges are checked again here, where they are used.
val RopeRotate(const val& vector, double position, double base, const std::string& layout) {
  return Guarded<val>(val::null(), [&] {
    const std::vector<float> head = ToFloats(vector);
    RequireInRange("vector.length", static_cast<int64_t>(head.size()), 2, kMaxDim);
    if (head.size() % 2 != 0) {
      throw std::out_of_range("RoPE rotates pairs, so vector.length must be even, got " + std::to_string(head.size()));
    }
    RequireInRange("position", ToInt64(position), 0, INT32_MAX);
    RequireFiniteInRange("base", base, 1.0, 1e12);
    // One head as wide as the vector: RotateHead then rotates it exactly as Forward rotates a head of q or k.
    const RotaryEmbedding rope(head.size(), 1, base, ParseRopeLayout(layout));
    std::vector<float> rotated(head.size());
    rope.RotateHead(head.data(), static_cast<size_t>(ToInt64(position)), rotated.data());
    return CopyToFloat32Array(rotated);
  });
}

val AlibiSlopesOf(double heads) {
  return Guarded<val>(val::null(), [&] {
    RequireInRange("heads", ToInt64(heads), 1, kMaxDim);
    std::vector<float> slopes(static_cast<size_t>(ToInt64(heads)));
    AlibiSlopes(slopes.size(), slopes.data());
    return CopyToFloat32Array(slopes);
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(embedlab_positions) {
  emscripten::function("ropeRotate", &RopeRotate);
  emscripten::function("alibiSlopes", &AlibiSlopesOf);
}

}  // namespace bindings
}  // namespace embedlab
