// What enters layer 1: input = token_embedding + position_embedding, kept with both parts so the page
// can show all three.
#ifndef EMBEDLAB_EMBED_COMPOSITION_H_
#define EMBEDLAB_EMBED_COMPOSITION_H_

#include <cstdint>
#include <vector>

#include "embed/positional_encoding.h"
#include "embed/token_embedding.h"

namespace embedlab {

struct ComposedSequence {
  size_t length = 0;
  size_t dim = 0;
  std::vector<float> token_vectors;     // length x dim
  std::vector<float> position_vectors;  // length x dim (zeros without an encoding)
  std::vector<float> input_vectors;     // their sum
};

// encoding may be null (no positions). Positions run from offset; offset + ids.size() must not
// exceed the encoding's max_length, and the encoding's dim must equal the embedding's.
ComposedSequence Compose(const std::vector<int32_t>& ids, const TokenEmbedding& embedding,
                         const PositionalEncoding* encoding, int64_t offset);

}  // namespace embedlab

#endif  // EMBEDLAB_EMBED_COMPOSITION_H_
