#include "model/gpt_config.h"

#include <stdexcept>

#include "errors/argument_checks.h"
#include "text/decimal.h"

namespace embedlab {

void ValidateGptConfig(const GptConfig& config, const std::string& name) {
  const std::string channels = OptionName(name, "channels");
  const std::string heads = OptionName(name, "heads");
  RequireInRange(OptionName(name, "vocabSize"), config.vocab_size, 1, kMaxVocabSize);
  RequireInRange(OptionName(name, "contextLength"), config.context_length, 1, kMaxSequenceLength);
  RequireInRange(channels, config.channels, 1, kMaxDim);
  RequireInRange(OptionName(name, "layers"), config.layers, 1, 64);
  RequireInRange(heads, config.heads, 1, config.channels);
  if (config.channels % config.heads != 0) {
    throw std::out_of_range(channels + " (" + std::to_string(config.channels) + ") must be a multiple of " + heads +
                            " (" + std::to_string(config.heads) + ")");
  }
  const int64_t head_dim = config.channels / config.heads;
  if (config.positions == PositionScheme::kRope && head_dim % 2 != 0) {
    throw std::out_of_range("RoPE rotates pairs, so " + channels + " / " + heads + " must be even, got " +
                            std::to_string(head_dim));
  }
  if (config.positions == PositionScheme::kSinusoidal && config.channels % 2 != 0) {
    throw std::out_of_range("the sinusoidal encoding needs an even " + channels + ", got " +
                            std::to_string(config.channels));
  }
  RequireFiniteInRange(OptionName(name, "ropeBase"), config.rope_base, 1.0, 1e12);
  if (config.rope_scaling.type != RopeScalingType::kNone) {
    if (config.positions != PositionScheme::kRope) {
      const std::string positions = OptionName(name, "positions");
      throw std::invalid_argument(OptionName(name, "ropeScaling") + " needs " + positions + " 'rope', got " +
                                  positions + " '" + PositionSchemeName(config.positions) + "'");
    }
    ValidateRopeScaling(config.rope_scaling, OptionName(name, "ropeScaling"));
    const RopeScalingType type = config.rope_scaling.type;
    if ((type == RopeScalingType::kNtk || type == RopeScalingType::kDynamic) && head_dim < 4) {
      throw std::out_of_range("NTK scaling raises the base to d/(d-2), so " + channels + " / " + heads +
                              " must be >= 4, got " + std::to_string(head_dim));
    }
  }
  if (config.positions == PositionScheme::kT5) {
    ValidateRelativePositionBuckets(OptionName(name, "t5NumBuckets"), config.t5_num_buckets,
                                    OptionName(name, "t5MaxDistance"), config.t5_max_distance, !config.causal);
  }
  // Open at 0: a zero scale would erase the tokens; the negation catches NaN too.
  if (!(config.embedding_scale > 0.0 && config.embedding_scale <= kMaxEmbeddingScale)) {
    throw std::out_of_range(OptionName(name, "embeddingScale") + " must be a finite number in (0, " +
                            std::to_string(static_cast<int>(kMaxEmbeddingScale)) + "], got " +
                            FormatShortest(config.embedding_scale));
  }
  RequireTensorSize("the token embedding wte", config.vocab_size, config.channels);
  RequireTensorSize("the MLP weight", 4 * config.channels, config.channels);
}

const char* PositionSchemeName(PositionScheme scheme) {
  switch (scheme) {
    case PositionScheme::kLearned:
      return "learned";
    case PositionScheme::kSinusoidal:
      return "sinusoidal";
    case PositionScheme::kRope:
      return "rope";
    case PositionScheme::kAlibi:
      return "alibi";
    case PositionScheme::kT5:
      return "t5";
    case PositionScheme::kNone:
      return "none";
  }
  return "unknown";
}

PositionScheme ParsePositionScheme(const std::string& name) {
  for (PositionScheme scheme : kPositionSchemes) {
    if (name == PositionSchemeName(scheme)) return scheme;
  }
  std::string names;
  for (PositionScheme scheme : kPositionSchemes) {
    names += std::string(names.empty() ? "" : ", ") + PositionSchemeName(scheme);
  }
  throw std::invalid_argument("positions must be one of " + names + "; got \"" + name + "\"");
}

const char* RopeLayoutName(RopeLayout layout) {
  return layout == RopeLayout::kInterleaved ? "interleaved" : "rotate_half";
}

RopeLayout ParseRopeLayout(const std::string& name) {
  if (name == "interleaved") return RopeLayout::kInterleaved;
  if (name == "rotate_half") return RopeLayout::kRotateHalf;
  throw std::invalid_argument("ropeLayout must be \"interleaved\" or \"rotate_half\", got \"" + name + "\"");
}

}  // namespace embedlab
