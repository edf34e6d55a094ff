// The safetensors index and reader over arbitrary bytes: every tensor the index accepts lies inside the file
// and reads (as floats or ints, per its dtype) without touching bytes outside it.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "checkpoint/byte_source.h"
#include "checkpoint/safetensors_reader.h"
#include "fuzz_common.h"

using namespace embedlab;

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
        const std::vector<float> decoded = DecodeFloats(entry, data + entry.file_offset);
        // Bit patterns, so NaNs compare equal; an empty tensor has no data pointer to give memcmp.
        FUZZ_CHECK(decoded.size() == floats.size() &&
                   (floats.empty() || std::memcmp(decoded.data(), floats.data(), floats.size() * sizeof(float)) == 0));
      });
      AcceptErrors([&] {
        const std::vector<int32_t> ints = reader.ReadInts(entry.name);
        FUZZ_CHECK(ints.size() == entry.element_count);
      });
    }
  });
  return 0;
}
