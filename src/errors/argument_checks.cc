#include "errors/argument_checks.h"

#include <cmath>
#include <stdexcept>

#include "text/decimal.h"

namespace embedlab {
namespace {

// Shortest of %.15g / %.17g that reads back as the same double (no iostreams: they triple the wasm size); NaN and
// the infinities spelled as JS spells them, since the message reaches JS (got NaN, as the JS layer's own checks say).
std::string FormatNumber(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  const std::string text = FormatGeneral(value, 15);
  double back = 0.0;
  if (std::isfinite(value) && !(ParseDecimal(text, &back) && back == value)) return FormatGeneral(value, 17);
  return text;
}

}  // namespace

void RequireInRange(const std::string& name, int64_t value, int64_t lo, int64_t hi) {
  if (value < lo || value > hi) {
    throw std::out_of_range(name + " must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                            "], got " + std::to_string(value));
  }
}

void RequireFiniteInRange(const std::string& name, double value, double lo, double hi) {
  if (!std::isfinite(value) || value < lo || value > hi) {
    throw std::out_of_range(name + " must be a finite number in [" + FormatNumber(lo) + ", " + FormatNumber(hi) +
                            "], got " + FormatNumber(value));
  }
}

void RequireFiniteAboveAtMost(const std::string& name, double value, double lo, double hi) {
  if (!std::isfinite(value) || value <= lo || value > hi) {
    throw std::out_of_range(name + " must be a finite number in (" + FormatNumber(lo) + ", " + FormatNumber(hi) +
                            "], got " + FormatNumber(value));
  }
}

uint64_t RequireSeed(const std::string& name, double value) {
  if (!std::isfinite(value) || value < 0 || value > kMaxSeed || std::floor(value) != value) {
    throw std::out_of_range(name + " must be an integer in [0, " + FormatNumber(kMaxSeed) + "], got " +
                            FormatNumber(value));
  }
  return static_cast<uint64_t>(value);
}

std::string OptionName(const std::string& prefix, const std::string& option) {
  return prefix.empty() ? option : prefix + "." + option;
}

void RequireTensorSize(const std::string& what, int64_t rows, int64_t cols) {
  if (rows > 0 && cols > kMaxTensorFloats / rows) {
    throw std::out_of_range(what + " would hold " + std::to_string(rows) + " x " + std::to_string(cols) +
                            " floats; the limit is " + std::to_string(kMaxTensorFloats) + " floats (1 GiB)");
  }
}

}  // namespace embedlab
