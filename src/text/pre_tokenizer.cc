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
  for (PreTokenizerPattern pattern : kPreTokenizerPatterns) {
    if (name == PatternName(pattern)) return pattern;
  }
  std::string names;
  for (PreTokenizerPattern pattern : kPreTokenizerPatterns) {
    names += (names.empty() ? "" : ", ") + PatternName(pattern);
  }
  throw std::invalid_argument("pattern must be one of " + names + "; got '" + std::string(name) + "'");
}

std::string_view PatternRegex(PreTokenizerPattern pattern) {
  switch (pattern) {
    case PreTokenizerPattern::kGpt2:
      return R"re('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)re";
    case PreTokenizerPattern::kCl100k:
      return R"re((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|)re"
             R"re(\s*[\r\n]+|\s+(?!\S)|\s+)re";
    case PreTokenizerPattern::kO200k:
      return R"re([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|)re"
             R"re([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|)re"
             R"re(\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)re";
  }
  throw std::invalid_argument("pattern: unknown pre-tokenizer pattern");
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
