// Seeded uniforms in [0, 1) from the project PRNG, as a training loop draws them (lab.randomUniform): the same
// numbers natively and in wasm for a seed.
#ifndef EMBEDLAB_TRAINING_RANDOM_UNIFORMS_H_
#define EMBEDLAB_TRAINING_RANDOM_UNIFORMS_H_

#include <cstdint>
#include <vector>

namespace embedlab {

inline constexpr int64_t kMaxUniforms = int64_t{1} << 24;  // 128 MiB of doubles

// Throws std::out_of_range naming count unless it is in [0, kMaxUniforms], before anything is allocated.
std::vector<double> RandomUniforms(int64_t count, uint64_t seed);

}  // namespace embedlab

#endif  // EMBEDLAB_TRAINING_RANDOM_UNIFORMS_H_
