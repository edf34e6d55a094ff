#include "random/prng.h"

#include <cmath>

namespace embedlab {
namespace {

uint64_t SplitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

uint32_t RotateLeft(uint32_t x, int k) { return (x << k) | (x >> (32 - k)); }

}  // namespace

Prng::Prng(uint64_t seed) {
  uint64_t mix = seed;
  const uint64_t a = SplitMix64(mix);
  const uint64_t b = SplitMix64(mix);
  state_[0] = static_cast<uint32_t>(a);
  state_[1] = static_cast<uint32_t>(a >> 32);
  state_[2] = static_cast<uint32_t>(b);
  state_[3] = static_cast<uint32_t>(b >> 32);
}

uint32_t Prng::NextU32() {
  const uint32_t result = RotateLeft(state_[1] * 5, 7) * 9;
  const uint32_t t = state_[1] << 9;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= t;
  state_[3] = RotateLeft(state_[3], 11);
  return result;
}

double Prng::NextUniform() {
  const uint64_t high = NextU32() >> 5;  // 27 bits
  const uint64_t low = NextU32() >> 6;   // 26 bits
  return static_cast<double>((high << 26) | low) * (1.0 / 9007199254740992.0);
}

double Prng::NextNormal() {
  if (has_spare_normal_) {
    has_spare_normal_ = false;
    return spare_normal_;
  }
  double u, v, s;
  do {
    u = 2.0 * NextUniform() - 1.0;
    v = 2.0 * NextUniform() - 1.0;
    s = u * u + v * v;
  } while (s >= 1.0 || s == 0.0);
  const double factor = std::sqrt(-2.0 * DeterministicLog(s) / s);
  spare_normal_ = v * factor;
  has_spare_normal_ = true;
  return u * factor;
}

double DeterministicLog(double x) {
  // x = m * 2^e with m in [sqrt(1/2), sqrt(2)); log(m) = 2 atanh(t), t = (m-1)/(m+1), |t| < 0.1716.
  int exponent = 0;
  double mantissa = std::frexp(x, &exponent);  // exact: in [0.5, 1)
  if (mantissa < 0.70710678118654752440) {
    mantissa *= 2.0;
    exponent -= 1;
  }
  const double t = (mantissa - 1.0) / (mantissa + 1.0);
  const double t2 = t * t;
  // Horner over odd powers: sum t^(2k+1)/(2k+1) for k < 20; t^40 < 1e-30, far below 1 ulp.
  double series = 0.0;
  for (int k = 19; k >= 0; --k) series = series * t2 + 1.0 / (2 * k + 1);
  const double kLn2 = 0.69314718055994530942;
  return 2.0 * t * series + exponent * kLn2;
}

}  // namespace embedlab
