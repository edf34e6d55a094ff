// Seeded test inputs shared by the kernel and layer tests: N(0, scale) floats from the project PRNG.
#ifndef EMBEDLAB_TESTS_RANDOM_VECTORS_H_
#define EMBEDLAB_TESTS_RANDOM_VECTORS_H_

#include <cstdint>
#include <vector>

#include "random/prng.h"

inline std::vector<float> RandomVector(size_t n, uint64_t seed, double scale = 1.0) {
  embedlab::Prng prng(seed);
  std::vector<float> v(n);
  for (float& x : v) x = static_cast<float>(scale * prng.NextNormal());
  return v;
}

#endif  // EMBEDLAB_TESTS_RANDOM_VECTORS_H_
