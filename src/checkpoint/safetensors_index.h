// The parsed header of a safetensors file: an 8-byte little-endian header length N, N bytes of JSON
// {name: {"dtype", "shape", "data_offsets": [begin, end]}, "__metadata__": {string: string}}, then the
// raw little-endian tensor data, offsets relative to its start. Every field is checked against the
// file size, so a truncated or tampered file is rejected with a message instead of read out of bounds.
#ifndef EMBEDLAB_CHECKPOINT_SAFETENSORS_INDEX_H_
#define EMBEDLAB_CHECKPOINT_SAFETENSORS_INDEX_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace embedlab {

// Every dtype the safetensors format defines, so that a file is indexed whole; the reader decodes the float
// types (F32, F16, BF16, F64) as floats and BOOL, U8, I8, I16, U16, I32, I64 as int32, and refuses only the
// tensor it cannot decode, not the file.
enum class TensorDtype {
  kF32,
  kF16,
  kBF16,
  kF64,
  kI32,
  kI64,
  kBool,
  kU8,
  kI8,
  kI16,
  kU16,
  kU32,
  kU64,
  kF8E4M3,
  kF8E5M2
};

// In the order the index lists them in its errors.
inline constexpr TensorDtype kTensorDtypes[] = {
    TensorDtype::kF32, TensorDtype::kF16,  TensorDtype::kBF16, TensorDtype::kF64,    TensorDtype::kI32,
    TensorDtype::kI64, TensorDtype::kBool, TensorDtype::kU8,   TensorDtype::kI8,     TensorDtype::kI16,
    TensorDtype::kU16, TensorDtype::kU32,  TensorDtype::kU64,  TensorDtype::kF8E4M3, TensorDtype::kF8E5M2};

const char* TensorDtypeName(TensorDtype dtype);  // "F32", ...
size_t TensorDtypeSize(TensorDtype dtype);

struct TensorEntry {
  std::string name;
  TensorDtype dtype;
  std::vector<int64_t> shape;
  uint64_t element_count;
  uint64_t file_offset;  // absolute, in bytes from the start of the file
  uint64_t byte_length;
};

class SafetensorsIndex {
 public:
  // Refuses headers longer than this: a real header is a few KB per hundred tensors.
  static constexpr uint64_t kMaxHeaderLength = uint64_t{100} << 20;

  // Reads the header length from the first 8 bytes and checks it against the file size.
  static uint64_t HeaderLength(const uint8_t first_eight_bytes[8], uint64_t file_size);
  // Parses the JSON header (header_length bytes that followed the first 8). Throws std::invalid_argument
  // for malformed JSON or fields, std::out_of_range for offsets past the end of the file.
  static SafetensorsIndex Parse(const char* json, size_t header_length, uint64_t file_size);

  // Tensors in file order.
  const std::vector<TensorEntry>& tensors() const { return tensors_; }
  const std::map<std::string, std::string>& metadata() const { return metadata_; }
  // Throws std::invalid_argument naming the missing tensor.
  const TensorEntry& Find(const std::string& name) const;
  const TensorEntry* TryFind(const std::string& name) const;

 private:
  std::vector<TensorEntry> tensors_;
  std::map<std::string, std::string> metadata_;
};

}  // namespace embedlab

#endif  // EMBEDLAB_CHECKPOINT_SAFETENSORS_INDEX_H_
