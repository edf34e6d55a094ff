// GloVe / word2vec text: a parsed table is consistent (rows x dim finite values, non-empty words), and a
// tiny limit on values is honoured.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "embed/glove_file.h"
#include "fuzz_common.h"

using namespace embedlab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  AcceptErrors([&] {
    const GloveTable table = ParseGloveText(text);
    FUZZ_CHECK(table.dim >= 1 && table.dim <= 16384);
    FUZZ_CHECK(table.vectors.size() == table.words.size() * static_cast<size_t>(table.dim));
    for (const auto& word : table.words) FUZZ_CHECK(!word.empty());
    for (float v : table.vectors) FUZZ_CHECK(std::isfinite(v));
  });
  GloveLimits small;
  small.max_values = 64;
  small.max_rows = 8;
  AcceptErrors([&] {
    const GloveTable table = ParseGloveText(text, small);
    FUZZ_CHECK(table.vectors.size() <= 64 && table.words.size() <= 8);
  });
  return 0;
}
