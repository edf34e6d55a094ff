// Writes tensors in the safetensors format (data in the order given, header padded to 8 bytes).
#ifndef EMBEDLAB_CHECKPOINT_SAFETENSORS_WRITER_H_
#define EMBEDLAB_CHECKPOINT_SAFETENSORS_WRITER_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace embedlab {

struct Float32Tensor {
  std::string name;
  std::vector<int64_t> shape;
  const float* data;  // product(shape) floats
};

// Throws std::invalid_argument for an empty, duplicate or reserved ("__metadata__") name.
std::vector<uint8_t> WriteSafetensors(const std::vector<Float32Tensor>& tensors,
                                      const std::map<std::string, std::string>& metadata);

}  // namespace embedlab

#endif  // EMBEDLAB_CHECKPOINT_SAFETENSORS_WRITER_H_
