// RoPE scaling options: the "rope_scaling" JSON a checkpoint holds (training/rope_scaling_json.h) and the
// frequency function (model/rope_scaling.h).
// Byte 0 even: the rest is JSON text. Whatever it accepts is valid and writes back to JSON that reads as the
// same options. Byte 0 odd: the rest picks options, head size, base and length (special doubles included);
// the function accepts them exactly when the header's documented ranges hold (checked here independently),
// and then returns head_dim / 2 finite frequencies in (0, unscaled], non-increasing, no smaller than the
// unscaled ones divided by the type's largest stretch, and a finite attention factor > 0.
#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string>

#include "fuzz_common.h"
#include "model/rope_scaling.h"
#include "training/rope_scaling_json.h"

using namespace embedlab;

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kSlack = 1e-12;  // relative rounding allowance of pow, division and the blends

bool Same(const RopeScaling& a, const RopeScaling& b) {
  return a.type == b.type && a.factor == b.factor && a.original_context_length == b.original_context_length &&
         a.beta_fast == b.beta_fast && a.beta_slow == b.beta_slow && a.attention_factor == b.attention_factor &&
         a.truncate == b.truncate && a.low_frequency_factor == b.low_frequency_factor &&
         a.high_frequency_factor == b.high_frequency_factor;
}

void CheckJson(const std::string& text) {
  RopeScaling parsed;
  if (!AcceptErrors([&] { parsed = RopeScalingFromJson(text); })) return;
  ValidateRopeScaling(parsed);                        // throws (a finding) if the parser let an invalid value through
  if (parsed.type == RopeScalingType::kNone) return;  // never written (the key is absent for kNone)
  const RopeScaling again = RopeScalingFromJson(RopeScalingToJson(parsed));
  // Keys a type does not use are not written, so compare what the type uses.
  RopeScaling expected = again;
  expected.factor = parsed.factor;
  if (parsed.type == RopeScalingType::kDynamic || parsed.type == RopeScalingType::kYarn ||
      parsed.type == RopeScalingType::kLlama3) {
    expected.original_context_length = parsed.original_context_length;
  }
  if (parsed.type == RopeScalingType::kYarn) {
    expected.beta_fast = parsed.beta_fast;
    expected.beta_slow = parsed.beta_slow;
    expected.attention_factor = parsed.attention_factor;
    expected.truncate = parsed.truncate;
  }
  if (parsed.type == RopeScalingType::kLlama3) {
    expected.low_frequency_factor = parsed.low_frequency_factor;
    expected.high_frequency_factor = parsed.high_frequency_factor;
  }
  FUZZ_CHECK(again.type == parsed.type);
  FUZZ_CHECK(Same(again, expected));
}

// A double: mostly a plausible value in [lo, hi], sometimes exactly lo or hi (the documented ends), sometimes
// any bit pattern (NaN, infinities, negatives, subnormals).
double Number(FuzzedDataProvider& in, double lo, double hi) {
  switch (in.ConsumeIntegralInRange<int>(0, 9)) {
    case 0: {
      const uint64_t bits = in.ConsumeIntegral<uint64_t>();
      double value;
      std::memcpy(&value, &bits, sizeof(value));
      return value;
    }
    case 1:
      return lo;
    case 2:
      return hi;
    default:
      return in.ConsumeFloatingPointInRange(lo, hi);
  }
}

bool In(double value, double lo, double hi) { return value >= lo && value <= hi; }  // false for NaN
bool Positive(double value, double hi) { return value > 0.0 && value <= hi; }

// The documented ranges (rope_scaling.h), written out here rather than calling the validator.
bool Valid(int64_t head_dim, double base, const RopeScaling& s, int64_t length) {
  const bool ntk = s.type == RopeScalingType::kNtk || s.type == RopeScalingType::kDynamic;
  if (head_dim < (ntk ? 4 : 2) || head_dim > 16384 || head_dim % 2 != 0) return false;
  if (!In(base, 1.0, 1e12) || length < 1 || length > 65536) return false;
  if (s.type == RopeScalingType::kNone) return true;
  if (!In(s.factor, 1.0, 1e6)) return false;
  if (s.type == RopeScalingType::kDynamic || s.type == RopeScalingType::kYarn || s.type == RopeScalingType::kLlama3) {
    if (s.original_context_length < 1 || s.original_context_length > 65536) return false;
  }
  if (s.type == RopeScalingType::kYarn) {
    if (base == 1.0) return false;  // its correction range divides by ln(base)
    if (!Positive(s.beta_slow, 1e6) || !Positive(s.beta_fast, 1e6) || !(s.beta_fast > s.beta_slow)) return false;
    if (s.attention_factor != 0.0 && !Positive(s.attention_factor, 16.0)) return false;
  }
  if (s.type == RopeScalingType::kLlama3) {
    if (!Positive(s.low_frequency_factor, 1e6) || !Positive(s.high_frequency_factor, 1e6)) return false;
    if (!(s.high_frequency_factor > s.low_frequency_factor)) return false;
  }
  return true;
}

void CheckFrequencies(FuzzedDataProvider& in) {
  RopeScaling s;
  s.type = kRopeScalingTypes[in.ConsumeIntegralInRange<size_t>(0, std::size(kRopeScalingTypes) - 1)];
  s.factor = Number(in, 0.5, 64.0);
  s.original_context_length = in.ConsumeIntegralInRange<int64_t>(-2, 70000);
  s.beta_fast = Number(in, 0.0, 64.0);
  s.beta_slow = Number(in, 0.0, 4.0);
  s.attention_factor = in.ConsumeBool() ? 0.0 : Number(in, 0.0, 20.0);
  s.truncate = in.ConsumeBool();
  s.low_frequency_factor = Number(in, 0.0, 4.0);
  s.high_frequency_factor = Number(in, 0.0, 16.0);
  const int64_t head_dim = in.ConsumeIntegralInRange<int64_t>(-2, 17000);
  const double base = Number(in, 1.0, 1e6);
  const int64_t length = in.ConsumeIntegralInRange<int64_t>(-2, 70000);

  RopeFrequencies out;
  const bool accepted = AcceptErrors([&] { out = ComputeRopeFrequencies(head_dim, base, s, length); });
  FUZZ_CHECK(accepted == Valid(head_dim, base, s, length));
  if (!accepted) return;
  const size_t half = static_cast<size_t>(head_dim / 2);
  FUZZ_CHECK(out.inverse_frequencies.size() == half);
  FUZZ_CHECK(std::isfinite(out.attention_factor) && out.attention_factor > 0.0);
  if (s.type != RopeScalingType::kYarn) FUZZ_CHECK(out.attention_factor == 1.0);
  // The largest factor a frequency may be divided by: the NTK types stretch the base by F^(d/(d-2)), which
  // divides pair i by F^(2i/(d-2)) <= F for i < d/2.
  const double d = static_cast<double>(head_dim);
  double stretch = s.type == RopeScalingType::kNone ? 1.0 : s.factor;
  if (s.type == RopeScalingType::kDynamic) {
    const double ratio = static_cast<double>(length) / static_cast<double>(s.original_context_length);
    stretch = ratio > 1.0 ? s.factor * ratio - (s.factor - 1.0) : 1.0;
  }
  for (size_t i = 0; i < half; ++i) {
    const double f = out.inverse_frequencies[i];
    const double unscaled = std::pow(base, -2.0 * static_cast<double>(i) / d);
    FUZZ_CHECK(std::isfinite(f) && f > 0.0);
    FUZZ_CHECK(f <= unscaled * (1 + kSlack));
    FUZZ_CHECK(f >= unscaled / stretch * (1 - kSlack));
    if (i > 0) FUZZ_CHECK(f <= out.inverse_frequencies[i - 1] * (1 + kSlack));
    if (s.type == RopeScalingType::kNone) FUZZ_CHECK(f == unscaled);
  }
  // Pair 0 turns once per 2 pi tokens unless the type interpolates it.
  if (s.type == RopeScalingType::kNone || s.type == RopeScalingType::kNtk || s.type == RopeScalingType::kDynamic) {
    FUZZ_CHECK(out.inverse_frequencies[0] == 1.0);
  }
  if (s.type == RopeScalingType::kLlama3) {
    // Wavelengths above L0 / low are divided by the factor exactly as in linear scaling.
    for (size_t i = 0; i < half; ++i) {
      const double unscaled = std::pow(base, -2.0 * static_cast<double>(i) / d);
      if (2 * kPi / unscaled > static_cast<double>(s.original_context_length) / s.low_frequency_factor * 1.000001) {
        FUZZ_CHECK(std::fabs(out.inverse_frequencies[i] - unscaled / s.factor) <= kSlack * unscaled);
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  if (data[0] % 2 == 0) {
    CheckJson(std::string(reinterpret_cast<const char*>(data) + 1, size - 1));
  } else {
    FuzzedDataProvider in(data + 1, size - 1);
    CheckFrequencies(in);
  }
  return 0;
}
