// Embind bindings of the safetensors index and decoder. The JS layer fetches bytes itself (a Uint8Array or
// Blob slices), so only the header and the tensors asked for are ever read; both are parsed here, by the
// bounds-checked C++ reader.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>
#include <vector>

#include "bindings/boundary.h"
#include "checkpoint/safetensors_index.h"
#include "checkpoint/safetensors_reader.h"

using emscripten::val;

namespace embedlab {
namespace bindings {
namespace {

// The first 8 bytes are in the staging buffer.
double SafetensorsHeaderLength(double file_size) {
  return Guarded<double>(-1, [&] {
    const std::string& first = Staging();
    if (first.size() < 8) throw std::out_of_range("safetensors: the file is shorter than its 8-byte header length");
    return static_cast<double>(SafetensorsIndex::HeaderLength(reinterpret_cast<const uint8_t*>(first.data()),
                                                              static_cast<uint64_t>(ToInt64(file_size))));
  });
}

class SafetensorsBinding {
 public:
  explicit SafetensorsBinding(SafetensorsIndex index) : index_(std::move(index)) {}

  val Tensors() const {
    val tensors = val::array();
    for (const TensorEntry& entry : index_.tensors()) {
      val tensor = val::object();
      tensor.set("name", entry.name);
      tensor.set("dtype", std::string(TensorDtypeName(entry.dtype)));
      val shape = val::array();
      for (int64_t extent : entry.shape) shape.call<void>("push", static_cast<double>(extent));
      tensor.set("shape", shape);
      tensor.set("offset", static_cast<double>(entry.file_offset));
      tensor.set("byteLength", static_cast<double>(entry.byte_length));
      tensors.call<void>("push", tensor);
    }
    return tensors;
  }

  val Metadata() const {
    val metadata = val::object();
    for (const auto& [key, value] : index_.metadata()) metadata.set(key, value);
    return metadata;
  }

  // The tensor's bytes are in the staging buffer; returns float32 values.
  val Decode(std::string name) const {
    val result = Guarded<val>(val::null(), [&] {
      const TensorEntry& entry = index_.Find(name);
      const std::string& bytes = Staging();
      if (bytes.size() != entry.byte_length) {
        throw std::out_of_range("safetensors: " + name + " needs " + std::to_string(entry.byte_length) +
                                " bytes, got " + std::to_string(bytes.size()));
      }
      return CopyToFloat32Array(DecodeFloats(entry, reinterpret_cast<const uint8_t*>(bytes.data())));
    });
    ReleaseStaging();
    return result;
  }

 private:
  SafetensorsIndex index_;
};

// The JSON header (header_length bytes) is in the staging buffer.
SafetensorsBinding* ParseSafetensorsHeader(double file_size) {
  SafetensorsBinding* result = Guarded<SafetensorsBinding*>(nullptr, [&] {
    const std::string& header = Staging();
    return new SafetensorsBinding(
        SafetensorsIndex::Parse(header.data(), header.size(), static_cast<uint64_t>(ToInt64(file_size))));
  });
  ReleaseStaging();
  return result;
}

}  // namespace

EMSCRIPTEN_BINDINGS(embedlab_safetensors) {
  emscripten::class_<SafetensorsBinding>("SafetensorsIndex")
      .function("tensors", &SafetensorsBinding::Tensors)
      .function("metadata", &SafetensorsBinding::Metadata)
      .function("decode", &SafetensorsBinding::Decode);
  emscripten::function("safetensorsHeaderLength", &SafetensorsHeaderLength);
  emscripten::function("parseSafetensorsHeader", &ParseSafetensorsHeader, emscripten::allow_raw_pointers());
}

}  // namespace bindings
}  // namespace embedlab
