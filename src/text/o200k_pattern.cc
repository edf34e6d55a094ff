// The o200k pattern:
//   [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|
//   [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|
//   \p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
// Lm, Lo and marks are in both the "upper" class U and the "lower" class W, so the first alternative's
// backtracking matters: when U* is not followed by a W character, the regex gives characters back until
// one of them can serve as W+, i.e. the match ends after the last U-and-W character of the run.
#include "text/piece_scanning.h"
#include "text/pre_tokenizer.h"

namespace embedlab {
namespace {

using scanning::Char;
using scanning::CharAt;
using scanning::RunEnd;

constexpr size_t kNoMatch = static_cast<size_t>(-1);
bool IsUpperish(uint8_t f) noexcept { return (f & kFlagUpperish) != 0; }
bool IsLowerish(uint8_t f) noexcept { return (f & kFlagLowerish) != 0; }

// U*W+ from pos.
size_t UpperThenLower(std::string_view text, size_t pos) noexcept {
  size_t end_of_last_both = kNoMatch;
  while (pos < text.size()) {
    const Char c = CharAt(text, pos);
    if (!IsUpperish(c.flags)) break;
    pos += c.length;
    if (IsLowerish(c.flags)) end_of_last_both = pos;
  }
  if (pos < text.size() && IsLowerish(CharAt(text, pos).flags)) return RunEnd(text, pos, IsLowerish);
  return end_of_last_both;
}

// U+W* from pos.
size_t UpperRunThenLower(std::string_view text, size_t pos) noexcept {
  const size_t upper_end = RunEnd(text, pos, IsUpperish);
  if (upper_end == pos) return kNoMatch;
  return RunEnd(text, upper_end, IsLowerish);
}

// (?i:'s|'t|'re|'ve|'m|'ll|'d)?
size_t WithContraction(std::string_view text, size_t end) noexcept {
  if (end < text.size() && text[end] == '\'') return end + scanning::ContractionLength(text, end, true);
  return end;
}

}  // namespace

size_t NextO200kPiece(std::string_view text, size_t start) noexcept {
  using namespace scanning;
  const Char first = CharAt(text, start);
  const size_t second = start + first.length;
  const bool has_prefix =
      second < text.size() && !(first.flags & (kFlagLetter | kFlagNumber)) && !IsNewline(first.code_point);
  // The two word alternatives, each tried with its optional leading character first.
  for (auto word : {UpperThenLower, UpperRunThenLower}) {
    if (has_prefix) {
      const size_t end = word(text, second);
      if (end != kNoMatch) return WithContraction(text, end);
    }
    const size_t end = word(text, start);
    if (end != kNoMatch) return WithContraction(text, end);
  }
  if (first.flags & kFlagNumber) return NumbersUpToThree(text, start);
  // ' ?[^\s\p{L}\p{N}]+[\r\n/]*'
  size_t head = kNoMatch;
  if (IsOther(first.flags)) {
    head = start;
  } else if (first.code_point == ' ' && second < text.size() && IsOther(CharAt(text, second).flags)) {
    head = second;
  }
  if (head != kNoMatch) {
    size_t end = RunEnd(text, head, IsOther);
    while (end < text.size() && (IsNewline(static_cast<uint8_t>(text[end])) || text[end] == '/')) ++end;
    return end;
  }
  const WhitespaceRun run = ScanWhitespace(text, start);
  if (run.after_last_newline != 0) return run.after_last_newline;
  return WhitespacePiece(text, start, run);
}

}  // namespace embedlab
