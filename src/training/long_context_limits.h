// The long-context experiment's cap on counts: recall keys and values, rows per training batch and per
// evaluation. Defined once; the core checks it (training/recall_task.cc, training/long_context_run.cc) and the JS
// layer leaves it to the core.
#ifndef EMBEDLAB_TRAINING_LONG_CONTEXT_LIMITS_H_
#define EMBEDLAB_TRAINING_LONG_CONTEXT_LIMITS_H_

#include <cstdint>

namespace embedlab {

inline constexpr int64_t kMaxLongContextCount = int64_t{1} << 16;

}  // namespace embedlab

#endif  // EMBEDLAB_TRAINING_LONG_CONTEXT_LIMITS_H_
