#include "training/random_uniforms.h"

#include "errors/argument_checks.h"
#include "random/prng.h"

namespace embedlab {

std::vector<double> RandomUniforms(int64_t count, uint64_t seed) {
  RequireInRange("count", count, 0, kMaxUniforms);
  Prng prng(seed);
  std::vector<double> values(static_cast<size_t>(count));
  for (double& value : values) value = prng.NextUniform();
  return values;
}

}  // namespace embedlab
