#include "model/gpt_trainer.h"

#include <stdexcept>
#include <string>

#include "checkpoint/model_checkpoint.h"
#include "embed/sinusoidal_encoding.h"
#include "errors/argument_checks.h"

namespace embedlab {

GptTrainer::GptTrainer(const GptConfig& config, const AdamWOptions& optimizer)
    : model_(std::make_unique<Gpt>(config)),
      optimizer_(std::make_unique<AdamW>(model_->parameters().size(), optimizer)) {}

GptTrainer::GptTrainer(std::unique_ptr<Gpt> model, std::unique_ptr<AdamW> optimizer, const AdamWOptions& fallback)
    : model_(std::move(model)), optimizer_(std::move(optimizer)) {
  if (model_ == nullptr) throw std::invalid_argument("GptTrainer needs a model");
  if (optimizer_ == nullptr) optimizer_ = std::make_unique<AdamW>(model_->parameters().size(), fallback);
}

void GptTrainer::CheckShape(const std::vector<int32_t>& ids, const std::vector<int32_t>* targets, size_t batch,
                            size_t length) const {
  if (ids.size() != batch * length) {
    throw std::invalid_argument("ids must hold batch x length = " + std::to_string(batch * length) +
                                " token ids, got " + std::to_string(ids.size()));
  }
  if (targets != nullptr && targets->size() != ids.size()) {
    throw std::invalid_argument("targets must hold as many entries as ids (" + std::to_string(ids.size()) + "), got " +
                                std::to_string(targets->size()));
  }
}

TrainStepResult GptTrainer::TrainStep(const std::vector<int32_t>& ids, const std::vector<int32_t>& targets,
                                      size_t batch, size_t length) {
  CheckShape(ids, &targets, batch, length);
  model_->ZeroGradients();
  const float loss = model_->Forward(ids.data(), targets.data(), batch, length);
  model_->Backward();
  const float norm = optimizer_->Step(*model_);
  return {loss, norm, optimizer_->step()};
}

float GptTrainer::Evaluate(const std::vector<int32_t>& ids, const std::vector<int32_t>& targets, size_t batch,
                           size_t length) {
  CheckShape(ids, &targets, batch, length);
  return model_->Forward(ids.data(), targets.data(), batch, length);
}

std::vector<float> GptTrainer::Logits(const std::vector<int32_t>& ids, size_t batch, size_t length) {
  CheckShape(ids, nullptr, batch, length);
  model_->Forward(ids.data(), nullptr, batch, length);
  return model_->logits();
}

std::vector<float> GptTrainer::TokenEmbeddings() const {
  const ParameterTensor& wte = model_->layout().Find("wte.weight");
  const auto begin = model_->parameters().begin() + static_cast<std::ptrdiff_t>(wte.offset);
  return std::vector<float>(begin, begin + static_cast<std::ptrdiff_t>(wte.size));
}

std::vector<float> GptTrainer::PositionEmbeddings(size_t length) const {
  const GptConfig& config = model_->config();
  const size_t c = static_cast<size_t>(config.channels);
  if (config.positions == PositionScheme::kLearned) {
    RequireInRange("length", static_cast<int64_t>(length), 0, config.context_length);
    const auto begin = model_->parameters().begin() + static_cast<std::ptrdiff_t>(model_->layout().wpe());
    return std::vector<float>(begin, begin + static_cast<std::ptrdiff_t>(length * c));
  }
  if (config.positions == PositionScheme::kSinusoidal) {
    RequireInRange("length", static_cast<int64_t>(length), 0, kMaxSequenceLength);
    std::vector<float> table(length * c);
    if (length > 0) {
      SinusoidalEncoding(config.channels, static_cast<int64_t>(length))
          .Table(0, static_cast<int64_t>(length), table.data());
    }
    return table;
  }
  return {};
}

std::vector<std::vector<float>> GptTrainer::HiddenStates(const std::vector<int32_t>& ids) {
  model_->Forward(ids.data(), nullptr, 1, ids.size());
  const size_t size = ids.size() * static_cast<size_t>(model_->config().channels);
  std::vector<std::vector<float>> states;
  for (size_t i = 0; i <= static_cast<size_t>(model_->config().layers); ++i) {
    const float* state = model_->HiddenState(i);
    states.emplace_back(state, state + size);
  }
  return states;
}

std::vector<uint8_t> GptTrainer::Save() const { return SaveCheckpoint(*model_, optimizer_.get()); }

std::unique_ptr<GptTrainer> GptTrainer::Load(const std::vector<uint8_t>& bytes) {
  SafetensorsReader reader(std::make_shared<MemoryByteSource>(bytes));
  LoadedCheckpoint loaded = LoadCheckpoint(reader);
  return std::make_unique<GptTrainer>(std::move(loaded.model), std::move(loaded.optimizer), AdamWOptions());
}

}  // namespace embedlab
