// The project's one pseudo-random generator. It uses only integer arithmetic and IEEE basic operations
// (+ - * / sqrt), never libm, so a seed gives bit-identical numbers natively and in wasm.
#ifndef EMBEDLAB_RANDOM_PRNG_H_
#define EMBEDLAB_RANDOM_PRNG_H_

#include <cstdint>

namespace embedlab {

// xoshiro128** seeded through splitmix64; normals by the Marsaglia polar method.
class Prng {
 public:
  explicit Prng(uint64_t seed);

  uint32_t NextU32();
  // Uniform in [0, 1) with 53 random bits.
  double NextUniform();
  // Standard normal N(0, 1).
  double NextNormal();

 private:
  uint32_t state_[4];
  bool has_spare_normal_ = false;
  double spare_normal_ = 0.0;
};

// Natural logarithm from arithmetic alone (frexp + atanh series), accurate to about 1 ulp.
double DeterministicLog(double x);

}  // namespace embedlab

#endif  // EMBEDLAB_RANDOM_PRNG_H_
