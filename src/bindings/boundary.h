// The JS/C++ boundary: errors never cross as C++ exceptions (Guarded records them; the JS layer throws
// them as RangeError/TypeError/Error), and results cross as copies.
#ifndef EMBEDLAB_BINDINGS_BOUNDARY_H_
#define EMBEDLAB_BINDINGS_BOUNDARY_H_

#include <emscripten/val.h>

#include <cstdint>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace embedlab {
namespace bindings {

// Records an error for the JS layer to throw, with the core's message as it is. Every name in a message comes
// from one mechanism: the core writes the public API's option names itself (vocabSize, idsA.length,
// ropeScaling.factor; see errors/argument_checks.h). Chosen over rewriting C++ names here because it is the
// simplest and the only exhaustive one: a name is written once, at the check, and Catch2 sees the very message JS
// sees; a rewrite table has to list every name (it had missed t5_num_buckets) and guesses from context whether a
// word is a name or a file's key. tests/node/core_names.test.mjs fails on a C++ name in a core message.
void RecordError(const char* kind, const std::string& message);
bool HasError();
// {kind, message} of the recorded error, which is then cleared.
emscripten::val TakeError();

// Runs body; on an exception records it and returns fallback.
template <typename Result, typename Body>
Result Guarded(Result fallback, Body body) {
  try {
    return body();
  } catch (const std::out_of_range& e) {
    RecordError("RangeError", e.what());
  } catch (const std::invalid_argument& e) {
    RecordError("TypeError", e.what());
  } catch (const std::bad_alloc&) {
    RecordError("RangeError", "out of memory: the request does not fit in the wasm heap (max 4 GiB)");
  } catch (const std::exception& e) {
    RecordError("Error", e.what());
  }
  return fallback;
}

// One buffer in the wasm heap where the JS layer puts files it hands over (vocabularies, checkpoints,
// safetensors headers and tensors): StagingBuffer(n) sizes it and returns its address; the C++ side
// reads Staging() and calls ReleaseStaging() when done so large files do not stay resident.
uintptr_t StagingBuffer(double bytes);
const std::string& Staging();
void ReleaseStaging();

// The JS layer passes integers as numbers it has checked; clamping keeps a stray value defined behaviour.
int64_t ToInt64(double value);

emscripten::val CopyToFloat32Array(const float* data, size_t count);

// The name of every value of one of the core's lists (kPositionSchemes, ...), in its order, as a JS array.
template <typename Value, size_t kCount, typename NameOf>
emscripten::val NamesOf(const Value (&values)[kCount], NameOf name_of) {
  emscripten::val names = emscripten::val::array();
  for (Value value : values) names.call<void>("push", std::string(name_of(value)));
  return names;
}
inline emscripten::val CopyToFloat32Array(const std::vector<float>& values) {
  return CopyToFloat32Array(values.data(), values.size());
}

// Bytes copied into a new Uint8Array.
inline emscripten::val BytesToUint8Array(const std::string& bytes) {
  return emscripten::val::global("Uint8Array")
      .new_(
          emscripten::val(emscripten::typed_memory_view(bytes.size(), reinterpret_cast<const uint8_t*>(bytes.data()))));
}

// The buffers a tokenizer handle keeps between calls are let go when a call needs far less than an earlier, long
// one left behind: one 100 MB text must not pin 300 MB of input buffer for the handle's lifetime.
template <typename Buffer>
void ForgetIfOversized(Buffer* buffer, size_t elements_needed) {
  constexpr size_t kAlwaysKeepBytes = size_t{1} << 20;
  const size_t held = buffer->capacity() * sizeof((*buffer)[0]);
  if (held > kAlwaysKeepBytes && held / 4 > elements_needed * sizeof((*buffer)[0])) Buffer().swap(*buffer);
}

// The JS layer has already checked that these are array-likes of finite numbers.
std::vector<int32_t> ToIds(const emscripten::val& ids);
std::vector<float> ToFloats(const emscripten::val& values);

}  // namespace bindings
}  // namespace embedlab

#endif  // EMBEDLAB_BINDINGS_BOUNDARY_H_
