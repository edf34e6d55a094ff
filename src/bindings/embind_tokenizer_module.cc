// The two small modules link this file with boundary.cc: the tokenizer-only module (package entry
// embedlab/tokenizer) with embind_tokenizer.cc over src/text and src/bpe, the Hugging Face module (started on demand
// by both entries) with embind_hf_tokenizer.cc over src/hf. Each names its version and flavour here, which the full
// module does in embind.cc through Highway (neither has Highway kernels).
#include <emscripten/bind.h>

#include <string>

namespace {

// The same names the full module reports: "WASM" when built with SIMD128, "EMU128" without.
std::string SimdTarget() {
#ifdef __wasm_simd128__
  return "WASM";
#else
  return "EMU128";
#endif
}

std::string Version() { return EMBEDLAB_VERSION; }

}  // namespace

EMSCRIPTEN_BINDINGS(embedlab_tokenizer_module) {
  emscripten::function("simdTarget", &SimdTarget);
  emscripten::function("version", &Version);
}
