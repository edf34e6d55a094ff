// Additive positional encodings: a dim-vector per position that is added to the token vector.
// RoPE and ALiBi act inside attention instead and live with the model.
#ifndef EMBEDLAB_EMBED_POSITIONAL_ENCODING_H_
#define EMBEDLAB_EMBED_POSITIONAL_ENCODING_H_

#include <cstddef>
#include <cstdint>

namespace embedlab {

enum class PositionKind { kNone, kSinusoidal, kLearned };

const char* PositionKindName(PositionKind kind);

class PositionalEncoding {
 public:
  virtual ~PositionalEncoding() = default;
  virtual PositionKind kind() const = 0;
  size_t dim() const { return dim_; }
  size_t max_length() const { return max_length_; }

  // Throws std::out_of_range unless 0 <= offset and 0 <= length and offset + length <= max_length.
  void CheckRows(int64_t offset, int64_t length) const;
  // Writes the vectors of positions [offset, offset + length) to out (length x dim floats).
  void Table(int64_t offset, int64_t length, float* out) const;

 protected:
  // dim in [1, kMaxDim], max_length in [1, kMaxSequenceLength].
  PositionalEncoding(int64_t dim, int64_t max_length);

 private:
  virtual void WriteRows(size_t offset, size_t length, float* out) const = 0;
  size_t dim_;
  size_t max_length_;
};

// NoPE: every position vector is zero, so the model sees a bag of tokens.
class NoPositionalEncoding : public PositionalEncoding {
 public:
  NoPositionalEncoding(int64_t dim, int64_t max_length) : PositionalEncoding(dim, max_length) {}
  PositionKind kind() const override { return PositionKind::kNone; }

 private:
  void WriteRows(size_t offset, size_t length, float* out) const override;
};

}  // namespace embedlab

#endif  // EMBEDLAB_EMBED_POSITIONAL_ENCODING_H_
