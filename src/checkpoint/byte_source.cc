#include "checkpoint/byte_source.h"

#include <cstring>
#include <stdexcept>
#include <string>

namespace embedlab {

void ByteSource::Read(uint64_t offset, uint64_t length, uint8_t* out) const {
  const uint64_t total = size();
  if (offset > total || length > total - offset) {
    throw std::out_of_range("read of bytes [" + std::to_string(offset) + ", " + std::to_string(offset + length) +
                            ") is past the end of a " + std::to_string(total) + "-byte source");
  }
  if (length > 0) ReadChecked(offset, length, out);
}

void MemoryByteSource::ReadChecked(uint64_t offset, uint64_t length, uint8_t* out) const {
  std::memcpy(out, bytes_.data() + offset, static_cast<size_t>(length));
}

}  // namespace embedlab
