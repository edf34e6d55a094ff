// Which Highway targets the kernels were compiled for, and a switch that pins dispatch to one of them so
// tests and benchmarks can check every target on this machine.
#ifndef EMBEDLAB_SIMD_KERNEL_TARGETS_H_
#define EMBEDLAB_SIMD_KERNEL_TARGETS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace embedlab {
namespace simd {

struct KernelTarget {
  int64_t bits;
  std::string name;  // Highway's name: "AVX2", "SSE4", "WASM", "EMU128", ...
};

// Targets that are both compiled in and supported by this CPU, best first.
std::vector<KernelTarget> AvailableTargets();
// Pins dispatch to one target from AvailableTargets(); 0 restores the best one.
void UseTarget(int64_t bits);
// The target the kernels dispatch to now.
std::string ActiveTargetName();

}  // namespace simd
}  // namespace embedlab

#endif  // EMBEDLAB_SIMD_KERNEL_TARGETS_H_
