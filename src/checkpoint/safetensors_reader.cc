#include "checkpoint/safetensors_reader.h"

#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace embedlab {
namespace {

uint64_t LittleEndian(const uint8_t* bytes, size_t width) {
  uint64_t value = 0;
  for (size_t i = width; i-- > 0;) value = (value << 8) | bytes[i];
  return value;
}

float FloatFromBits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

// IEEE half to float, exactly (every half is a float).
float HalfToFloat(uint16_t half) {
  const uint32_t sign = static_cast<uint32_t>(half & 0x8000u) << 16;
  const uint32_t exponent = (half >> 10) & 0x1Fu;
  uint32_t mantissa = half & 0x3FFu;
  if (exponent == 0x1F) return FloatFromBits(sign | 0x7F800000u | (mantissa << 13));  // inf / NaN
  if (exponent != 0) return FloatFromBits(sign | ((exponent + 112) << 23) | (mantissa << 13));
  if (mantissa == 0) return FloatFromBits(sign);
  int shift = 0;  // subnormal half: normalise
  while ((mantissa & 0x400u) == 0) {
    mantissa <<= 1;
    ++shift;
  }
  return FloatFromBits(sign | ((113 - shift) << 23) | ((mantissa & 0x3FFu) << 13));
}

// A tensor must fit this platform's memory: wasm's size_t is 32 bits while a file (a Blob) may not be.
void RequireAddressable(const TensorEntry& entry) {
  const uint64_t limit = static_cast<uint64_t>(SIZE_MAX) / 8;
  if (entry.byte_length > limit || entry.element_count > limit) {
    throw std::out_of_range("safetensors: tensor \"" + entry.name + "\" has " + std::to_string(entry.byte_length) +
                            " bytes, more than this platform can hold in memory");
  }
}

}  // namespace

SafetensorsReader::SafetensorsReader(std::shared_ptr<const ByteSource> source) : source_(std::move(source)) {
  if (source_ == nullptr) throw std::invalid_argument("safetensors: the byte source is null");
  uint8_t length_bytes[8];
  if (source_->size() < 8) {
    throw std::out_of_range("safetensors: the file has " + std::to_string(source_->size()) +
                            " bytes, fewer than the 8-byte header length");
  }
  source_->Read(0, 8, length_bytes);
  const uint64_t header_length = SafetensorsIndex::HeaderLength(length_bytes, source_->size());
  std::vector<char> header(static_cast<size_t>(header_length));
  source_->Read(8, header_length, reinterpret_cast<uint8_t*>(header.data()));
  index_ = SafetensorsIndex::Parse(header.data(), header.size(), source_->size());
}

std::vector<float> SafetensorsReader::ReadFloats(const std::string& name) const {
  const TensorEntry& entry = index_.Find(name);
  RequireAddressable(entry);
  std::vector<uint8_t> bytes(static_cast<size_t>(entry.byte_length));
  source_->Read(entry.file_offset, entry.byte_length, bytes.data());
  return DecodeFloats(entry, bytes.data());
}

std::vector<int32_t> SafetensorsReader::ReadInts(const std::string& name) const {
  const TensorEntry& entry = index_.Find(name);
  RequireAddressable(entry);
  std::vector<uint8_t> bytes(static_cast<size_t>(entry.byte_length));
  source_->Read(entry.file_offset, entry.byte_length, bytes.data());
  return DecodeInts(entry, bytes.data());
}

std::vector<float> DecodeFloats(const TensorEntry& entry, const uint8_t* bytes) {
  RequireAddressable(entry);
  const size_t n = static_cast<size_t>(entry.element_count);
  std::vector<float> out(n);
  switch (entry.dtype) {
    case TensorDtype::kF32:
      for (size_t i = 0; i < n; ++i) out[i] = FloatFromBits(static_cast<uint32_t>(LittleEndian(bytes + 4 * i, 4)));
      break;
    case TensorDtype::kF16:
      for (size_t i = 0; i < n; ++i) out[i] = HalfToFloat(static_cast<uint16_t>(LittleEndian(bytes + 2 * i, 2)));
      break;
    case TensorDtype::kBF16:  // the upper half of a float32
      for (size_t i = 0; i < n; ++i) {
        out[i] = FloatFromBits(static_cast<uint32_t>(LittleEndian(bytes + 2 * i, 2)) << 16);
      }
      break;
    case TensorDtype::kF64:
      for (size_t i = 0; i < n; ++i) {
        const uint64_t bits = LittleEndian(bytes + 8 * i, 8);
        double value;
        std::memcpy(&value, &bits, sizeof(value));
        out[i] = static_cast<float>(value);
      }
      break;
    default:
      throw std::invalid_argument("safetensors: tensor \"" + entry.name + "\" has dtype " +
                                  TensorDtypeName(entry.dtype) + ", not a float type");
  }
  return out;
}

std::vector<int32_t> DecodeInts(const TensorEntry& entry, const uint8_t* bytes) {
  RequireAddressable(entry);
  const size_t n = static_cast<size_t>(entry.element_count);
  std::vector<int32_t> out(n);
  if (entry.dtype == TensorDtype::kI32) {
    for (size_t i = 0; i < n; ++i) out[i] = static_cast<int32_t>(static_cast<uint32_t>(LittleEndian(bytes + 4 * i, 4)));
    return out;
  }
  if (entry.dtype == TensorDtype::kBool || entry.dtype == TensorDtype::kU8) {
    for (size_t i = 0; i < n; ++i) out[i] = bytes[i];
    return out;
  }
  if (entry.dtype == TensorDtype::kI8) {
    for (size_t i = 0; i < n; ++i) out[i] = static_cast<int8_t>(bytes[i]);
    return out;
  }
  if (entry.dtype == TensorDtype::kI16 || entry.dtype == TensorDtype::kU16) {
    for (size_t i = 0; i < n; ++i) {
      const auto bits = static_cast<uint16_t>(LittleEndian(bytes + 2 * i, 2));
      out[i] = entry.dtype == TensorDtype::kI16 ? static_cast<int16_t>(bits) : bits;
    }
    return out;
  }
  if (entry.dtype == TensorDtype::kI64) {
    for (size_t i = 0; i < n; ++i) {
      const int64_t value = static_cast<int64_t>(LittleEndian(bytes + 8 * i, 8));
      if (value < INT32_MIN || value > INT32_MAX) {
        throw std::out_of_range("safetensors: tensor \"" + entry.name + "\" holds " + std::to_string(value) +
                                ", outside the int32 range");
      }
      out[i] = static_cast<int32_t>(value);
    }
    return out;
  }
  throw std::invalid_argument("safetensors: tensor \"" + entry.name + "\" has dtype " + TensorDtypeName(entry.dtype) +
                              ", not an integer type");
}

}  // namespace embedlab
