#include "checkpoint/safetensors_index.h"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "text/json_value.h"

namespace embedlab {
namespace {

TensorDtype ParseDtype(const std::string& tensor, const JsonValue* value) {
  if (value == nullptr || !value->IsString()) {
    throw std::invalid_argument("safetensors: tensor \"" + tensor + "\" has no string dtype");
  }
  const std::string& name = value->string;
  std::string known;
  for (TensorDtype dtype : kTensorDtypes) {
    if (name == TensorDtypeName(dtype)) return dtype;
    known += (known.empty() ? "" : ", ") + std::string(TensorDtypeName(dtype));
  }
  throw std::invalid_argument("safetensors: tensor \"" + tensor + "\" has dtype \"" + name + "\"; known: " + known);
}

uint64_t NonNegativeInteger(const std::string& tensor, const char* field, const JsonValue& value) {
  // "-0" is an integer with the value 0, as nlohmann::json read it.
  const bool zero = value.IsInteger() && value.negative && value.int_value == 0;
  if (!value.IsUnsigned() && !zero) {
    throw std::invalid_argument("safetensors: tensor \"" + tensor + "\" has a " + field +
                                " entry that is not a non-negative integer");
  }
  return value.uint_value;
}

}  // namespace

const char* TensorDtypeName(TensorDtype dtype) {
  switch (dtype) {
    case TensorDtype::kF32:
      return "F32";
    case TensorDtype::kF16:
      return "F16";
    case TensorDtype::kBF16:
      return "BF16";
    case TensorDtype::kF64:
      return "F64";
    case TensorDtype::kI32:
      return "I32";
    case TensorDtype::kI64:
      return "I64";
    case TensorDtype::kBool:
      return "BOOL";
    case TensorDtype::kU8:
      return "U8";
    case TensorDtype::kI8:
      return "I8";
    case TensorDtype::kI16:
      return "I16";
    case TensorDtype::kU16:
      return "U16";
    case TensorDtype::kU32:
      return "U32";
    case TensorDtype::kU64:
      return "U64";
    case TensorDtype::kF8E4M3:
      return "F8_E4M3";
    case TensorDtype::kF8E5M2:
      return "F8_E5M2";
  }
  return "?";
}

size_t TensorDtypeSize(TensorDtype dtype) {
  switch (dtype) {
    case TensorDtype::kBool:
    case TensorDtype::kU8:
    case TensorDtype::kI8:
    case TensorDtype::kF8E4M3:
    case TensorDtype::kF8E5M2:
      return 1;
    case TensorDtype::kF16:
    case TensorDtype::kBF16:
    case TensorDtype::kI16:
    case TensorDtype::kU16:
      return 2;
    case TensorDtype::kF32:
    case TensorDtype::kI32:
    case TensorDtype::kU32:
      return 4;
    case TensorDtype::kF64:
    case TensorDtype::kI64:
    case TensorDtype::kU64:
      return 8;
  }
  return 0;
}

uint64_t SafetensorsIndex::HeaderLength(const uint8_t first_eight_bytes[8], uint64_t file_size) {
  if (file_size < 8) {
    throw std::out_of_range("safetensors: the file has " + std::to_string(file_size) +
                            " bytes, fewer than the 8-byte header length");
  }
  uint64_t length = 0;
  for (int i = 7; i >= 0; --i) length = (length << 8) | first_eight_bytes[i];
  if (length < 2 || length > kMaxHeaderLength) {
    throw std::invalid_argument("safetensors: header length " + std::to_string(length) +
                                " is not in [2, 100 MiB]; this is not a safetensors file");
  }
  if (length > file_size - 8) {
    throw std::out_of_range("safetensors: the header claims " + std::to_string(length) + " bytes but the file has " +
                            std::to_string(file_size - 8) + " after the length field (truncated?)");
  }
  return length;
}

SafetensorsIndex SafetensorsIndex::Parse(const char* json, size_t header_length, uint64_t file_size) {
  const std::optional<JsonValue> parsed = ParseJson(std::string_view(json, header_length));
  if (!parsed) throw std::invalid_argument("safetensors: the header is not valid JSON");
  const JsonValue& header = *parsed;
  if (!header.IsObject()) throw std::invalid_argument("safetensors: the header is not a JSON object");
  const uint64_t data_start = 8 + header_length;
  if (file_size < data_start) throw std::out_of_range("safetensors: the file ends inside its header");
  const uint64_t data_size = file_size - data_start;
  SafetensorsIndex index;
  for (const auto& [name, entry] : header.members) {
    if (name == "__metadata__") {
      if (!entry.IsObject()) throw std::invalid_argument("safetensors: __metadata__ is not an object");
      for (const auto& [key, value] : entry.members) {
        if (!value.IsString()) {
          throw std::invalid_argument("safetensors: __metadata__ value \"" + key + "\" is not a string");
        }
        index.metadata_[key] = value.string;
      }
      continue;
    }
    if (!entry.IsObject()) throw std::invalid_argument("safetensors: tensor \"" + name + "\" is not an object");
    TensorEntry tensor;
    tensor.name = name;
    tensor.dtype = ParseDtype(name, entry.Find("dtype"));
    const JsonValue* shape = entry.Find("shape");
    if (shape == nullptr || shape->kind != JsonValue::Kind::kArray) {
      throw std::invalid_argument("safetensors: tensor \"" + name + "\" has no shape array");
    }
    uint64_t count = 1;
    for (const JsonValue& extent : shape->items) {
      const uint64_t n = NonNegativeInteger(name, "shape", extent);
      if (n > 0 && count > (uint64_t{1} << 62) / n) {
        throw std::invalid_argument("safetensors: tensor \"" + name + "\" has an impossibly large shape");
      }
      tensor.shape.push_back(static_cast<int64_t>(n));
      count *= n;
    }
    tensor.element_count = count;
    const JsonValue* offsets = entry.Find("data_offsets");
    if (offsets == nullptr || offsets->kind != JsonValue::Kind::kArray || offsets->items.size() != 2) {
      throw std::invalid_argument("safetensors: tensor \"" + name + "\" needs \"data_offsets\": [begin, end]");
    }
    const uint64_t begin = NonNegativeInteger(name, "data_offsets", offsets->items[0]);
    const uint64_t end = NonNegativeInteger(name, "data_offsets", offsets->items[1]);
    if (begin > end || end > data_size) {
      throw std::out_of_range("safetensors: tensor \"" + name + "\" spans data bytes [" + std::to_string(begin) + ", " +
                              std::to_string(end) + ") but the data section has " + std::to_string(data_size) +
                              " bytes (truncated or tampered file)");
    }
    if (end - begin != count * TensorDtypeSize(tensor.dtype)) {
      throw std::invalid_argument("safetensors: tensor \"" + name + "\" has " + std::to_string(end - begin) +
                                  " bytes but its shape and dtype need " +
                                  std::to_string(count * TensorDtypeSize(tensor.dtype)));
    }
    tensor.file_offset = data_start + begin;
    tensor.byte_length = end - begin;
    index.tensors_.push_back(std::move(tensor));
  }
  std::sort(index.tensors_.begin(), index.tensors_.end(),
            [](const TensorEntry& a, const TensorEntry& b) { return a.file_offset < b.file_offset; });
  return index;
}

const TensorEntry* SafetensorsIndex::TryFind(const std::string& name) const {
  for (const TensorEntry& tensor : tensors_) {
    if (tensor.name == name) return &tensor;
  }
  return nullptr;
}

const TensorEntry& SafetensorsIndex::Find(const std::string& name) const {
  const TensorEntry* tensor = TryFind(name);
  if (tensor == nullptr) throw std::invalid_argument("safetensors: no tensor named \"" + name + "\"");
  return *tensor;
}

}  // namespace embedlab
