// Embind bindings of the long-context experiment (training/long_context_run.h) and its task generators: one
// run as an object that advances in small units (the JS layer slices it, reports progress and honours an
// AbortSignal between units), and single passkey / recall sequences for a seed (the same numbers natively).
// The JS layer (training/long_context.js) has checked option names and types; the core checks every range.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "bindings/boundary.h"
#include "errors/argument_checks.h"
#include "random/prng.h"
#include "training/long_context_run.h"
#include "training/passkey_task.h"
#include "training/recall_task.h"

using emscripten::val;

namespace embedlab {
namespace bindings {
namespace {

val Int32Copy(const std::vector<int32_t>& values) {
  return val::global("Int32Array").new_(val(emscripten::typed_memory_view(values.size(), values.data())));
}

val Float64Copy(const std::vector<double>& values) {
  return val::global("Float64Array").new_(val(emscripten::typed_memory_view(values.size(), values.data())));
}

template <typename Value>
std::vector<Value> NumbersOf(const val& array) {
  std::vector<Value> values;
  const size_t length = array["length"].as<size_t>();
  for (size_t i = 0; i < length; ++i) values.push_back(static_cast<Value>(array[i].as<double>()));
  return values;
}

template <typename Value>
val ArrayOf(const std::vector<Value>& values) {
  val array = val::array();
  for (Value value : values) array.call<void>("push", static_cast<double>(value));
  return array;
}

// A spec as the JS API names its options (lab.longContextDefaults, longContextRun's options); the corpus is not
// in it. CreateRunner reads the same names back.
val SpecObject(const LongContextSpec& s) {
  val spec = val::object();
  spec.set("task", std::string(LongContextTaskName(s.task.task)));
  spec.set("scheme", s.scheme);
  spec.set("seed", static_cast<double>(s.model.seed));
  spec.set("trainLength", static_cast<double>(s.train_length));
  spec.set("factors", ArrayOf(s.factors));
  spec.set("steps", static_cast<double>(s.steps));
  spec.set("fineTuneSteps", static_cast<double>(s.fine_tune_steps));
  spec.set("batch", static_cast<double>(s.batch));
  spec.set("learningRate", s.learning_rate);
  spec.set("fineTuneLearningRate", s.fine_tune_learning_rate);
  spec.set("weightDecay", s.weight_decay);
  spec.set("channels", static_cast<double>(s.model.channels));
  spec.set("layers", static_cast<double>(s.model.layers));
  spec.set("heads", static_cast<double>(s.model.heads));
  spec.set("depths", ArrayOf(s.depths));
  spec.set("evalRows", static_cast<double>(s.eval_rows));
  spec.set("digits", static_cast<double>(s.task.passkey_digits));
  spec.set("recallKeys", static_cast<double>(s.task.recall_keys));
  spec.set("recallValues", static_cast<double>(s.task.recall_values));
  return spec;
}

// Every option's default (LongContextSpec's member initializers), the experiment's default seeds and the task
// names, for the JS layer and the CLI to read once.
val LongContextDefaults() {
  val defaults = SpecObject(LongContextSpec{});
  defaults.set("seeds", ArrayOf(std::vector<uint64_t>(std::begin(kLongContextSeeds), std::end(kLongContextSeeds))));
  defaults.set("tasks", NamesOf(kLongContextTasks, LongContextTaskName));
  return defaults;
}

// spec: the normalized options object of training/long_context.js (SpecObject's names, every field present).
LongContextRunner* CreateRunner(const val& spec) {
  return Guarded<LongContextRunner*>(nullptr, [&] {
    LongContextSpec s;
    s.task.task = ParseLongContextTask(spec["task"].as<std::string>());
    s.task.passkey_digits = ToInt64(spec["digits"].as<double>());
    s.task.recall_keys = ToInt64(spec["recallKeys"].as<double>());
    s.task.recall_values = ToInt64(spec["recallValues"].as<double>());
    if (s.task.task == LongContextTask::kLanguage) {
      s.task.corpus = std::make_shared<const std::vector<int32_t>>(ToIds(spec["corpus"]));
      s.task.corpus_vocab = ToInt64(spec["vocabSize"].as<double>());
    }
    s.scheme = spec["scheme"].as<std::string>();
    s.model.channels = ToInt64(spec["channels"].as<double>());
    s.model.layers = ToInt64(spec["layers"].as<double>());
    s.model.heads = ToInt64(spec["heads"].as<double>());
    s.model.seed = RequireSeed("seed", spec["seed"].as<double>());
    s.train_length = ToInt64(spec["trainLength"].as<double>());
    s.factors = NumbersOf<int64_t>(spec["factors"]);
    s.steps = ToInt64(spec["steps"].as<double>());
    s.fine_tune_steps = ToInt64(spec["fineTuneSteps"].as<double>());
    s.batch = ToInt64(spec["batch"].as<double>());
    s.learning_rate = spec["learningRate"].as<double>();
    s.weight_decay = spec["weightDecay"].as<double>();
    s.fine_tune_learning_rate = spec["fineTuneLearningRate"].as<double>();
    s.depths = NumbersOf<double>(spec["depths"]);
    s.eval_rows = ToInt64(spec["evalRows"].as<double>());
    return new LongContextRunner(std::move(s));
  });
}

bool Advance(LongContextRunner& runner, double units) {
  return Guarded<bool>(false, [&] { return runner.Advance(ToInt64(units)); });
}

val Progress(const LongContextRunner& runner) {
  val progress = val::object();
  progress.set("phase", std::string(runner.phase()));
  progress.set("done", static_cast<double>(runner.done()));
  progress.set("total", static_cast<double>(runner.total()));
  return progress;
}

val Result(const LongContextRunner& runner) {
  const LongContextResult& result = runner.result();
  const bool by_depth = runner.spec().task.task != LongContextTask::kLanguage;
  val readings = val::array();
  for (const LongContextReading& reading : result.readings) {
    val item = val::object();
    item.set("length", static_cast<double>(reading.length));
    item.set("factor", static_cast<double>(reading.length) / static_cast<double>(runner.spec().train_length));
    item.set("fineTuned", reading.fine_tuned);
    item.set("available", reading.available);
    item.set("reason", reading.available ? val::null() : val(reading.reason));
    const bool shown = reading.available;
    item.set("lossByPosition", shown && !by_depth ? Float64Copy(reading.loss_by_position) : val::null());
    item.set("accuracyByDepth", shown && by_depth ? Float64Copy(reading.accuracy_by_depth) : val::null());
    item.set("lossByDepth", shown && by_depth ? Float64Copy(reading.loss_by_depth) : val::null());
    readings.call<void>("push", item);
  }
  val object = val::object();
  object.set("trainLoss", result.train_loss);
  object.set("entropyFloor", std::isnan(runner.entropy_floor()) ? val::null() : val(runner.entropy_floor()));
  object.set("chanceLoss", std::isnan(runner.chance_loss()) ? val::null() : val(runner.chance_loss()));
  object.set("readings", readings);
  return object;
}

val TrainedParameters(const LongContextRunner& runner) { return CopyToFloat32Array(runner.trained_parameters()); }

void UseTrainedParameters(LongContextRunner& runner, const val& parameters, double train_loss) {
  Guarded<int>(0, [&] {
    runner.UseTrainedParameters(ToFloats(parameters), train_loss);
    return 0;
  });
}

val Sequence(const LongContextSequence& sequence) {
  val object = val::object();
  object.set("ids", Int32Copy(sequence.ids));
  object.set("targets", Int32Copy(sequence.targets));
  object.set("keyPosition", static_cast<double>(sequence.key_position));
  return object;
}

val PasskeySample(double digits, double length, double depth, double seed) {
  return Guarded<val>(val::null(), [&] {
    const PasskeyTask task(ToInt64(digits));
    const LongContextSequence sampled = SampleSequence(task, ToInt64(length), depth, RequireSeed("seed", seed));
    val sequence = Sequence(sampled);
    sequence.set("vocabSize", static_cast<double>(task.vocab_size()));
    sequence.set("text", task.Describe(sampled.ids.data(), sampled.ids.size()));
    return sequence;
  });
}

val RecallSample(double keys, double values, double length, double depth, double seed) {
  return Guarded<val>(val::null(), [&] {
    const RecallTask task(ToInt64(keys), ToInt64(values));
    val sequence = Sequence(SampleSequence(task, ToInt64(length), depth, RequireSeed("seed", seed)));
    sequence.set("vocabSize", static_cast<double>(task.vocab_size()));
    return sequence;
  });
}

val SchemeNames() {
  val names = val::array();
  for (const LongContextScheme& scheme : LongContextSchemes()) names.call<void>("push", scheme.name);
  return names;
}

}  // namespace

EMSCRIPTEN_BINDINGS(embedlab_long_context) {
  using emscripten::allow_raw_pointers;
  emscripten::class_<LongContextRunner>("LongContextRunner")
      .function("advance", &Advance)
      .function("progress", &Progress)
      .function("result", &Result)
      .function("trainedParameters", &TrainedParameters)
      .function("useTrainedParameters", &UseTrainedParameters);
  emscripten::function("createLongContextRunner", &CreateRunner, allow_raw_pointers());
  emscripten::function("passkeySample", &PasskeySample);
  emscripten::function("recallSample", &RecallSample);
  emscripten::function("longContextSchemes", &SchemeNames);
  emscripten::function("longContextDefaults", &LongContextDefaults);
}

}  // namespace bindings
}  // namespace embedlab
