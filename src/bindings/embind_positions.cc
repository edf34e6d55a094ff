// Embind bindings of the tiny GPT's positional schemes that act inside attention, one piece at a time: the
// RoPE rotation of one vector at one position (model/rotary_embedding.h), RoPE's scaled frequencies
// (model/rope_scaling.h), the ALiBi slopes of each head (model/attention.h) and T5's offset buckets
// (model/relative_position_bias.h), so a page can show exactly what the model computes. RopeScaling crosses as a value
// object (also GptConfig's ropeScaling field).
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
#include "model/relative_position_bias.h"
#include "model/rope_scaling.h"
#include "model/rotary_embedding.h"

using emscripten::val;

namespace embedlab {
namespace bindings {
namespace {

// The JS layer has checked names and types; the core checks sizes and ranges (model/rotary_embedding.h, ...).
val RopeRotateOf(const val& vector, double position, double base, const std::string& layout) {
  return Guarded<val>(val::null(), [&] {
    return CopyToFloat32Array(RopeRotate(ToFloats(vector), ToInt64(position), base, ParseRopeLayout(layout)));
  });
}

// {inverseFrequencies: Float64Array(headDim / 2), attentionFactor}; ComputeRopeFrequencies checks every argument.
val RopeFrequenciesOf(double head_dim, double base, const RopeScaling& scaling, double length) {
  return Guarded<val>(val::null(), [&] {
    const RopeFrequencies frequencies =
        ComputeRopeFrequencies(ToInt64(head_dim), base, scaling, ToInt64(length), "scaling");
    const std::vector<double>& values = frequencies.inverse_frequencies;
    val result = val::object();
    result.set("inverseFrequencies",
               val::global("Float64Array").new_(val(emscripten::typed_memory_view(values.size(), values.data()))));
    result.set("attentionFactor", frequencies.attention_factor);
    return result;
  });
}

// The type crosses as its name; the JS layer has checked it is one of ropeScalingTypes().
std::string GetType(const RopeScaling& s) { return RopeScalingTypeName(s.type); }
void SetType(RopeScaling& s, std::string name) { s.type = ParseRopeScalingType(name); }

double GetOriginalContextLength(const RopeScaling& s) { return static_cast<double>(s.original_context_length); }
void SetOriginalContextLength(RopeScaling& s, double value) { s.original_context_length = ToInt64(value); }

// The scaling types' names, in the core's order.
val RopeScalingTypes() { return NamesOf(kRopeScalingTypes, RopeScalingTypeName); }

// Every field's default (model/rope_scaling.h), for the JS layer to complete a caller's options with.
RopeScaling RopeScalingDefaults() { return kRopeScalingDefaults; }

val AlibiSlopesOf(double heads) {
  return Guarded<val>(val::null(), [&] { return CopyToFloat32Array(AlibiSlopes(ToInt64(heads))); });
}

// T5's bucket of every (query i, key j) pair, row-major length x length; the JS layer has checked the types.
val RelativePositionBucketsOf(double length, double num_buckets, double max_distance, bool bidirectional) {
  return Guarded<val>(val::null(), [&] {
    const std::vector<int32_t> buckets =
        CheckedRelativePositionBuckets(ToInt64(length), ToInt64(num_buckets), ToInt64(max_distance), bidirectional);
    return val::global("Int32Array").new_(val(emscripten::typed_memory_view(buckets.size(), buckets.data())));
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(embedlab_positions) {
  emscripten::function("ropeRotate", &RopeRotateOf);
  emscripten::function("alibiSlopes", &AlibiSlopesOf);
  emscripten::function("relativePositionBuckets", &RelativePositionBucketsOf);
  emscripten::function("ropeFrequencies", &RopeFrequenciesOf);
  emscripten::function("ropeScalingTypes", &RopeScalingTypes);
  emscripten::function("ropeScalingDefaults", &RopeScalingDefaults);
  emscripten::value_object<RopeScaling>("RopeScaling")
      .field("type", &GetType, &SetType)
      .field("factor", &RopeScaling::factor)
      .field("originalContextLength", &GetOriginalContextLength, &SetOriginalContextLength)
      .field("betaFast", &RopeScaling::beta_fast)
      .field("betaSlow", &RopeScaling::beta_slow)
      .field("attentionFactor", &RopeScaling::attention_factor)
      .field("truncate", &RopeScaling::truncate)
      .field("lowFrequencyFactor", &RopeScaling::low_frequency_factor)
      .field("highFrequencyFactor", &RopeScaling::high_frequency_factor);
}

}  // namespace bindings
}  // namespace embedlab
