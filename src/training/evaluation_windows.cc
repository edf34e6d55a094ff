#include "training/evaluation_windows.h"

#include <stdexcept>
#include <string>

#include "errors/argument_checks.h"

namespace embedlab {

namespace {

void RequireWindowShape(int64_t batch, int64_t length) {
  RequireInRange("batch", batch, 1, kMaxSequenceLength);
  RequireInRange("length", length, 1, kMaxSequenceLength);
}

}  // namespace

void EvenlySpacedWindows(const std::vector<int32_t>& tokens, int64_t batch, int64_t length, std::vector<int32_t>& ids,
                         std::vector<int32_t>& targets) {
  RequireWindowShape(batch, length);
  RequireTensorSize("batch x length", batch, length);
  ids.resize(static_cast<size_t>(batch * length));
  targets.resize(ids.size());
  EvenlySpacedWindows(tokens, static_cast<size_t>(batch), static_cast<size_t>(length), ids.data(), targets.data());
}

void EvenlySpacedWindows(const std::vector<int32_t>& tokens, size_t batch, size_t length, int32_t* ids,
                         int32_t* targets) {
  RequireWindowShape(static_cast<int64_t>(batch), static_cast<int64_t>(length));
  if (tokens.size() < length + 1) {
    throw std::out_of_range("the corpus has " + std::to_string(tokens.size()) + " tokens; a window of length " +
                            std::to_string(length) + " needs at least " + std::to_string(length + 1));
  }
  const size_t stride = (tokens.size() - length - 1) / batch;
  for (size_t b = 0; b < batch; ++b) {
    const size_t start = b * stride;
    for (size_t t = 0; t < length; ++t) {
      ids[b * length + t] = tokens[start + t];
      targets[b * length + t] = tokens[start + t + 1];
    }
  }
}

}  // namespace embedlab
