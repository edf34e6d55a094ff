// DeepSeek V3's three Split regexes, applied one after the other by its tokenizer.json:
//   \p{N}{1,3}
//   [一-龥぀-ゟ゠-ヿ]+                         (U+4E00..U+9FA5, U+3040..U+309F, U+30A0..U+30FF)
//   [!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+|
//   ?[\p{P}\p{S}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
// None of them tiles the text (a digit alone matches nothing in the third), so each searches forward; an
// attempt that fails at a position fails after looking at two characters at most, so the search is linear.
#include "text/piece_scanning.h"
#include "text/split_scanners.h"

namespace embedlab {
namespace {

using scanning::Char;
using scanning::CharAt;
using scanning::RunEnd;

constexpr size_t kNoMatch = static_cast<size_t>(-1);
constexpr uint8_t kLetterOrMark = kFlagLetter | kFlagMark;
constexpr uint8_t kPunctuationOrSymbol = kFlagPunctuation | kFlagSymbol;

bool IsAsciiLetter(char c) noexcept { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool IsKanjiOrKana(uint32_t cp) noexcept { return (cp >= 0x4E00 && cp <= 0x9FA5) || (cp >= 0x3040 && cp <= 0x30FF); }

// The end of the third regex's match at pos, or kNoMatch.
size_t DeepSeekWordAt(std::string_view text, size_t pos) noexcept {
  const Char first = CharAt(text, pos);
  const size_t second = pos + first.length;
  const uint8_t second_flags = second < text.size() ? CharAt(text, second).flags : 0;
  // [ASCII punctuation or symbol][A-Za-z]+: the 32 characters of the class are exactly ASCII's P and S.
  if (first.code_point < 0x80 && (first.flags & kPunctuationOrSymbol) && second < text.size() &&
      IsAsciiLetter(text[second])) {
    size_t end = second + 1;
    while (end < text.size() && IsAsciiLetter(text[end])) ++end;
    return end;
  }
  // [^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+: a leading mark is either the optional character or the run's
  // start; the match ends at the same place.
  auto is_letter_or_mark = [](uint8_t f) { return (f & kLetterOrMark) != 0; };
  if (first.flags & kLetterOrMark) return RunEnd(text, pos, is_letter_or_mark);
  if (!scanning::IsNewline(first.code_point) && !(first.flags & kPunctuationOrSymbol) &&
      (second_flags & kLetterOrMark)) {
    return RunEnd(text, second, is_letter_or_mark);
  }
  // ' ?[\p{P}\p{S}]+[\r\n]*'
  size_t head = kNoMatch;
  if (first.flags & kPunctuationOrSymbol) {
    head = pos;
  } else if (first.code_point == ' ' && (second_flags & kPunctuationOrSymbol)) {
    head = second;
  }
  if (head != kNoMatch) {
    size_t end = RunEnd(text, head, [](uint8_t f) { return (f & kPunctuationOrSymbol) != 0; });
    while (end < text.size() && scanning::IsNewline(static_cast<uint8_t>(text[end]))) ++end;
    return end;
  }
  if (!(first.flags & kFlagSpace)) return kNoMatch;
  // \s*[\r\n]+ ends at the run's last line break; otherwise \s+(?!\S)|\s+.
  const scanning::WhitespaceRun run = scanning::ScanWhitespace(text, pos);
  if (run.after_last_newline != 0) return run.after_last_newline;
  return scanning::WhitespacePiece(text, pos, run);
}

}  // namespace

bool FindDeepSeekDigits(std::string_view text, size_t from, size_t* match_start, size_t* match_end) noexcept {
  for (size_t pos = from; pos < text.size();) {
    const Char c = CharAt(text, pos);
    if (c.flags & kFlagNumber) {
      *match_start = pos;
      *match_end = scanning::NumbersUpToThree(text, pos);
      return true;
    }
    pos += c.length;
  }
  return false;
}

bool FindDeepSeekCjk(std::string_view text, size_t from, size_t* match_start, size_t* match_end) noexcept {
  for (size_t pos = from; pos < text.size();) {
    // Every character of the class is three bytes long and starts with E3..E9.
    const auto byte = static_cast<uint8_t>(text[pos]);
    if (byte < 0xE3 || byte > 0xE9) {
      ++pos;
      continue;
    }
    const DecodedCodePoint d = DecodeUtf8At(text, pos);
    if (!IsKanjiOrKana(d.code_point)) {
      pos += d.length;
      continue;
    }
    size_t end = pos + d.length;
    while (end < text.size()) {
      const DecodedCodePoint next = DecodeUtf8At(text, end);
      if (!IsKanjiOrKana(next.code_point)) break;
      end += next.length;
    }
    *match_start = pos;
    *match_end = end;
    return true;
  }
  return false;
}

bool FindDeepSeekWords(std::string_view text, size_t from, size_t* match_start, size_t* match_end) noexcept {
  for (size_t pos = from; pos < text.size();) {
    const size_t end = DeepSeekWordAt(text, pos);
    if (end != kNoMatch) {
      *match_start = pos;
      *match_end = end;
      return true;
    }
    pos += CharAt(text, pos).length;
  }
  return false;
}

}  // namespace embedlab
