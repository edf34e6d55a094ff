// Argument checks shared by every layer. Each failure throws std::out_of_range (a RangeError in JS) or
// std::invalid_argument (a TypeError in JS) whose message names the argument and the allowed range.
// Names in messages are the public API's (JS) option names, never C++ ones: vocabSize, not vocab_size; ids.length,
// not ids.size(). The message reaches JS unchanged (bindings/boundary.h says why); a file's own keys are quoted
// ("vocab_size" in a checkpoint's metadata).
#ifndef EMBEDLAB_ERRORS_ARGUMENT_CHECKS_H_
#define EMBEDLAB_ERRORS_ARGUMENT_CHECKS_H_

#include <cstdint>
#include <string>

namespace embedlab {

// Throws std::out_of_range unless lo <= value <= hi.
void RequireInRange(const std::string& name, int64_t value, int64_t lo, int64_t hi);
// Same for a real number; NaN and infinities always fail.
void RequireFiniteInRange(const std::string& name, double value, double lo, double hi);
// Same with the lower end open: lo < value <= hi (a rate or scale that must be above zero).
void RequireFiniteAboveAtMost(const std::string& name, double value, double lo, double hi);
// A seed is an integer in [0, kMaxSeed] (every integer up to 2^53 is exact in a JS number); returns it as uint64.
uint64_t RequireSeed(const std::string& name, double value);
// An option's name in messages: "config.optimizer" and "beta1" give "config.optimizer.beta1"; an empty prefix gives
// the option alone (an API whose options are top-level).
std::string OptionName(const std::string& prefix, const std::string& option);
// Throws std::out_of_range when rows * cols floats exceed kMaxTensorFloats.
void RequireTensorSize(const std::string& what, int64_t rows, int64_t cols);

// Caps that keep every request well inside a 4 GiB wasm memory.
constexpr int64_t kMaxDim = 16384;
constexpr int64_t kMaxVocabSize = 1 << 21;
constexpr int64_t kMaxSequenceLength = 1 << 16;
constexpr int64_t kMaxTensorFloats = int64_t{1} << 28;  // 1 GiB of float32
// The largest seed (2^53), read by the JS layer as lab.limits.maxSeed.
constexpr double kMaxSeed = 9007199254740992.0;

}  // namespace embedlab

#endif  // EMBEDLAB_ERRORS_ARGUMENT_CHECKS_H_
