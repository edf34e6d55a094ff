// The safetensors index and reader over arbitrary bytes: every tensor the index accepts lies inside the file
// and reads (as floats or ints, per its dtype) without touching bytes outside it.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "checkpoint/byte_source.h"
#include "checkpoint/safetensors_reader.h"
#include "fuzz_common.h"

using namespace embedlab;

namespace {

// An independent decoder of one element (not the reader's code): raw little-endian bytes, IEEE layouts by hand.
double ReferenceElement(TensorDtype dtype, const uint8_t* p) {
  uint64_t bits = 0;
  const size_t size = TensorDtypeSize(dtype);
  for (size_t i = 0; i < size; ++i) bits |= static_cast<uint64_t>(p[i]) << (8 * i);
  if (dtype == TensorDtype::kF16) {
    const int exponent = static_cast<int>((bits >> 10) & 31);
    const double mantissa = static_cast<double>(bits & 1023);
    const double sign = (bits >> 15) != 0 ? -1.0 : 1.0;
    if (exponent == 31) return mantissa != 0 ? std::nan("") : sign * INFINITY;
    return sign * (exponent == 0 ? std::ldexp(mantissa, -24) : std::ldexp(mantissa + 1024, exponent - 25));
  }
  if (dtype == TensorDtype::kBF16 || dtype == TensorDtype::kF32) {
    const uint32_t word = static_cast<uint32_t>(dtype == TensorDtype::kBF16 ? bits << 16 : bits);
    float value;
    std::memcpy(&value, &word, sizeof(value));
    return value;
  }
  double value;  // kF64
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

bool SameFloat(float a, float b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto source = std::make_shared<MemoryByteSource>(std::vector<uint8_t>(data, data + size));
  AcceptErrors([&] {
    const SafetensorsReader reader(source);
    for (const TensorEntry& entry : reader.index().tensors()) {
      FUZZ_CHECK(entry.file_offset <= size && entry.byte_length <= size - entry.file_offset);
      FUZZ_CHECK(entry.byte_length == entry.element_count * TensorDtypeSize(entry.dtype));
      FUZZ_CHECK(reader.index().TryFind(entry.name) == &reader.index().Find(entry.name));
      AcceptErrors([&] {
        const std::vector<float> floats = reader.ReadFloats(entry.name);
        FUZZ_CHECK(floats.size() == entry.element_count);
        const size_t element = TensorDtypeSize(entry.dtype);
        for (size_t i = 0; i < floats.size(); ++i) {
          const double expected = ReferenceElement(entry.dtype, data + entry.file_offset + i * element);
          FUZZ_CHECK(SameFloat(floats[i], static_cast<float>(expected)));
        }
      });
      AcceptErrors([&] {
        const std::vector<int32_t> ints = reader.ReadInts(entry.name);
        FUZZ_CHECK(ints.size() == entry.element_count);
      });
    }
  });
  return 0;
}
