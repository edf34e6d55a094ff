#include "training/model_checkpoint.h"

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "checkpoint/safetensors_writer.h"
#include "text/decimal.h"
#include "training/rope_scaling_json.h"

namespace embedlab {
namespace {

const std::string& Field(const std::map<std::string, std::string>& metadata, const std::string& key) {
  const auto it = metadata.find(key);
  if (it == metadata.end()) throw std::invalid_argument("checkpoint metadata lacks \"" + key + "\"");
  return it->second;
}

int64_t IntegerField(const std::map<std::string, std::string>& metadata, const std::string& key) {
  const std::string& text = Field(metadata, key);
  // As the C library's base-10 integer reading did: leading white space, a sign, digits, clamped to the int64 range.
  size_t i = 0;
  while (i < text.size() && (text[i] == ' ' || (text[i] >= '\t' && text[i] <= '\r'))) ++i;
  const bool negative = i < text.size() && text[i] == '-';
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  const size_t first_digit = i;
  const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  uint64_t magnitude = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    const uint64_t digit = static_cast<uint64_t>(text[i] - '0');
    magnitude = magnitude > (limit - digit) / 10 ? limit : magnitude * 10 + digit;
  }
  if (i == first_digit || i != text.size()) {
    throw std::invalid_argument("checkpoint metadata \"" + key + "\" must be an integer, got \"" + text + "\"");
  }
  return negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
}

double NumberField(const std::map<std::string, std::string>& metadata, const std::string& key) {
  const std::string& text = Field(metadata, key);
  // The C library's decimal syntax, as checkpoints written elsewhere may use it: leading white space, then a decimal
  // number or inf / infinity / nan in any case with a sign (non-finite values are then refused by the config checks,
  // with their names).
  size_t i = 0;
  while (i < text.size() && (text[i] == ' ' || (text[i] >= '\t' && text[i] <= '\r'))) ++i;
  std::string word = text.substr(i + (i < text.size() && (text[i] == '+' || text[i] == '-') ? 1 : 0));
  for (char& c : word) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  const bool negative = i < text.size() && text[i] == '-';
  double value = 0.0;
  if (word == "inf" || word == "infinity") {
    value = negative ? -HUGE_VAL : HUGE_VAL;
  } else if (word == "nan") {
    value = negative ? -NAN : NAN;
  } else if (!ParseDecimal(std::string_view(text).substr(i), &value)) {
    throw std::invalid_argument("checkpoint metadata \"" + key + "\" must be a number, got \"" + text + "\"");
  }
  return value;
}

bool BoolField(const std::map<std::string, std::string>& metadata, const std::string& key) {
  const std::string& text = Field(metadata, key);
  if (text == "true" || text == "True" || text == "1") return true;
  if (text == "false" || text == "False" || text == "0") return false;
  throw std::invalid_argument("checkpoint metadata \"" + key + "\" must be true or false, got \"" + text + "\"");
}

// Shortest text that reads back as the same float / double.
std::string FloatText(float value) { return FormatGeneral(value, 9); }
std::string DoubleText(double value) { return FormatGeneral(value, 17); }

const char* const kExpAvg = "optimizer.exp_avg.";
const char* const kExpAvgSq = "optimizer.exp_avg_sq.";

// Throws naming a missing tensor or a shape that differs from the model's.
void RequireTensor(const SafetensorsReader& reader, const std::string& name, const ParameterTensor& tensor) {
  const TensorEntry& entry = reader.index().Find(name);
  const std::vector<int64_t> shape = CheckpointShape(tensor);
  if (entry.shape != shape) {
    std::string expected, found;
    for (int64_t e : shape) expected += (expected.empty() ? "" : ", ") + std::to_string(e);
    for (int64_t e : entry.shape) found += (found.empty() ? "" : ", ") + std::to_string(e);
    throw std::invalid_argument("checkpoint tensor \"" + name + "\" has shape [" + found + "], the model needs [" +
                                expected + "]");
  }
}

void ReadInto(const SafetensorsReader& reader, const std::string& name, const ParameterTensor& tensor, float* out) {
  RequireTensor(reader, name, tensor);
  FromCheckpointLayout(tensor, reader.ReadFloats(name).data(), out);
}

}  // namespace

std::vector<float> ToCheckpointLayout(const ParameterTensor& tensor, const float* values) {
  std::vector<float> out(values, values + tensor.size);
  if (!tensor.conv1d_layout) return out;
  const size_t rows = static_cast<size_t>(tensor.shape[0]), cols = static_cast<size_t>(tensor.shape[1]);
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < cols; ++c) out[c * rows + r] = values[r * cols + c];
  }
  return out;
}

void FromCheckpointLayout(const ParameterTensor& tensor, const float* values, float* out) {
  if (!tensor.conv1d_layout) {
    std::copy(values, values + tensor.size, out);
    return;
  }
  const size_t rows = static_cast<size_t>(tensor.shape[0]), cols = static_cast<size_t>(tensor.shape[1]);
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < cols; ++c) out[r * cols + c] = values[c * rows + r];
  }
}

std::vector<int64_t> CheckpointShape(const ParameterTensor& tensor) {
  if (!tensor.conv1d_layout) return tensor.shape;
  return {tensor.shape[1], tensor.shape[0]};
}

std::map<std::string, std::string> GptConfigToMetadata(const GptConfig& config) {
  std::map<std::string, std::string> metadata = {{"format", "embedlab-gpt"},
                                                 {"vocab_size", std::to_string(config.vocab_size)},
                                                 {"context_length", std::to_string(config.context_length)},
                                                 {"channels", std::to_string(config.channels)},
                                                 {"layers", std::to_string(config.layers)},
                                                 {"heads", std::to_string(config.heads)},
                                                 {"positions", PositionSchemeName(config.positions)},
                                                 {"rope_layout", RopeLayoutName(config.rope_layout)},
                                                 {"rope_base", DoubleText(config.rope_base)},
                                                 {"causal", config.causal ? "true" : "false"},
                                                 {"embedding_scale", DoubleText(config.embedding_scale)},
                                                 {"seed", std::to_string(config.seed)}};
  // Absent for an unscaled model, so its files stay as they were.
  if (config.rope_scaling.type != RopeScalingType::kNone) {
    metadata["rope_scaling"] = RopeScalingToJson(config.rope_scaling);
  }
  // T5Config's names; only T5 models carry them.
  if (config.positions == PositionScheme::kT5) {
    metadata["relative_attention_num_buckets"] = std::to_string(config.t5_num_buckets);
    metadata["relative_attention_max_distance"] = std::to_string(config.t5_max_distance);
  }
  return metadata;
}

GptConfig GptConfigFromMetadata(const std::map<std::string, std::string>& metadata) {
  GptConfig config;
  config.vocab_size = IntegerField(metadata, "vocab_size");
  config.context_length = IntegerField(metadata, "context_length");
  config.channels = IntegerField(metadata, "channels");
  config.layers = IntegerField(metadata, "layers");
  config.heads = IntegerField(metadata, "heads");
  config.positions = ParsePositionScheme(Field(metadata, "positions"));
  config.rope_layout = ParseRopeLayout(Field(metadata, "rope_layout"));
  config.rope_base = NumberField(metadata, "rope_base");
  if (metadata.count("rope_scaling")) config.rope_scaling = RopeScalingFromJson(metadata.at("rope_scaling"));
  config.causal = BoolField(metadata, "causal");
  if (config.positions == PositionScheme::kT5) {
    config.t5_num_buckets = IntegerField(metadata, "relative_attention_num_buckets");
    config.t5_max_distance = IntegerField(metadata, "relative_attention_max_distance");
  }
  config.seed = metadata.count("seed") ? static_cast<uint64_t>(IntegerField(metadata, "seed")) : 0;
  // Files from before the option scaled nothing.
  config.embedding_scale = metadata.count("embedding_scale") ? NumberField(metadata, "embedding_scale") : 1.0;
  ValidateGptConfig(config, "checkpoint config");  // named as loadModel(bytes).config shows it
  return config;
}

AdamWOptions AdamWOptionsFromMetadata(const std::map<std::string, std::string>& metadata) {
  AdamWOptions options;
  options.learning_rate = static_cast<float>(NumberField(metadata, "adamw_learning_rate"));
  options.beta1 = static_cast<float>(NumberField(metadata, "adamw_beta1"));
  options.beta2 = static_cast<float>(NumberField(metadata, "adamw_beta2"));
  options.eps = static_cast<float>(NumberField(metadata, "adamw_eps"));
  options.weight_decay = static_cast<float>(NumberField(metadata, "adamw_weight_decay"));
  options.max_grad_norm = static_cast<float>(NumberField(metadata, "adamw_max_grad_norm"));
  ValidateAdamWOptions(options, "checkpoint config.optimizer");
  return options;
}

void LoadParameters(const SafetensorsReader& reader, Gpt& model) {
  for (const ParameterTensor& tensor : model.layout().tensors()) {
    ReadInto(reader, tensor.name, tensor, model.parameters().data() + tensor.offset);
  }
}

std::vector<uint8_t> SaveCheckpoint(const Gpt& model, const AdamW* optimizer) {
  std::map<std::string, std::string> metadata = GptConfigToMetadata(model.config());
  // Transposed copies must outlive WriteSafetensors; reserve so the vector never moves them.
  std::vector<std::vector<float>> copies;
  copies.reserve(3 * model.layout().tensors().size());
  std::vector<Float32Tensor> tensors;
  const auto add = [&](const std::string& name, const ParameterTensor& tensor, const float* values) {
    copies.push_back(ToCheckpointLayout(tensor, values));
    tensors.push_back({name, CheckpointShape(tensor), copies.back().data()});
  };
  for (const ParameterTensor& tensor : model.layout().tensors()) {
    add(tensor.name, tensor, model.parameters().data() + tensor.offset);
  }
  if (optimizer != nullptr) {
    const AdamWOptions& o = optimizer->options();
    metadata["adamw_learning_rate"] = FloatText(o.learning_rate);
    metadata["adamw_beta1"] = FloatText(o.beta1);
    metadata["adamw_beta2"] = FloatText(o.beta2);
    metadata["adamw_eps"] = FloatText(o.eps);
    metadata["adamw_weight_decay"] = FloatText(o.weight_decay);
    metadata["adamw_max_grad_norm"] = FloatText(o.max_grad_norm);
    metadata["adamw_step"] = std::to_string(optimizer->step());
    for (const ParameterTensor& tensor : model.layout().tensors()) {
      add(kExpAvg + tensor.name, tensor, optimizer->m().data() + tensor.offset);
      add(kExpAvgSq + tensor.name, tensor, optimizer->v().data() + tensor.offset);
    }
  }
  return WriteSafetensors(tensors, metadata);
}

LoadedCheckpoint LoadCheckpoint(const SafetensorsReader& reader) {
  const auto& metadata = reader.index().metadata();
  const GptConfig config = GptConfigFromMetadata(metadata);
  // Every tensor must be in the file before the model is built: a few hundred bytes of metadata may claim a
  // configuration of gigabytes, which would otherwise be allocated and initialized only to be refused.
  const bool with_optimizer = metadata.count("adamw_step") != 0;
  const ParameterLayout layout(config);
  for (const ParameterTensor& tensor : layout.tensors()) {
    RequireTensor(reader, tensor.name, tensor);
    if (with_optimizer) {
      RequireTensor(reader, kExpAvg + tensor.name, tensor);
      RequireTensor(reader, kExpAvgSq + tensor.name, tensor);
    }
  }
  LoadedCheckpoint loaded;
  loaded.model = std::make_unique<Gpt>(config);
  LoadParameters(reader, *loaded.model);
  if (!with_optimizer) return loaded;
  loaded.optimizer = std::make_unique<AdamW>(loaded.model->parameters().size(), AdamWOptionsFromMetadata(metadata));
  const int64_t step = IntegerField(metadata, "adamw_step");
  if (step < 0) throw std::invalid_argument("checkpoint metadata \"adamw_step\" must be >= 0");
  loaded.optimizer->set_step(step);
  for (const ParameterTensor& tensor : loaded.model->layout().tensors()) {
    ReadInto(reader, kExpAvg + tensor.name, tensor, loaded.optimizer->m().data() + tensor.offset);
    ReadInto(reader, kExpAvgSq + tensor.name, tensor, loaded.optimizer->v().data() + tensor.offset);
  }
  return loaded;
}

}  // namespace embedlab
