#include "hf/byte_level_alphabet.h"

#include <array>

#include "text/utf8.h"

namespace embedlab {
namespace {

// Printable bytes ('!'..'~', '¡'..'¬', '®'..'ÿ') stand for themselves; the other 68 take U+0100 onwards in order.
struct Alphabet {
  std::array<uint32_t, 256> code_points{};
  std::array<int16_t, 0x144> bytes{};
  Alphabet() {
    bytes.fill(-1);
    uint32_t next = 256;
    for (uint32_t b = 0; b < 256; ++b) {
      const bool printable = (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
      code_points[b] = printable ? b : next++;
      bytes[code_points[b]] = static_cast<int16_t>(b);
    }
  }
};

const Alphabet& TheAlphabet() {
  static const Alphabet alphabet;
  return alphabet;
}

}  // namespace

uint32_t ByteLevelCodePoint(uint8_t byte) { return TheAlphabet().code_points[byte]; }

int ByteLevelByte(uint32_t code_point) {
  return code_point < TheAlphabet().bytes.size() ? TheAlphabet().bytes[code_point] : -1;
}

void AppendByteLevelString(std::string_view bytes, std::string* out) {
  const Alphabet& alphabet = TheAlphabet();
  for (char c : bytes) AppendUtf8(alphabet.code_points[static_cast<uint8_t>(c)], out);
}

bool ByteLevelBytes(std::string_view text, std::string* out) {
  out->clear();
  for (size_t pos = 0; pos < text.size();) {
    const DecodedCodePoint d = DecodeUtf8At(text, pos);
    const int byte = ByteLevelByte(d.code_point);
    if (byte < 0) return false;
    *out += static_cast<char>(byte);
    pos += d.length;
  }
  return true;
}

}  // namespace embedlab
