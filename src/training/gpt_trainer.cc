#include "training/gpt_trainer.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

#include "embed/sinusoidal_encoding.h"
#include "errors/argument_checks.h"
#include "simd/vector_kernels.h"
#include "text/decimal.h"
#include "training/model_checkpoint.h"

namespace embedlab {
namespace {

std::string NonFiniteName(float value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  return FormatShortest(value);
}

ptrdiff_t FirstNonFinite(const std::vector<float>& values) {
  const size_t i = simd::FirstNonFinite(values.data(), values.size());
  return i < values.size() ? static_cast<ptrdiff_t>(i) : -1;
}

// "h.0.attn.c_attn.weight[12]" for a flat parameter index.
std::string NameOf(const ParameterLayout& layout, size_t index) {
  for (const ParameterTensor& tensor : layout.tensors()) {
    if (index >= tensor.offset && index < tensor.offset + tensor.size) {
      return tensor.name + "[" + std::to_string(index - tensor.offset) + "]";
    }
  }
  return "#" + std::to_string(index);
}

}  // namespace

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
  const int64_t last_good = optimizer_->step();
  const std::string at = "training step " + std::to_string(last_good + 1) + ": ";
  const std::string kept =
      "; no update was made, the parameters and optimizer state are those of step " + std::to_string(last_good);
  model_->ZeroGradients();
  const float loss = model_->Forward(ids.data(), targets.data(), batch, length);
  if (!std::isfinite(loss)) throw std::domain_error(at + "the loss is " + NonFiniteName(loss) + kept);
  model_->Backward();
  for (const ParameterTensor* tensor : frozen_) {
    std::fill_n(model_->gradients().begin() + static_cast<ptrdiff_t>(tensor->offset), tensor->size, 0.0f);
  }
  saved_parameters_ = model_->parameters();
  saved_m_ = optimizer_->m();
  saved_v_ = optimizer_->v();
  const float norm = optimizer_->Step(*model_);  // throws on a non-finite gradient before any change
  // A zero gradient still moves a tensor through weight decay and old moments: put frozen ones back.
  for (const ParameterTensor* tensor : frozen_) {
    const auto begin = static_cast<ptrdiff_t>(tensor->offset), end = begin + static_cast<ptrdiff_t>(tensor->size);
    std::copy(saved_parameters_.begin() + begin, saved_parameters_.begin() + end, model_->parameters().begin() + begin);
    std::copy(saved_m_.begin() + begin, saved_m_.begin() + end, optimizer_->m().begin() + begin);
    std::copy(saved_v_.begin() + begin, saved_v_.begin() + end, optimizer_->v().begin() + begin);
  }
  std::string fault;
  if (const ptrdiff_t i = FirstNonFinite(model_->parameters()); i >= 0) {
    fault = "the update made parameter " + NameOf(model_->layout(), static_cast<size_t>(i)) + " " +
            NonFiniteName(model_->parameters()[static_cast<size_t>(i)]) + " (learning rate " +
            FormatShortest(optimizer_->options().learning_rate) + " too high?)";
  } else if (const ptrdiff_t j = FirstNonFinite(optimizer_->m()); j >= 0) {
    fault = "the update made the first moment of " + NameOf(model_->layout(), static_cast<size_t>(j)) + " " +
            NonFiniteName(optimizer_->m()[static_cast<size_t>(j)]);
  } else if (const ptrdiff_t k = FirstNonFinite(optimizer_->v()); k >= 0) {
    fault = "the update made the second moment of " + NameOf(model_->layout(), static_cast<size_t>(k)) + " " +
            NonFiniteName(optimizer_->v()[static_cast<size_t>(k)]);
  }
  if (!fault.empty()) {
    model_->parameters().swap(saved_parameters_);
    optimizer_->m().swap(saved_m_);
    optimizer_->v().swap(saved_v_);
    optimizer_->set_step(last_good);
    throw std::domain_error(at + fault +
                            "; the update was undone, the parameters and optimizer state are those "
                            "of step " +
                            std::to_string(last_good));
  }
  return {loss, norm, optimizer_->step()};
}

namespace {

// The tensor called `name`, or std::invalid_argument listing the model's tensors (`what` is the API's argument).
const ParameterTensor& RequireTensorNamed(const ParameterLayout& layout, const std::string& what,
                                          const std::string& name) {
  const ParameterTensor* tensor = layout.TryFind(name);
  if (tensor != nullptr) return *tensor;
  std::string known;
  for (const ParameterTensor& t : layout.tensors()) known += (known.empty() ? "" : ", ") + t.name;
  throw std::invalid_argument(what + ": this model has no tensor \"" + name + "\"; its tensors are " + known);
}

std::string ShapeText(const std::vector<int64_t>& shape) {
  std::string text;
  for (int64_t extent : shape) text += (text.empty() ? "" : ", ") + std::to_string(extent);
  return "[" + text + "]";
}

}  // namespace

std::vector<float> GptTrainer::Tensor(const std::string& name) const {
  const ParameterTensor& tensor = RequireTensorNamed(model_->layout(), "name", name);
  return ToCheckpointLayout(tensor, model_->parameters().data() + tensor.offset);
}

void GptTrainer::SetTensor(const std::string& name, const std::vector<float>& values) {
  const ParameterTensor& tensor = RequireTensorNamed(model_->layout(), "name", name);
  if (values.size() != tensor.size) {
    throw std::out_of_range("values.length must be " + std::to_string(tensor.size) + " (" + name + " has shape " +
                            ShapeText(CheckpointShape(tensor)) + "), got " + std::to_string(values.size()));
  }
  for (size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i])) {
      throw std::out_of_range("values[" + std::to_string(i) + "] must be a finite number, got " +
                              (std::isnan(values[i]) ? "NaN"
                               : values[i] > 0       ? "Infinity"
                                                     : "-Infinity"));
    }
  }
  FromCheckpointLayout(tensor, values.data(), model_->parameters().data() + tensor.offset);
}

void GptTrainer::SetFrozen(const std::vector<std::string>& names) {
  std::vector<const ParameterTensor*> frozen;
  for (const std::string& name : names) {
    const ParameterTensor* tensor = &RequireTensorNamed(model_->layout(), "frozen", name);
    if (std::find(frozen.begin(), frozen.end(), tensor) != frozen.end()) {
      throw std::invalid_argument("frozen: \"" + name + "\" is listed twice");
    }
    frozen.push_back(tensor);
  }
  frozen_ = std::move(frozen);
}

std::vector<std::string> GptTrainer::Frozen() const {
  std::vector<std::string> names;
  for (const ParameterTensor* tensor : frozen_) names.push_back(tensor->name);
  return names;
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
  // A tampered (or diverged) checkpoint with NaN/Inf values would fail on the first step: refuse it here.
  const std::vector<float>& parameters = loaded.model->parameters();
  if (const ptrdiff_t i = FirstNonFinite(parameters); i >= 0) {
    throw std::invalid_argument("checkpoint: parameter " + NameOf(loaded.model->layout(), static_cast<size_t>(i)) +
                                " is " + NonFiniteName(parameters[static_cast<size_t>(i)]) +
                                "; a checkpoint must hold finite values");
  }
  if (loaded.optimizer != nullptr) {
    for (const std::vector<float>* moment : {&loaded.optimizer->m(), &loaded.optimizer->v()}) {
      if (const ptrdiff_t i = FirstNonFinite(*moment); i >= 0) {
        throw std::invalid_argument(
            std::string("checkpoint: the optimizer's ") + (moment == &loaded.optimizer->m() ? "first" : "second") +
            " moment of " + NameOf(loaded.model->layout(), static_cast<size_t>(i)) + " is " +
            NonFiniteName((*moment)[static_cast<size_t>(i)]) + "; a checkpoint must hold finite values");
      }
    }
  }
  return std::make_unique<GptTrainer>(std::move(loaded.model), std::move(loaded.optimizer), AdamWOptions());
}

}  // namespace embedlab
