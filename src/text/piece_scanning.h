// Building blocks shared by the hand-written pre-tokenizer scanners. Each helper mirrors one piece of
// regex syntax in tiktoken's patterns; the comments name the piece.
#ifndef EMBEDLAB_TEXT_PIECE_SCANNING_H_
#define EMBEDLAB_TEXT_PIECE_SCANNING_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "text/unicode_class.h"
#include "text/utf8.h"

namespace embedlab {
namespace scanning {

struct Char {
  uint32_t code_point;
  uint32_t length;
  uint8_t flags;
};

extern const uint8_t kAsciiFlags[128];

// The character at pos (pos < text.size()); ASCII skips the decoder and the two-level table.
inline Char CharAt(std::string_view text, size_t pos) {
  const auto byte = static_cast<uint8_t>(text[pos]);
  if (byte < 0x80) return {byte, 1, kAsciiFlags[byte]};
  const DecodedCodePoint d = DecodeUtf8At(text, pos);
  return {d.code_point, d.length, FlagsOf(d.code_point)};
}

// [^\s\p{L}\p{N}]
inline bool IsOther(uint8_t flags) { return (flags & (kFlagLetter | kFlagNumber | kFlagSpace)) == 0; }
inline bool IsNewline(uint32_t code_point) { return code_point == '\r' || code_point == '\n'; }

// End of the run of characters, starting at pos, whose flags satisfy pred.
template <typename Pred>
inline size_t RunEnd(std::string_view text, size_t pos, Pred pred) {
  while (pos < text.size()) {
    const Char c = CharAt(text, pos);
    if (!pred(c.flags)) break;
    pos += c.length;
  }
  return pos;
}

// \p{N}{1,3}
inline size_t NumbersUpToThree(std::string_view text, size_t pos) {
  for (int count = 0; count < 3 && pos < text.size(); ++count) {
    const Char c = CharAt(text, pos);
    if (!(c.flags & kFlagNumber)) break;
    pos += c.length;
  }
  return pos;
}

// Contractions at pos, which holds an apostrophe: 's 't 're 've 'm 'll 'd. Returns the match length or 0.
// With ignore_case, (?i) as Rust's regex applies it (simple case folding): s also matches U+017F (long s).
size_t ContractionLength(std::string_view text, size_t pos, bool ignore_case) noexcept;

// A run of \s starting at pos, with what the whitespace alternatives need to know about it.
struct WhitespaceRun {
  size_t end;                 // end of the run
  size_t last_start;          // start of its last character
  size_t after_last_newline;  // end of its last \r or \n, or 0 when it has none
};
WhitespaceRun ScanWhitespace(std::string_view text, size_t pos) noexcept;

// \s+(?!\S)|\s+ for a run that starts at pos: the run up to the end of text, else the run without its last
// character (which the next piece takes as its leading space), else the single character.
inline size_t WhitespacePiece(std::string_view text, size_t pos, const WhitespaceRun& run) {
  if (run.end == text.size()) return run.end;
  if (run.last_start > pos) return run.last_start;
  return run.end;
}

}  // namespace scanning
}  // namespace embedlab

#endif  // EMBEDLAB_TEXT_PIECE_SCANNING_H_
