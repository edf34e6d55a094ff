// The cl100k pattern (as npm tiktoken 1.0.22 ships it; newer Python tiktoken adds \s++$, which differs
// only for whitespace runs with a line break at the very end):
//   (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|
//   \s*[\r\n]+|\s+(?!\S)|\s+
#include "text/piece_scanning.h"
#include "text/pre_tokenizer.h"

namespace embedlab {

size_t NextCl100kPiece(std::string_view text, size_t start) noexcept {
  using namespace scanning;
  auto is_letter = [](uint8_t f) { return (f & kFlagLetter) != 0; };
  const Char first = CharAt(text, start);
  if (first.code_point == '\'') {
    const size_t length = ContractionLength(text, start, /*ignore_case=*/true);
    if (length > 0) return start + length;
  }
  if (first.flags & kFlagLetter) return RunEnd(text, start, is_letter);
  const size_t second = start + first.length;
  const bool has_second = second < text.size();
  const uint8_t second_flags = has_second ? CharAt(text, second).flags : 0;
  // [^\r\n\p{L}\p{N}]?\p{L}+ with the optional character present.
  if (!(first.flags & kFlagNumber) && !IsNewline(first.code_point) && (second_flags & kFlagLetter)) {
    return RunEnd(text, second, is_letter);
  }
  if (first.flags & kFlagNumber) return NumbersUpToThree(text, start);
  // ' ?[^\s\p{L}\p{N}]+[\r\n]*'
  size_t head = text.size();
  if (IsOther(first.flags)) {
    head = start;
  } else if (first.code_point == ' ' && has_second && IsOther(second_flags)) {
    head = second;
  }
  if (head < text.size()) {
    size_t end = RunEnd(text, head, IsOther);
    while (end < text.size() && IsNewline(static_cast<uint8_t>(text[end]))) ++end;
    return end;
  }
  // Whitespace: \s*[\r\n]+ ends at the run's last line break; otherwise \s+(?!\S)|\s+.
  const WhitespaceRun run = ScanWhitespace(text, start);
  if (run.after_last_newline != 0) return run.after_last_newline;
  return WhitespacePiece(text, start, run);
}

}  // namespace embedlab
