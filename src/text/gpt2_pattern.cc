// The r50k/p50k ("gpt2") pattern:
//   's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
#include "text/piece_scanning.h"
#include "text/pre_tokenizer.h"

namespace embedlab {

size_t NextGpt2Piece(std::string_view text, size_t start) noexcept {
  using namespace scanning;
  const Char first = CharAt(text, start);
  if (first.code_point == '\'') {
    const size_t length = ContractionLength(text, start, /*ignore_case=*/false);
    if (length > 0) return start + length;
  }
  // " ?" belongs to the letter, number and other runs; a space before a space (or the end) is left to the
  // whitespace alternatives.
  size_t head = start;
  uint8_t head_flags = first.flags;
  if (first.code_point == ' ' && start + 1 < text.size()) {
    head = start + 1;
    head_flags = CharAt(text, head).flags;
  }
  if (head_flags & kFlagLetter) return RunEnd(text, head, [](uint8_t f) { return (f & kFlagLetter) != 0; });
  if (head_flags & kFlagNumber) return RunEnd(text, head, [](uint8_t f) { return (f & kFlagNumber) != 0; });
  if (IsOther(head_flags)) return RunEnd(text, head, IsOther);
  return WhitespacePiece(text, start, ScanWhitespace(text, start));
}

}  // namespace embedlab
