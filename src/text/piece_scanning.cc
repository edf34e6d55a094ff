#include "text/piece_scanning.h"

namespace embedlab {
namespace scanning {
namespace {

constexpr uint8_t AsciiFlags(int c) {
  if (c == ' ' || (c >= '\t' && c <= '\r')) return kFlagSpace;
  if (c >= '0' && c <= '9') return kFlagNumber;
  if (c >= 'A' && c <= 'Z') return kFlagLetter | kFlagUpperish;
  if (c >= 'a' && c <= 'z') return kFlagLetter | kFlagLowerish;
  // ASCII symbols (Sm, Sc, Sk): $ + < = > ^ ` | ~; the rest of the printable ASCII is punctuation.
  if (c == '$' || c == '+' || c == '<' || c == '=' || c == '>' || c == '^' || c == '`' || c == '|' || c == '~') {
    return kFlagSymbol;
  }
  if (c > ' ' && c < 0x7F) return kFlagPunctuation;
  return 0;
}

// Lower-cases ASCII letters; maps U+017F (long s, encoded C5 BF) to 's', as simple case folding does.
// Returns the folded letter and advances *pos, or returns 0 when there is no letter at *pos.
char FoldedLetterAt(std::string_view text, size_t* pos, bool ignore_case) {
  if (*pos >= text.size()) return 0;
  const char c = text[*pos];
  if (!ignore_case) {
    ++*pos;
    return c;
  }
  if (c >= 'A' && c <= 'Z') {
    ++*pos;
    return static_cast<char>(c - 'A' + 'a');
  }
  if (c == '\xC5' && *pos + 1 < text.size() && text[*pos + 1] == '\xBF') {
    *pos += 2;
    return 's';
  }
  ++*pos;
  return c;
}

}  // namespace

#define EMBEDLAB_ASCII_ROW(r)                                                                                       \
  AsciiFlags(r + 0), AsciiFlags(r + 1), AsciiFlags(r + 2), AsciiFlags(r + 3), AsciiFlags(r + 4), AsciiFlags(r + 5), \
      AsciiFlags(r + 6), AsciiFlags(r + 7)
const uint8_t kAsciiFlags[128] = {
    EMBEDLAB_ASCII_ROW(0),  EMBEDLAB_ASCII_ROW(8),   EMBEDLAB_ASCII_ROW(16),  EMBEDLAB_ASCII_ROW(24),
    EMBEDLAB_ASCII_ROW(32), EMBEDLAB_ASCII_ROW(40),  EMBEDLAB_ASCII_ROW(48),  EMBEDLAB_ASCII_ROW(56),
    EMBEDLAB_ASCII_ROW(64), EMBEDLAB_ASCII_ROW(72),  EMBEDLAB_ASCII_ROW(80),  EMBEDLAB_ASCII_ROW(88),
    EMBEDLAB_ASCII_ROW(96), EMBEDLAB_ASCII_ROW(104), EMBEDLAB_ASCII_ROW(112), EMBEDLAB_ASCII_ROW(120),
};
#undef EMBEDLAB_ASCII_ROW

size_t ContractionLength(std::string_view text, size_t pos, bool ignore_case) noexcept {
  size_t p = pos + 1;
  const char first = FoldedLetterAt(text, &p, ignore_case);
  if (first == 's' || first == 't' || first == 'm' || first == 'd') return p - pos;
  if (first != 'r' && first != 'v' && first != 'l') return 0;
  const char second = FoldedLetterAt(text, &p, ignore_case);
  if ((first == 'r' || first == 'v') && second == 'e') return p - pos;
  if (first == 'l' && second == 'l') return p - pos;
  return 0;
}

WhitespaceRun ScanWhitespace(std::string_view text, size_t pos) noexcept {
  WhitespaceRun run{pos, pos, 0};
  while (run.end < text.size()) {
    const Char c = CharAt(text, run.end);
    if (!(c.flags & kFlagSpace)) break;
    run.last_start = run.end;
    run.end += c.length;
    if (IsNewline(c.code_point)) run.after_last_newline = run.end;
  }
  return run;
}

}  // namespace scanning
}  // namespace embedlab
