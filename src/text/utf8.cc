#include "text/utf8.h"

#include <cstring>

namespace embedlab {

bool IsValidUtf8(std::string_view text) {
  for (size_t pos = 0; pos < text.size();) {
    const DecodedCodePoint d = DecodeUtf8At(text, pos);
    if (d.code_point >= kInvalidByteBase) return false;
    pos += d.length;
  }
  return true;
}

bool IsAscii(std::string_view text) {
  // Eight bytes per step, fixed-size loads (a variable memcpy is a library call in wasm).
  uint64_t high_bits = 0;
  size_t pos = 0;
  for (; pos + 8 <= text.size(); pos += 8) {
    uint64_t word;
    std::memcpy(&word, text.data() + pos, 8);
    high_bits |= word;
  }
  for (; pos < text.size(); ++pos) high_bits |= static_cast<uint8_t>(text[pos]);
  return (high_bits & 0x8080808080808080ull) == 0;
}

void AppendUtf8(uint32_t code_point, std::string* out) {
  if ((code_point >= 0xD800 && code_point <= 0xDFFF) || code_point > 0x10FFFF) code_point = 0xFFFD;
  if (code_point < 0x80) {
    out->push_back(static_cast<char>(code_point));
  } else if (code_point < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (code_point >> 6)));
    out->push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
  } else if (code_point < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (code_point >> 12)));
    out->push_back(static_cast<char>(0x80 | ((code_point >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (code_point >> 18)));
    out->push_back(static_cast<char>(0x80 | ((code_point >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((code_point >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
  }
}

}  // namespace embedlab
