// Embind bindings of what a training loop draws from the project PRNG: seeded uniforms, random training
// windows of a token stream (CorpusBatches, the batcher of the C++ trainer) and fixed evaluation windows.
// Numbers for a seed are the same natively and in wasm, so a page and a native run can be compared.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <vector>

#include "bindings/boundary.h"
#include "errors/argument_checks.h"
#include "random/prng.h"
#include "training/corpus_batches.h"
#include "training/evaluation_windows.h"
#include "training/random_uniforms.h"

using emscripten::val;

namespace embedlab {
namespace bindings {
namespace {

val CopyToInt32Array(const std::vector<int32_t>& values) {
  return val::global("Int32Array").new_(val(emscripten::typed_memory_view(values.size(), values.data())));
}

// {ids, targets, batch, length}: the flat form Model.trainStep accepts.
val BatchObject(const std::vector<int32_t>& ids, const std::vector<int32_t>& targets, size_t batch, size_t length) {
  val result = val::object();
  result.set("ids", CopyToInt32Array(ids));
  result.set("targets", CopyToInt32Array(targets));
  result.set("batch", static_cast<double>(batch));
  result.set("length", static_cast<double>(length));
  return result;
}

val RandomUniform(double count, double seed) {
  return Guarded<val>(val::null(), [&] {
    const std::vector<double> values = RandomUniforms(ToInt64(count), RequireSeed("seed", seed));
    return val::global("Float64Array").new_(val(emscripten::typed_memory_view(values.size(), values.data())));
  });
}

CorpusBatches* CreateCorpusBatches(const val& tokens, double batch, double length, double seed) {
  return Guarded<CorpusBatches*>(nullptr, [&] {
    const uint64_t checked_seed = RequireSeed("seed", seed);
    return new CorpusBatches(ToIds(tokens), static_cast<size_t>(ToInt64(batch)), static_cast<size_t>(ToInt64(length)),
                             checked_seed);
  });
}

val NextBatch(CorpusBatches& batches) {
  return Guarded<val>(val::null(), [&] {
    std::vector<int32_t> ids(batches.batch() * batches.length()), targets(ids.size());
    batches.Next(ids.data(), targets.data());
    return BatchObject(ids, targets, batches.batch(), batches.length());
  });
}

double BatchSize(const CorpusBatches& batches) { return static_cast<double>(batches.batch()); }
double WindowLength(const CorpusBatches& batches) { return static_cast<double>(batches.length()); }

val EvaluationWindows(const val& tokens, double batch, double length) {
  return Guarded<val>(val::null(), [&] {
    const int64_t rows = ToInt64(batch), columns = ToInt64(length);
    std::vector<int32_t> ids, targets;
    EvenlySpacedWindows(ToIds(tokens), rows, columns, ids, targets);  // checks the shape before allocating
    return BatchObject(ids, targets, static_cast<size_t>(rows), static_cast<size_t>(columns));
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(embedlab_batches) {
  using emscripten::allow_raw_pointers;
  emscripten::function("randomUniform", &RandomUniform);
  emscripten::class_<CorpusBatches>("CorpusBatches")
      .function("next", &NextBatch)
      .function("batch", &BatchSize)
      .function("length", &WindowLength);
  emscripten::function("createCorpusBatches", &CreateCorpusBatches, allow_raw_pointers());
  emscripten::function("evenlySpacedWindows", &EvaluationWindows);
}

}  // namespace bindings
}  // namespace embedlab
