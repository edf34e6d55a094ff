// RoPE frequency scaling: how a model trained on original_context_length tokens reads longer sequences.
// The semantics are those of Hugging Face transformers' modeling_rope_utils (which cites the papers):
//   kNone:    inv_freq_i = base^(-2i/d)
//   kLinear:  inv_freq_i / factor (Position Interpolation, Chen et al. 2023)
//   kNtk:     the base becomes base * factor^(d/(d-2)) (static NTK-aware scaling)
//   kDynamic: for length L > L0 the base becomes base * (factor L / L0 - (factor - 1))^(d/(d-2)), else
//             unchanged (dynamic NTK; recomputed for every sequence length)
//   kYarn:    per pair, a ramp between interpolated (inv_freq / factor) and extrapolated (inv_freq)
//             frequencies over the pairs that turn between beta_slow and beta_fast times inside L0; the
//             attention factor (default 0.1 ln(factor) + 1) multiplies cos and sin (Peng et al. 2023)
//   kLlama3:  wavelengths above L0 / low_frequency_factor divided by factor, below L0 / high_frequency_factor
//             kept, a smooth blend between (Llama 3.1)
#ifndef EMBEDLAB_MODEL_ROPE_SCALING_H_
#define EMBEDLAB_MODEL_ROPE_SCALING_H_

#include <cstdint>
#include <string>
#include <vector>

namespace embedlab {

enum class RopeScalingType { kNone, kLinear, kNtk, kDynamic, kYarn, kLlama3 };

// Every type, in the order the API lists them.
inline constexpr RopeScalingType kRopeScalingTypes[] = {RopeScalingType::kNone, RopeScalingType::kLinear,
                                                        RopeScalingType::kNtk,  RopeScalingType::kDynamic,
                                                        RopeScalingType::kYarn, RopeScalingType::kLlama3};

// The member initializers are Hugging Face transformers' defaults, defined here once: the checkpoint reader
// (training/rope_scaling_json.h) fills missing keys from kRopeScalingDefaults, and the JS layer reads them
// from it at start-up (lab.ropeScalingDefaults) to complete the options a caller leaves out.
struct RopeScaling {
  RopeScalingType type = RopeScalingType::kNone;
  double factor = 1.0;                       // every type but kNone; in [1, kMaxRopeScalingFactor]
  int64_t original_context_length = 0;       // kDynamic, kYarn, kLlama3: L0 in [1, kMaxSequenceLength]
  double beta_fast = 32.0, beta_slow = 1.0;  // kYarn: rotations inside L0, beta_fast > beta_slow > 0
  double attention_factor = 0.0;             // kYarn: 0 = the default 0.1 ln(factor) + 1; else in (0, 16]
  bool truncate = true;                      // kYarn: floor/ceil the correction range (HF's default)
  double low_frequency_factor = 1.0, high_frequency_factor = 4.0;  // kLlama3: 0 < low < high
};

inline constexpr double kMaxRopeScalingFactor = 1e6;
inline constexpr RopeScaling kRopeScalingDefaults{};

struct RopeFrequencies {
  std::vector<double> inverse_frequencies;  // head_dim / 2 values
  double attention_factor = 1.0;            // multiplies cos and sin (so q . k by its square)
};

// Throws std::out_of_range / std::invalid_argument naming the field (prefixed by name: "config.ropeScaling.factor" for
// createModel's option, given by ValidateGptConfig; "scaling.factor" for the argument of setRopeScaling and
// ropeFrequencies) and its range.
void ValidateRopeScaling(const RopeScaling& scaling, const std::string& name = "ropeScaling");

// head_dim even in [2, kMaxDim] ([4, ...] for kNtk and kDynamic, whose exponent is d/(d-2)); base in
// [1, 1e12] (above 1 for kYarn); length (used by kDynamic only) in [1, kMaxSequenceLength]. All arithmetic in double.
// name: the scaling's name in messages, as for ValidateRopeScaling.
RopeFrequencies ComputeRopeFrequencies(int64_t head_dim, double base, const RopeScaling& scaling, int64_t length,
                                       const std::string& name = "ropeScaling");

// "none", "linear", "ntk", "dynamic", "yarn", "llama3".
const char* RopeScalingTypeName(RopeScalingType type);
// Throws std::invalid_argument listing the names otherwise.
RopeScalingType ParseRopeScalingType(const std::string& name);

}  // namespace embedlab

#endif  // EMBEDLAB_MODEL_ROPE_SCALING_H_
