// The fixed sinusoidal encoding of "Attention Is All You Need", interleaved:
//   PE(pos, 2i) = sin(pos / base^(2i/d)),  PE(pos, 2i+1) = cos(pos / base^(2i/d)).
#ifndef EMBEDLAB_EMBED_SINUSOIDAL_ENCODING_H_
#define EMBEDLAB_EMBED_SINUSOIDAL_ENCODING_H_

#include <vector>

#include "embed/positional_encoding.h"

namespace embedlab {

class SinusoidalEncoding : public PositionalEncoding {
 public:
  // dim must be even; base must be finite in [1, 1e12].
  SinusoidalEncoding(int64_t dim, int64_t max_length, double base = 10000.0);
  PositionKind kind() const override { return PositionKind::kSinusoidal; }
  double base() const { return base_; }
  // Angular frequency of pair i: base^(-2i/d).
  double Frequency(size_t pair) const { return frequencies_[pair]; }

 private:
  void WriteRows(size_t offset, size_t length, float* out) const override;
  double base_;
  std::vector<double> frequencies_;
};

}  // namespace embedlab

#endif  // EMBEDLAB_EMBED_SINUSOIDAL_ENCODING_H_
