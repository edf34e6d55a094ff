// Random access to the bytes of a file-like object, so a safetensors reader can pull the header and
// then only the tensors it is asked for (a page can read wpe from a large GPT-2 file by slices).
#ifndef EMBEDLAB_CHECKPOINT_BYTE_SOURCE_H_
#define EMBEDLAB_CHECKPOINT_BYTE_SOURCE_H_

#include <cstdint>
#include <functional>
#include <vector>

namespace embedlab {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  virtual uint64_t size() const = 0;
  // Copies bytes [offset, offset + length) to out; throws std::out_of_range past the end.
  void Read(uint64_t offset, uint64_t length, uint8_t* out) const;

 private:
  // Called with a range already checked against size().
  virtual void ReadChecked(uint64_t offset, uint64_t length, uint8_t* out) const = 0;
};

// A byte array held in memory (the source keeps its own copy).
class MemoryByteSource : public ByteSource {
 public:
  explicit MemoryByteSource(std::vector<uint8_t> bytes) : bytes_(std::move(bytes)) {}
  uint64_t size() const override { return bytes_.size(); }

 private:
  void ReadChecked(uint64_t offset, uint64_t length, uint8_t* out) const override;
  std::vector<uint8_t> bytes_;
};

// Bytes fetched on demand through a callback (a JS Blob slice, a file handle, ...).
class CallbackByteSource : public ByteSource {
 public:
  using ReadRange = std::function<void(uint64_t offset, uint64_t length, uint8_t* out)>;
  CallbackByteSource(uint64_t size, ReadRange read) : size_(size), read_(std::move(read)) {}
  uint64_t size() const override { return size_; }

 private:
  void ReadChecked(uint64_t offset, uint64_t length, uint8_t* out) const override { read_(offset, length, out); }
  uint64_t size_;
  ReadRange read_;
};

}  // namespace embedlab

#endif  // EMBEDLAB_CHECKPOINT_BYTE_SOURCE_H_
