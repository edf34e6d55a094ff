#include "embed/composition.h"

#include <stdexcept>
#include <string>

#include "errors/argument_checks.h"
#include "simd/vector_kernels.h"

namespace embedlab {

ComposedSequence Compose(const std::vector<int32_t>& ids, const TokenEmbedding& embedding,
                         const PositionalEncoding* encoding, int64_t offset) {
  RequireInRange("ids.length", static_cast<int64_t>(ids.size()), 0, kMaxSequenceLength);
  if (encoding != nullptr && encoding->dim() != embedding.dim()) {
    throw std::out_of_range("positional.dim must equal embedding.dim (" + std::to_string(embedding.dim()) + "), got " +
                            std::to_string(encoding->dim()));
  }
  if (encoding == nullptr) RequireInRange("offset", offset, 0, kMaxSequenceLength);
  embedding.CheckIds(ids);

  ComposedSequence result;
  result.length = ids.size();
  result.dim = embedding.dim();
  const size_t count = result.length * result.dim;
  result.token_vectors.resize(count);
  result.position_vectors.assign(count, 0.0f);
  result.input_vectors.resize(count);
  if (encoding != nullptr) {
    encoding->Table(offset, static_cast<int64_t>(ids.size()), result.position_vectors.data());
  }
  embedding.Lookup(ids, result.token_vectors.data());
  simd::Add(result.token_vectors.data(), result.position_vectors.data(), result.input_vectors.data(), count);
  return result;
}

}  // namespace embedlab
