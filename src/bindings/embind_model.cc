// Embind bindings of the tiny GPT (model + AdamW in one GptTrainer). Configs cross as Embind value objects
// (GptConfig, AdamWOptions) that the JS layer has normalised (every field present, types checked); ranges
// are checked by ValidateGptConfig and ValidateAdamWOptions alone, under the names of createModel's argument
// (config.heads, config.optimizer.beta1). The seed crosses as a double for RequireSeed to see it unclamped.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <string>
#include <vector>

#include "bindings/boundary.h"
#include "errors/argument_checks.h"
#include "model/gpt_config.h"
#include "training/gpt_trainer.h"

using emscripten::val;

namespace embedlab {
namespace bindings {
namespace {

// Integer fields cross as JS numbers (an int64 field would need BigInt); the JS layer has checked them.
template <typename Struct, int64_t Struct::*field>
double GetInteger(const Struct& object) {
  return static_cast<double>(object.*field);
}
template <typename Struct, int64_t Struct::*field>
void SetInteger(Struct& object, double value) {
  object.*field = ToInt64(value);
}

// The scaling as a config shows it: its type's name and only the fields that type uses.
val RopeScalingToObject(const RopeScaling& s) {
  val object = val::object();
  object.set("type", std::string(RopeScalingTypeName(s.type)));
  if (s.type == RopeScalingType::kNone) return object;
  object.set("factor", s.factor);
  if (s.type == RopeScalingType::kLinear || s.type == RopeScalingType::kNtk) return object;
  object.set("originalContextLength", static_cast<double>(s.original_context_length));
  if (s.type == RopeScalingType::kYarn) {
    object.set("betaFast", s.beta_fast);
    object.set("betaSlow", s.beta_slow);
    if (s.attention_factor != 0.0) object.set("attentionFactor", s.attention_factor);
    object.set("truncate", s.truncate);
  }
  if (s.type == RopeScalingType::kLlama3) {
    object.set("lowFrequencyFactor", s.low_frequency_factor);
    object.set("highFrequencyFactor", s.high_frequency_factor);
  }
  return object;
}

// The optimizer's options nested under `optimizer`, as the JS layer shows a model's config.
val ConfigToObject(const GptConfig& config, const AdamWOptions& optimizer) {
  val object(config);
  object.set("seed", static_cast<double>(config.seed));
  object.set("positions", std::string(PositionSchemeName(config.positions)));
  object.set("ropeLayout", std::string(RopeLayoutName(config.rope_layout)));
  object.set("ropeScaling", RopeScalingToObject(config.rope_scaling));
  object.set("optimizer", val(optimizer));
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
      return val(trainer_->TrainStep(ToIds(ids), ToIds(targets), ToSize(batch), ToSize(length)));
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

  // name: a string; values: an array-like of finite numbers (both checked by the JS layer; the core checks the
  // name and the length against the model).
  val Tensor(const std::string& name) const {
    return Guarded<val>(val::null(), [&] { return CopyToFloat32Array(trainer_->Tensor(name)); });
  }

  bool SetTensor(const std::string& name, const val& values) {
    return Guarded<bool>(false, [&] {
      trainer_->SetTensor(name, ToFloats(values));
      return true;
    });
  }

  // names: a JS array of tensor names (the JS layer has checked it is one of strings).
  bool SetFrozen(const val& names) {
    return Guarded<bool>(false, [&] {
      trainer_->SetFrozen(emscripten::vecFromJSArray<std::string>(names));
      return true;
    });
  }

  val Frozen() const {
    val names = val::array();
    for (const std::string& name : trainer_->Frozen()) names.call<void>("push", name);
    return names;
  }

  // scaling: a RopeScaling value object the JS layer has completed; Gpt::SetRopeScaling checks it.
  bool SetRopeScaling(const RopeScaling& scaling) {
    return Guarded<bool>(false, [&] {
      trainer_->model().SetRopeScaling(scaling);
      return true;
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

// config and optimizer: createModel's config and config.optimizer, with the defaults filled in.
ModelBinding* CreateModel(const GptConfig& config, const AdamWOptions& optimizer, double seed) {
  return Guarded<ModelBinding*>(nullptr, [&] {
    GptConfig seeded = config;
    seeded.seed = RequireSeed("config.seed", seed);
    ValidateGptConfig(seeded, "config");
    ValidateAdamWOptions(optimizer, "config.optimizer");
    return new ModelBinding(std::make_unique<GptTrainer>(seeded, optimizer));
  });
}

// The config createModel fills in (GptConfig's and AdamWOptions' defaults), shaped as a model's config; vocabSize
// has none.
val ModelDefaults() {
  val defaults = ConfigToObject(GptConfig{}, AdamWOptions{});
  defaults.delete_("vocabSize");
  return defaults;
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
val PositionSchemes() { return NamesOf(kPositionSchemes, PositionSchemeName); }

// The RoPE layouts' names, in the core's order.
val RopeLayouts() { return NamesOf(kRopeLayouts, RopeLayoutName); }

}  // namespace

EMSCRIPTEN_BINDINGS(embedlab_model) {
  using emscripten::allow_raw_pointers;
  // Enum values carry the core's names (raw.PositionScheme.rope, raw.RopeLayout.rotate_half).
  emscripten::enum_<PositionScheme> schemes("PositionScheme");
  for (PositionScheme scheme : kPositionSchemes) schemes.value(PositionSchemeName(scheme), scheme);
  emscripten::enum_<RopeLayout> layouts("RopeLayout");
  for (RopeLayout layout : kRopeLayouts) layouts.value(RopeLayoutName(layout), layout);
  emscripten::value_object<GptConfig>("GptConfig")
      .field("vocabSize", &GetInteger<GptConfig, &GptConfig::vocab_size>,
             &SetInteger<GptConfig, &GptConfig::vocab_size>)
      .field("contextLength", &GetInteger<GptConfig, &GptConfig::context_length>,
             &SetInteger<GptConfig, &GptConfig::context_length>)
      .field("channels", &GetInteger<GptConfig, &GptConfig::channels>, &SetInteger<GptConfig, &GptConfig::channels>)
      .field("layers", &GetInteger<GptConfig, &GptConfig::layers>, &SetInteger<GptConfig, &GptConfig::layers>)
      .field("heads", &GetInteger<GptConfig, &GptConfig::heads>, &SetInteger<GptConfig, &GptConfig::heads>)
      .field("positions", &GptConfig::positions)
      .field("ropeLayout", &GptConfig::rope_layout)
      .field("ropeBase", &GptConfig::rope_base)
      .field("ropeScaling", &GptConfig::rope_scaling)
      .field("causal", &GptConfig::causal)
      .field("t5NumBuckets", &GetInteger<GptConfig, &GptConfig::t5_num_buckets>,
             &SetInteger<GptConfig, &GptConfig::t5_num_buckets>)
      .field("t5MaxDistance", &GetInteger<GptConfig, &GptConfig::t5_max_distance>,
             &SetInteger<GptConfig, &GptConfig::t5_max_distance>)
      .field("embeddingScale", &GptConfig::embedding_scale);
  emscripten::value_object<AdamWOptions>("AdamWOptions")
      .field("learningRate", &AdamWOptions::learning_rate)
      .field("beta1", &AdamWOptions::beta1)
      .field("beta2", &AdamWOptions::beta2)
      .field("eps", &AdamWOptions::eps)
      .field("weightDecay", &AdamWOptions::weight_decay)
      .field("maxGradNorm", &AdamWOptions::max_grad_norm);
  emscripten::value_object<TrainStepResult>("TrainStepResult")
      .field("loss", &TrainStepResult::loss)
      .field("gradientNorm", &TrainStepResult::gradient_norm)
      .field("step", &GetInteger<TrainStepResult, &TrainStepResult::step>,
             &SetInteger<TrainStepResult, &TrainStepResult::step>);
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
      .function("tensor", &ModelBinding::Tensor)
      .function("setTensor", &ModelBinding::SetTensor)
      .function("setFrozen", &ModelBinding::SetFrozen)
      .function("frozen", &ModelBinding::Frozen)
      .function("setLearningRate", &ModelBinding::SetLearningRate)
      .function("setRopeScaling", &ModelBinding::SetRopeScaling);
  emscripten::function("createModel", &CreateModel, allow_raw_pointers());
  emscripten::function("loadModel", &LoadModel, allow_raw_pointers());
  emscripten::function("positionSchemes", &PositionSchemes);
  emscripten::function("ropeLayouts", &RopeLayouts);
  emscripten::function("modelDefaults", &ModelDefaults);
}

}  // namespace bindings
}  // namespace embedlab
