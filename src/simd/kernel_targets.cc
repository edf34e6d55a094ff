#include "simd/kernel_targets.h"

#include "hwy/highway.h"
#include "hwy/targets.h"

namespace embedlab {
namespace simd {

// A build with one target (wasm) uses static dispatch and links no Highway runtime.
#define EMBEDLAB_SINGLE_TARGET ((HWY_TARGETS & (HWY_TARGETS - 1)) == 0)

std::vector<KernelTarget> AvailableTargets() {
#if EMBEDLAB_SINGLE_TARGET
  return {{HWY_STATIC_TARGET, hwy::TargetName(HWY_STATIC_TARGET)}};
#else
  std::vector<KernelTarget> targets;
  for (int64_t bits : hwy::SupportedAndGeneratedTargets()) {
    targets.push_back({bits, hwy::TargetName(bits)});
  }
  return targets;
#endif
}

void UseTarget(int64_t bits) {
#if EMBEDLAB_SINGLE_TARGET
  (void)bits;
#else
  hwy::SetSupportedTargetsForTest(bits);
#endif
}

std::string ActiveTargetName() {
#if EMBEDLAB_SINGLE_TARGET
  return hwy::TargetName(HWY_STATIC_TARGET);
#else
  const int64_t usable = hwy::SupportedTargets() & HWY_TARGETS;
  return hwy::TargetName(usable & -usable);  // lower bits are the better targets
#endif
}

}  // namespace simd
}  // namespace embedlab
