#include "embed/sinusoidal_encoding.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "errors/argument_checks.h"
#include "simd/vector_kernels.h"

namespace embedlab {
namespace {

int64_t RequireEvenDim(int64_t dim) {
  if (dim % 2 != 0) {
    throw std::out_of_range("dim must be even for the sinusoidal encoding (sin/cos pairs), got " + std::to_string(dim));
  }
  return dim;
}

}  // namespace

SinusoidalEncoding::SinusoidalEncoding(int64_t dim, int64_t max_length, double base)
    : PositionalEncoding(RequireEvenDim(dim), max_length), base_(base) {
  RequireFiniteInRange("base", base, 1.0, 1e12);
  frequencies_.resize(static_cast<size_t>(dim) / 2);
  const double log_base = std::log(base);
  for (size_t i = 0; i < frequencies_.size(); ++i) {
    frequencies_[i] = std::exp(-(2.0 * static_cast<double>(i) / static_cast<double>(dim)) * log_base);
  }
}

void SinusoidalEncoding::WriteRows(size_t offset, size_t length, float* out) const {
  // Angles are formed and reduced to [-pi, pi] in double: a float angle at position 60000 would
  // already be off by ~4e-3 rad. The SIMD kernel then only sees small arguments.
  const double kTwoPi = 6.283185307179586476925;
  std::vector<float> angles(frequencies_.size());
  for (size_t t = 0; t < length; ++t) {
    const double position = static_cast<double>(offset + t);
    for (size_t i = 0; i < frequencies_.size(); ++i) {
      const double angle = position * frequencies_[i];
      angles[i] = static_cast<float>(angle - kTwoPi * std::nearbyint(angle / kTwoPi));
    }
    simd::SinCosInterleaved(angles.data(), angles.size(), out + t * dim());
  }
}

}  // namespace embedlab
