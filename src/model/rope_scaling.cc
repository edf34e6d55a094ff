#include "model/rope_scaling.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "errors/argument_checks.h"
#include "text/decimal.h"

namespace embedlab {
namespace {

constexpr double kPi = 3.14159265358979323846;

// value in (0, hi]; the negation also rejects NaN.
void RequirePositive(const std::string& name, double value, double hi) {
  if (!(value > 0.0 && value <= hi)) {
    throw std::out_of_range(name + " must be a finite number in (0, " + FormatShortest(hi) + "], got " +
                            FormatShortest(value));
  }
}

bool UsesOriginalLength(RopeScalingType type) {
  return type == RopeScalingType::kDynamic || type == RopeScalingType::kYarn || type == RopeScalingType::kLlama3;
}

// The pair index (possibly fractional) whose wavelength turns `rotations` times inside `length` tokens:
// pair d has wavelength 2 pi base^(2d/dim); solved for d (YaRN's find_correction_dim).
// Extreme betas (e.g. 1e-310) make the log infinite; a huge finite value gives the ramp its limit instead of
// inf / inf = NaN.
double CorrectionDim(double rotations, double dim, double base, double length) {
  const double value = dim * std::log(length / (rotations * 2.0 * kPi)) / (2.0 * std::log(base));
  return std::clamp(value, -1e300, 1e300);
}

}  // namespace

void ValidateRopeScaling(const RopeScaling& s, const std::string& name) {
  if (s.type == RopeScalingType::kNone) return;
  RequireFiniteInRange(name + ".factor", s.factor, 1.0, kMaxRopeScalingFactor);
  if (UsesOriginalLength(s.type)) {
    RequireInRange(name + ".originalContextLength", s.original_context_length, 1, kMaxSequenceLength);
  }
  if (s.type == RopeScalingType::kYarn) {
    RequirePositive(name + ".betaSlow", s.beta_slow, 1e6);
    RequirePositive(name + ".betaFast", s.beta_fast, 1e6);
    if (!(s.beta_fast > s.beta_slow)) {
      throw std::out_of_range(name + ".betaFast (" + FormatShortest(s.beta_fast) + ") must exceed " + name +
                              ".betaSlow (" + FormatShortest(s.beta_slow) + ")");
    }
    // 0 stands for "not given" (the default); anything else must be a usable multiplier.
    if (s.attention_factor != 0.0) RequirePositive(name + ".attentionFactor", s.attention_factor, 16.0);
  }
  if (s.type == RopeScalingType::kLlama3) {
    RequirePositive(name + ".lowFrequencyFactor", s.low_frequency_factor, 1e6);
    RequirePositive(name + ".highFrequencyFactor", s.high_frequency_factor, 1e6);
    if (!(s.high_frequency_factor > s.low_frequency_factor)) {
      throw std::out_of_range(name + ".highFrequencyFactor (" + FormatShortest(s.high_frequency_factor) +
                              ") must exceed " + name + ".lowFrequencyFactor (" +
                              FormatShortest(s.low_frequency_factor) + ")");
    }
  }
}

RopeFrequencies ComputeRopeFrequencies(int64_t head_dim, double base, const RopeScaling& s, int64_t length,
                                       const std::string& name) {
  const bool ntk_family = s.type == RopeScalingType::kNtk || s.type == RopeScalingType::kDynamic;
  RequireInRange("headDim", head_dim, ntk_family ? 4 : 2, kMaxDim);
  if (head_dim % 2 != 0) {
    throw std::out_of_range("RoPE rotates pairs, so headDim must be even, got " + std::to_string(head_dim));
  }
  RequireFiniteInRange("base", base, 1.0, 1e12);
  // With base 1 every pair has the same wavelength: YaRN's correction range divides by ln(base) = 0.
  if (s.type == RopeScalingType::kYarn && base == 1.0) {
    throw std::out_of_range(name +
                            " type 'yarn' needs a RoPE base > 1 (its correction range divides by ln(base)), got 1");
  }
  RequireInRange("length", length, 1, kMaxSequenceLength);
  ValidateRopeScaling(s, name);

  const size_t half = static_cast<size_t>(head_dim / 2);
  const double d = static_cast<double>(head_dim);
  const double original = static_cast<double>(s.original_context_length);
  // NTK-aware: stretch the base so the lowest frequency is interpolated by `factor` and the highest kept.
  if (s.type == RopeScalingType::kNtk) base *= std::pow(s.factor, d / (d - 2.0));
  if (s.type == RopeScalingType::kDynamic && static_cast<double>(length) > original) {
    base *= std::pow(s.factor * static_cast<double>(length) / original - (s.factor - 1.0), d / (d - 2.0));
  }
  RopeFrequencies out;
  out.inverse_frequencies.resize(half);
  for (size_t i = 0; i < half; ++i) {
    out.inverse_frequencies[i] = std::pow(base, -2.0 * static_cast<double>(i) / d);
  }
  std::vector<double>& f = out.inverse_frequencies;
  switch (s.type) {
    case RopeScalingType::kNone:
    case RopeScalingType::kNtk:
    case RopeScalingType::kDynamic:
      break;
    case RopeScalingType::kLinear:
      for (double& x : f) x /= s.factor;
      break;
    case RopeScalingType::kYarn: {
      out.attention_factor = s.attention_factor != 0.0 ? s.attention_factor : 0.1 * std::log(s.factor) + 1.0;
      double low = CorrectionDim(s.beta_fast, d, base, original);
      double high = CorrectionDim(s.beta_slow, d, base, original);
      if (s.truncate) {
        low = std::floor(low);
        high = std::ceil(high);
      }
      low = std::max(low, 0.0);
      high = std::min(high, d - 1.0);
      if (low == high) high += 0.001;  // HF's guard against a zero-width ramp
      for (size_t i = 0; i < half; ++i) {
        // ramp 0: pair i turns often inside L0, extrapolate (keep); ramp 1: interpolate (divide by factor).
        const double ramp = std::clamp((static_cast<double>(i) - low) / (high - low), 0.0, 1.0);
        f[i] = f[i] / s.factor * ramp + f[i] * (1.0 - ramp);
      }
      break;
    }
    case RopeScalingType::kLlama3: {
      const double low_wavelength = original / s.low_frequency_factor;
      const double high_wavelength = original / s.high_frequency_factor;
      for (double& x : f) {
        const double wavelength = 2.0 * kPi / x;
        if (wavelength > low_wavelength) {
          x /= s.factor;
        } else if (wavelength >= high_wavelength) {
          const double smooth =
              (original / wavelength - s.low_frequency_factor) / (s.high_frequency_factor - s.low_frequency_factor);
          x = (1.0 - smooth) * x / s.factor + smooth * x;
        }
      }
      break;
    }
  }
  return out;
}

const char* RopeScalingTypeName(RopeScalingType type) {
  switch (type) {
    case RopeScalingType::kNone:
      return "none";
    case RopeScalingType::kLinear:
      return "linear";
    case RopeScalingType::kNtk:
      return "ntk";
    case RopeScalingType::kDynamic:
      return "dynamic";
    case RopeScalingType::kYarn:
      return "yarn";
    case RopeScalingType::kLlama3:
      return "llama3";
  }
  return "unknown";
}

RopeScalingType ParseRopeScalingType(const std::string& name) {
  std::string names;
  for (RopeScalingType type : kRopeScalingTypes) {
    if (name == RopeScalingTypeName(type)) return type;
    names += std::string(names.empty() ? "" : ", ") + RopeScalingTypeName(type);
  }
  throw std::invalid_argument("ropeScaling.type must be one of " + names + "; got \"" + name + "\"");
}

}  // namespace embedlab
