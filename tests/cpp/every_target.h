// Runs a check once on every Highway target this CPU supports (natively AVX3, AVX2, SSE4, SSSE3, SCALAR as
// available; in wasm the one static target), with dispatch pinned to that target and its name in Catch's
// INFO, so a failure says which target broke. The best target is restored afterwards, even when a check
// fails.
#ifndef EMBEDLAB_TESTS_EVERY_TARGET_H_
#define EMBEDLAB_TESTS_EVERY_TARGET_H_

#include <catch2/catch.hpp>
#include <type_traits>

#include "simd/kernel_targets.h"

// check() or check(const KernelTarget&), for checks that compare one target's results with another's.
template <typename Check>
void OnEveryTarget(const Check& check) {
  struct RestoreBestTarget {
    ~RestoreBestTarget() { embedlab::simd::UseTarget(0); }
  } restore;
  for (const embedlab::simd::KernelTarget& target : embedlab::simd::AvailableTargets()) {
    embedlab::simd::UseTarget(target.bits);
    INFO("target " << target.name);
    REQUIRE(embedlab::simd::ActiveTargetName() == target.name);
    if constexpr (std::is_invocable_v<const Check&, const embedlab::simd::KernelTarget&>) {
      check(target);
    } else {
      check();
    }
  }
}

#endif  // EMBEDLAB_TESTS_EVERY_TARGET_H_
