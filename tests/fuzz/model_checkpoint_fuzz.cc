// The model checkpoint loader (GptTrainer::Load, what lab.loadModel calls) over arbitrary bytes. It refuses
// with a documented error, or the model holds exactly the file's tensors (Conv1D matrices transposed back,
// read here through the safetensors reader, not the loader), runs a forward pass, and saves to bytes that
// load back to the same configuration, parameters and optimizer state, bit for bit.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "checkpoint/byte_source.h"
#include "checkpoint/safetensors_reader.h"
#include "fuzz_common.h"
#include "training/gpt_trainer.h"
#include "training/model_checkpoint.h"

using namespace embedlab;

namespace {

bool SameBits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

// Each parameter tensor equals the file's tensor of that name, in the model's (rows x cols) layout.
void CheckParametersMatchFile(const std::vector<uint8_t>& bytes, const Gpt& model) {
  const SafetensorsReader reader(std::make_shared<MemoryByteSource>(bytes));
  for (const ParameterTensor& tensor : model.layout().tensors()) {
    const std::vector<float> stored = reader.ReadFloats(tensor.name);
    FUZZ_CHECK(stored.size() == tensor.size);
    const float* held = model.parameters().data() + tensor.offset;
    const size_t cols = tensor.conv1d_layout ? static_cast<size_t>(tensor.shape[1]) : tensor.size;
    const size_t rows = tensor.conv1d_layout ? static_cast<size_t>(tensor.shape[0]) : 1;
    for (size_t r = 0; r < rows; ++r) {
      for (size_t c = 0; c < cols; ++c) {
        const float file_value = tensor.conv1d_layout ? stored[c * rows + r] : stored[c];
        FUZZ_CHECK(std::memcmp(&file_value, held + r * cols + c, sizeof(float)) == 0);
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<uint8_t> bytes(data, data + size);
  std::unique_ptr<GptTrainer> trainer;
  if (!AcceptErrors([&] { trainer = GptTrainer::Load(bytes); })) return 0;
  // From here on nothing may throw: the file was accepted.
  CheckParametersMatchFile(bytes, trainer->model());

  const GptConfig& config = trainer->model().config();
  const size_t length = static_cast<size_t>(std::min<int64_t>(config.context_length, 3));
  std::vector<int32_t> ids(length);
  for (size_t t = 0; t < length; ++t) ids[t] = static_cast<int32_t>(data[t % size] % config.vocab_size);
  FUZZ_CHECK(trainer->Logits(ids, 1, length).size() == length * static_cast<size_t>(config.vocab_size));

  const std::unique_ptr<GptTrainer> again = GptTrainer::Load(trainer->Save());
  FUZZ_CHECK(GptConfigToMetadata(again->model().config()) == GptConfigToMetadata(config));
  FUZZ_CHECK(SameBits(again->model().parameters(), trainer->model().parameters()));
  const AdamW &a = trainer->optimizer(), &b = again->optimizer();
  FUZZ_CHECK(a.step() == b.step());
  FUZZ_CHECK(SameBits(a.m(), b.m()) && SameBits(a.v(), b.v()));
  FUZZ_CHECK(a.options().learning_rate == b.options().learning_rate && a.options().beta1 == b.options().beta1 &&
             a.options().beta2 == b.options().beta2 && a.options().eps == b.options().eps &&
             a.options().weight_decay == b.options().weight_decay &&
             a.options().max_grad_norm == b.options().max_grad_norm);
  return 0;
}
