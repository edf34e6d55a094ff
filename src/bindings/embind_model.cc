// Embind bindings of the tiny GPT (model + AdamW in one GptTrainer). Configs arrive as plain objects the JS
// layer has normalised (every field present, types checked); ranges are checked by ValidateGptConfig.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <string>
#include <vector>

#include "bindings/boundary.h"
#include "model/gpt_config.h"
#include "training/gpt_trainer.h"

using emscripten::val;

namespace embedlab {
namespace bindings {
namespace {

GptConfig ConfigFromObject(const val& object) {
  GptConfig config;
  config.vocab_size = ToInt64(object["vocabSize"].as<double>());
  config.context_length = ToInt64(object["contextLength"].as<double>());
  config.channels = ToInt64(object["channels"].as<double>());
  config.layers = ToInt64(object["layers"].as<double>());
  config.heads = ToInt64(object["heads"].as<double>());
  config.positions = ParsePositionScheme(object["positions"].as<std::string>());
  config.rope_layout = ParseRopeLayout(object["ropeLayout"].as<std::string>());
  config.rope_base = object["ropeBase"].as<double>();
  config.causal = object["causal"].as<bool>();
  config.seed = static_cast<uint64_t>(ToInt64(object["seed"].as<double>()));
  return config;
}

AdamWOptions OptimizerFromObject(const val& object) {
  AdamWOptions options;
  options.learning_rate = object["learningRate"].as<float>();
  options.beta1 = object["beta1"].as<float>();
  options.beta2 = object["beta2"].as<float>();
  options.eps = object["eps"].as<float>();
  options.weight_decay = object["weightDecay"].as<float>();
  options.max_grad_norm = object["maxGradNorm"].as<float>();
  return options;
}

val ConfigToObject(const GptConfig& config, const AdamWOptions& optimizer) {
  val object = val::object();
  object.set("vocabSize", static_cast<double>(config.vocab_size));
  object.set("contextLength", static_cast<double>(config.context_length));
  object.set("channels", static_cast<double>(config.channels));
  object.set("layers", static_cast<double>(config.layers));
  object.set("heads", static_cast<double>(config.heads));
  object.set("positions", std::string(PositionSchemeName(config.positions)));
  object.set("ropeLayout", std::string(RopeLayoutName(config.rope_layout)));
  object.set("ropeBase", config.rope_base);
  object.set("causal", config.causal);
  object.set("seed", static_cast<double>(config.seed));
  val options = val::object();
  options.set("learningRate", optimizer.learning_rate);
  options.set("beta1", optimizer.beta1);
  options.set("beta2", optimizer.beta2);
  options.set("eps", optimizer.eps);
  options.set("weightDecay", optimizer.weight_decay);
  options.set("maxGradNorm", optimizer.max_grad_norm);
  object.set("optimizer", options);
  return object;
}

class ModelBinding {
 public:
  explicit ModelBinding(std::unique_ptr<GptTrainer> trainer) : trainer_(std::move(trainer)) {}

  val Config() const { return ConfigToObject(trainer_->model().config(), trainer_->optimizer().options()); }
  double ParameterCount() const { return static_cast<double>(trainer_->model().parameters().size()); }
  double Step() const { return static_cast<double>(trainer_->optimizer().step()); }
  double MaxLength() const { return static_cast<double>(trainer_->model().max_length()); }

  val TrainStep(const val& ids, const val& targets, double batch, double length) {
    return Guarded<val>(val::null(), [&] {
      const TrainStepResult result = trainer_->TrainStep(ToIds(ids), ToIds(targets), ToSize(batch), ToSize(length));
      val out = val::object();
      out.set("loss", result.loss);
      out.set("gradientNorm", result.gradient_norm);
      out.set("step", static_cast<double>(result.step));
      return out;
    });
  }

  double Evaluate(const val& ids, const val& targets, double batch, double length) {
    return Guarded<double>(
        0, [&] { return trainer_->Evaluate(ToIds(ids), ToIds(targets), ToSize(batch), ToSize(length)); });
  }

  val Logits(const val& ids, double batch, double length) {
    return Guarded<val>(
        val::null(), [&] { return CopyToFloat32Array(trainer_->Logits(ToIds(ids), ToSize(batch), ToSize(length))); });
  }

  val TokenEmbeddings() const {
    return Guarded<val>(val::null(), [&] { return CopyToFloat32Array(trainer_->TokenEmbeddings()); });
  }

  val PositionEmbeddings(double length) const {
    return Guarded<val>(val::null(), [&] {
      const std::vector<float> table = trainer_->PositionEmbeddings(ToSize(length));
      return table.empty() ? val::null() : CopyToFloat32Array(table);
    });
  }

  val HiddenStates(const val& ids) {
    return Guarded<val>(val::null(), [&] {
      val states = val::array();
      for (const std::vector<float>& state : trainer_->HiddenStates(ToIds(ids))) {
        states.call<void>("push", CopyToFloat32Array(state));
      }
      return states;
    });
  }

  val Save() const {
    return Guarded<val>(val::null(), [&] {
      const std::vector<uint8_t> bytes = trainer_->Save();
      return val::global("Uint8Array").new_(val(emscripten::typed_memory_view(bytes.size(), bytes.data())));
    });
  }

  bool SetLearningRate(double learning_rate) {
    return Guarded<bool>(false, [&] {
      trainer_->set_learning_rate(static_cast<float>(learning_rate));
      return true;
    });
  }

 private:
  static size_t ToSize(double value) { return static_cast<size_t>(std::max<int64_t>(0, ToInt64(value))); }
  std::unique_ptr<GptTrainer> trainer_;
};

ModelBinding* CreateModel(const val& config, const val& optimizer) {
  return Guarded<ModelBinding*>(nullptr, [&] {
    return new ModelBinding(std::make_unique<GptTrainer>(ConfigFromObject(config), OptimizerFromObject(optimizer)));
  });
}

// The checkpoint bytes are in the staging buffer.
ModelBinding* LoadModel() {
  ModelBinding* result = Guarded<ModelBinding*>(nullptr, [&] {
    const std::string& bytes = Staging();
    return new ModelBinding(GptTrainer::Load(std::vector<uint8_t>(bytes.begin(), bytes.end())));
  });
  ReleaseStaging();
  return result;
}

// The positional schemes' names, in the core's order.
val PositionSchemes() {
  val names = val::array();
  for (PositionScheme scheme : kPositionSchemes) names.call<void>("push", std::string(PositionSchemeName(scheme)));
  return names;
}

}  // namespace

EMSCRIPTEN_BINDINGS(embedlab_model) {
  using emscripten::allow_raw_pointers;
  emscripten::class_<ModelBinding>("Model")
      .function("config", &ModelBinding::Config)
      .function("parameterCount", &ModelBinding::ParameterCount)
      .function("step", &ModelBinding::Step)
      .function("maxLength", &ModelBinding::MaxLength)
      .function("trainStep", &ModelBinding::TrainStep)
      .function("evaluate", &ModelBinding::Evaluate)
      .function("logits", &ModelBinding::Logits)
      .function("tokenEmbeddings", &ModelBinding::TokenEmbeddings)
      .function("positionEmbeddings", &ModelBinding::PositionEmbeddings)
      .function("hiddenStates", &ModelBinding::HiddenStates)
      .function("save", &ModelBinding::Save)
      .function("setLearningRate", &ModelBinding::SetLearningRate);
  emscripten::function("createModel", &CreateModel, allow_raw_pointers());
  emscripten::function("loadModel", &LoadModel, allow_raw_pointers());
  emscripten::function("positionSchemes", &PositionSchemes);
}

}  // namespace bindings
}  // namespace embedlab
