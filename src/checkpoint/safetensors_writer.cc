#include "checkpoint/safetensors_writer.h"

#include <cstring>
#include <set>
#include <stdexcept>
#include <string>

#include "text/json_value.h"

namespace embedlab {
namespace {

// [a,b,...] of integers, compact.
template <typename Integers>
std::string JsonIntegers(const Integers& values) {
  std::string out = "[";
  for (const auto& value : values) out += (out.size() > 1 ? "," : "") + std::to_string(value);
  return out + "]";
}

}  // namespace

std::vector<uint8_t> WriteSafetensors(const std::vector<Float32Tensor>& tensors,
                                      const std::map<std::string, std::string>& metadata) {
  // Compact, "__metadata__" first then the tensors in their order, as nlohmann::ordered_json wrote it.
  std::string header = "{";
  if (!metadata.empty()) {
    header += "\"__metadata__\":{";
    for (const auto& [key, value] : metadata) {
      header += (header.back() == '{' ? "" : ",") + QuoteJson(key) + ":" + QuoteJson(value);
    }
    header += "}";
  }
  std::set<std::string> names;
  uint64_t offset = 0;
  for (const Float32Tensor& tensor : tensors) {
    if (tensor.name.empty() || tensor.name == "__metadata__" || !names.insert(tensor.name).second) {
      throw std::invalid_argument("safetensors: tensor name \"" + tensor.name + "\" is empty, reserved or repeated");
    }
    uint64_t count = 1;
    for (int64_t extent : tensor.shape) count *= static_cast<uint64_t>(extent);
    header += (header.size() > 1 ? "," : "") + QuoteJson(tensor.name) +
              ":{\"dtype\":\"F32\",\"shape\":" + JsonIntegers(tensor.shape) +
              ",\"data_offsets\":" + JsonIntegers(std::vector<uint64_t>{offset, offset + 4 * count}) + "}";
    offset += 4 * count;
  }
  std::string text = header + "}";
  text.append((8 - text.size() % 8) % 8, ' ');  // data starts 8-byte aligned
  std::vector<uint8_t> bytes(8 + text.size() + offset);
  for (size_t i = 0; i < 8; ++i) bytes[i] = static_cast<uint8_t>(static_cast<uint64_t>(text.size()) >> (8 * i));
  std::memcpy(bytes.data() + 8, text.data(), text.size());
  uint8_t* out = bytes.data() + 8 + text.size();
  for (const Float32Tensor& tensor : tensors) {
    uint64_t count = 1;
    for (int64_t extent : tensor.shape) count *= static_cast<uint64_t>(extent);
    for (uint64_t i = 0; i < count; ++i) {
      uint32_t bits;
      std::memcpy(&bits, tensor.data + i, 4);
      for (int b = 0; b < 4; ++b) *out++ = static_cast<uint8_t>(bits >> (8 * b));
    }
  }
  return bytes;
}

}  // namespace embedlab
