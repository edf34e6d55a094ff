#include "text/pre_tokenizer.h"

#include <stdexcept>

namespace embedlab {

PieceScanner ScannerFor(PreTokenizerPattern pattern) {
  switch (pattern) {
    case PreTokenizerPattern::kGpt2:
      return NextGpt2Piece;
    case PreTokenizerPattern::kCl100k:
      return NextCl100kPiece;
    case PreTokenizerPattern::kO200k:
      return NextO200kPiece;
  }
  throw std::invalid_argument("pattern: unknown pre-tokenizer pattern");
}

std::string PatternName(PreTokenizerPattern pattern) {
  switch (pattern) {
    case PreTokenizerPattern::kGpt2:
      return "gpt2";
    case PreTokenizerPattern::kCl100k:
      return "cl100k";
    case PreTokenizerPattern::kO200k:
      return "o200k";
  }
  throw std::invalid_argument("pattern: unknown pre-tokenizer pattern");
}

PreTokenizerPattern PatternFromName(std::string_view name) {
  if (name == "gpt2") return PreTokenizerPattern::kGpt2;
  if (name == "cl100k") return PreTokenizerPattern::kCl100k;
  if (name == "o200k") return PreTokenizerPattern::kO200k;
  throw std::invalid_argument("pattern must be one of gpt2, cl100k, o200k; got '" + std::string(name) + "'");
}

std::vector<ByteSpan> SplitIntoPieces(std::string_view text, PreTokenizerPattern pattern) {
  const PieceScanner next = ScannerFor(pattern);
  std::vector<ByteSpan> pieces;
  for (size_t start = 0; start < text.size();) {
    const size_t end = next(text, start);
    pieces.push_back({start, end});
    start = end;
  }
  return pieces;
}

}  // namespace embedlab
