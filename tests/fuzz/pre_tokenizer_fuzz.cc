// Each pre-tokenizer pattern: pieces are non-empty, contiguous and concatenate to the input, for any bytes.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "fuzz_common.h"
#include "text/pre_tokenizer.h"

using namespace embedlab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (PreTokenizerPattern pattern :
       {PreTokenizerPattern::kGpt2, PreTokenizerPattern::kCl100k, PreTokenizerPattern::kO200k}) {
    const std::vector<ByteSpan> pieces = SplitIntoPieces(text, pattern);
    size_t position = 0;
    for (const ByteSpan& piece : pieces) {
      FUZZ_CHECK(piece.start == position);
      FUZZ_CHECK(piece.end > piece.start);
      FUZZ_CHECK(piece.end <= text.size());
      position = piece.end;
    }
    FUZZ_CHECK(position == text.size());
    // The scanner called directly agrees with the split.
    const PieceScanner next = ScannerFor(pattern);
    size_t start = 0;
    for (const ByteSpan& piece : pieces) {
      FUZZ_CHECK(next(text, start) == piece.end);
      start = piece.end;
    }
    FUZZ_CHECK(PatternFromName(PatternName(pattern)) == pattern);
  }
  return 0;
}
