#include "training/long_context_schemes.h"

#include <cmath>
#include <stdexcept>

namespace embedlab {
namespace {

struct SchemeName {
  const char* name;
  const char* positions;
  RopeScalingType scaling;
};

const SchemeName kSchemes[] = {
    {"learned", "learned", RopeScalingType::kNone}, {"sinusoidal", "sinusoidal", RopeScalingType::kNone},
    {"rope", "rope", RopeScalingType::kNone},       {"rope_pi", "rope", RopeScalingType::kLinear},
    {"rope_ntk", "rope", RopeScalingType::kNtk},    {"rope_dynamic", "rope", RopeScalingType::kDynamic},
    {"rope_yarn", "rope", RopeScalingType::kYarn},  {"alibi", "alibi", RopeScalingType::kNone},
    {"t5", "t5", RopeScalingType::kNone},           {"none", "none", RopeScalingType::kNone},
};

}  // namespace

std::vector<LongContextScheme> LongContextSchemes() {
  std::vector<LongContextScheme> schemes;
  for (const SchemeName& scheme : kSchemes) {
    // A scheme whose positions the model does not (yet) have is left out rather than named and refused later.
    try {
      schemes.push_back({scheme.name, ParsePositionScheme(scheme.positions), scheme.scaling});
    } catch (const std::invalid_argument&) {
    }
  }
  return schemes;
}

LongContextScheme ParseLongContextScheme(const std::string& name) {
  std::string names;
  for (const LongContextScheme& scheme : LongContextSchemes()) {
    if (scheme.name == name) return scheme;
    names += (names.empty() ? "" : ", ") + scheme.name;
  }
  throw std::invalid_argument("scheme must be one of " + names + "; got \"" + name + "\"");
}

GptConfig LongContextModelConfig(const LongContextScheme& scheme, GptConfig base, int64_t train_length) {
  base.positions = scheme.positions;
  base.context_length = train_length;
  base.causal = true;
  base.rope_scaling = RopeScaling();
  base.embedding_scale = scheme.positions == PositionScheme::kSinusoidal ? std::sqrt(double(base.channels)) : 1.0;
  return base;
}

RopeScaling LongContextRopeScaling(const LongContextScheme& scheme, int64_t train_length, int64_t length) {
  RopeScaling scaling;
  if (scheme.positions != PositionScheme::kRope) return scaling;
  if (scheme.scaling == RopeScalingType::kDynamic) {
    scaling.type = RopeScalingType::kDynamic;
    scaling.factor = 1.0;
    scaling.original_context_length = train_length;
    return scaling;
  }
  if (length <= train_length || scheme.scaling == RopeScalingType::kNone) return scaling;
  scaling.type = scheme.scaling;
  scaling.factor = static_cast<double>(length) / static_cast<double>(train_length);
  scaling.original_context_length = train_length;
  return scaling;
}

}  // namespace embedlab
