#include "embed/positional_encoding.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "errors/argument_checks.h"

namespace embedlab {

const char* PositionKindName(PositionKind kind) {
  switch (kind) {
    case PositionKind::kNone:
      return "none";
    case PositionKind::kSinusoidal:
      return "sinusoidal";
    case PositionKind::kLearned:
      return "learned";
  }
  return "unknown";
}

PositionalEncoding::PositionalEncoding(int64_t dim, int64_t max_length) {
  RequireInRange("dim", dim, 1, kMaxDim);
  RequireInRange("maxLength", max_length, 1, kMaxSequenceLength);
  RequireTensorSize("the position table (maxLength x dim)", max_length, dim);
  dim_ = static_cast<size_t>(dim);
  max_length_ = static_cast<size_t>(max_length);
}

void PositionalEncoding::CheckRows(int64_t offset, int64_t length) const {
  const int64_t max_length = static_cast<int64_t>(max_length_);
  RequireInRange("offset", offset, 0, max_length);
  if (length < 0 || length > max_length - offset) {
    throw std::out_of_range("length must be in [0, " + std::to_string(max_length - offset) +
                            "] so that offset + length <= maxLength (" + std::to_string(max_length) + "), got length " +
                            std::to_string(length) + " at offset " + std::to_string(offset));
  }
}

void PositionalEncoding::Table(int64_t offset, int64_t length, float* out) const {
  CheckRows(offset, length);
  WriteRows(static_cast<size_t>(offset), static_cast<size_t>(length), out);
}

void NoPositionalEncoding::WriteRows(size_t, size_t length, float* out) const {
  std::fill(out, out + length * dim(), 0.0f);
}

}  // namespace embedlab
