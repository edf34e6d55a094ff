#include "bindings/boundary.h"

#include <emscripten/bind.h>
#include <malloc.h>

#include "errors/argument_checks.h"

namespace embedlab {
namespace bindings {
namespace {

struct LastError {
  bool set = false;
  std::string kind;
  std::string message;
} last_error;

std::string staging;

}  // namespace

uintptr_t StagingBuffer(double bytes) {
  return Guarded<uintptr_t>(0, [&] {
    staging.resize(static_cast<size_t>(ToInt64(bytes)));
    return reinterpret_cast<uintptr_t>(staging.data());
  });
}

const std::string& Staging() { return staging; }

void ReleaseStaging() { std::string().swap(staging); }

void RecordError(const char* kind, const std::string& message) { last_error = {true, kind, message}; }

bool HasError() { return last_error.set; }

emscripten::val TakeError() {
  emscripten::val error = emscripten::val::object();
  error.set("kind", last_error.kind);
  error.set("message", last_error.message);
  last_error = {};
  return error;
}

int64_t ToInt64(double value) {
  if (!(value > -9007199254740992.0)) return -9007199254740992;
  if (value > 9007199254740992.0) return 9007199254740992;
  return static_cast<int64_t>(value);
}

emscripten::val CopyToFloat32Array(const float* data, size_t count) {
  return emscripten::val::global("Float32Array").new_(emscripten::val(emscripten::typed_memory_view(count, data)));
}

std::vector<int32_t> ToIds(const emscripten::val& ids) {
  return emscripten::convertJSArrayToNumberVector<int32_t>(ids);
}

std::vector<float> ToFloats(const emscripten::val& values) {
  return emscripten::convertJSArrayToNumberVector<float>(values);
}

// The size caps of errors/argument_checks.h, so that the JS layer checks against the same numbers.
emscripten::val Limits() {
  emscripten::val limits = emscripten::val::object();
  limits.set("maxDim", static_cast<double>(kMaxDim));
  limits.set("maxVocabSize", static_cast<double>(kMaxVocabSize));
  limits.set("maxSequenceLength", static_cast<double>(kMaxSequenceLength));
  limits.set("maxSeed", kMaxSeed);
  return limits;
}

// Bytes in use by malloc right now: what leak tests watch.
double AllocatedBytes() { return static_cast<double>(mallinfo().uordblks); }

EMSCRIPTEN_BINDINGS(embedlab_boundary) {
  emscripten::function("allocatedBytes", &AllocatedBytes);
  emscripten::function("limits", &Limits);
  emscripten::function("hasError", &HasError);
  emscripten::function("takeError", &TakeError);
  emscripten::function("stagingBuffer", &StagingBuffer);
}

}  // namespace bindings
}  // namespace embedlab
