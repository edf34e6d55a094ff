// Reads tensors from a safetensors file by name. Opening reads only the 8-byte length and the JSON
// header; each Read* call then reads exactly that tensor's bytes from the source.
#ifndef EMBEDLAB_CHECKPOINT_SAFETENSORS_READER_H_
#define EMBEDLAB_CHECKPOINT_SAFETENSORS_READER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "checkpoint/byte_source.h"
#include "checkpoint/safetensors_index.h"

namespace embedlab {

class SafetensorsReader {
 public:
  explicit SafetensorsReader(std::shared_ptr<const ByteSource> source);

  const SafetensorsIndex& index() const { return index_; }
  // Any float dtype (F32, F16, BF16, F64) converted to float32.
  std::vector<float> ReadFloats(const std::string& name) const;
  // I32 or I64 (values must fit in int32).
  std::vector<int32_t> ReadInts(const std::string& name) const;

 private:
  std::shared_ptr<const ByteSource> source_;
  SafetensorsIndex index_;
};

// Decoding of raw little-endian tensor bytes, for callers that fetch the bytes themselves (e.g. a JS
// Blob slice at entry.file_offset, entry.byte_length). bytes must hold entry.byte_length bytes.
std::vector<float> DecodeFloats(const TensorEntry& entry, const uint8_t* bytes);
std::vector<int32_t> DecodeInts(const TensorEntry& entry, const uint8_t* bytes);

}  // namespace embedlab

#endif  // EMBEDLAB_CHECKPOINT_SAFETENSORS_READER_H_
