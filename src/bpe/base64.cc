#include "bpe/base64.h"

#include <array>
#include <cstdint>

namespace embedlab {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// Sextet of each byte, -1 for bytes outside the alphabet ('=' included).
constexpr std::array<int8_t, 256> kSextets = [] {
  std::array<int8_t, 256> table{};
  for (int8_t& sextet : table) sextet = -1;
  for (int i = 0; i < 64; ++i) table[static_cast<uint8_t>(kAlphabet[i])] = static_cast<int8_t>(i);
  return table;
}();

}  // namespace

bool DecodeBase64(std::string_view text, std::string* out) {
  out->clear();
  if (text.size() % 4 != 0) return false;
  size_t padding = 0;
  if (!text.empty() && text.back() == '=') padding = (text[text.size() - 2] == '=') ? 2 : 1;
  out->resize(text.size() / 4 * 3 - padding);
  const auto* in = reinterpret_cast<const uint8_t*>(text.data());
  auto* bytes = reinterpret_cast<uint8_t*>(out->data());
  // Four characters make three bytes; the last group may end in padding.
  for (size_t group = 0; 4 * group < text.size(); ++group) {
    const uint8_t* c = in + 4 * group;
    const size_t used = 4 * (group + 1) == text.size() ? 4 - padding : 4;
    int32_t v = 0;
    int32_t invalid = 0;
    for (size_t k = 0; k < 4; ++k) {
      const int32_t sextet = k < used ? kSextets[c[k]] : 0;
      invalid |= sextet;
      v = (v << 6) | (sextet & 63);
    }
    if (invalid < 0) {
      out->clear();
      return false;
    }
    uint8_t* at = bytes + 3 * group;
    at[0] = static_cast<uint8_t>(v >> 16);
    if (used >= 3) at[1] = static_cast<uint8_t>(v >> 8);
    if (used == 4) at[2] = static_cast<uint8_t>(v);
  }
  return true;
}

std::string EncodeBase64(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t v = (static_cast<uint8_t>(bytes[i]) << 16) | (static_cast<uint8_t>(bytes[i + 1]) << 8) |
                       static_cast<uint8_t>(bytes[i + 2]);
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  if (i + 1 == bytes.size()) {
    const uint32_t v = static_cast<uint8_t>(bytes[i]) << 16;
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += "==";
  } else if (i + 2 == bytes.size()) {
    const uint32_t v = (static_cast<uint8_t>(bytes[i]) << 16) | (static_cast<uint8_t>(bytes[i + 1]) << 8);
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += '=';
  }
  return out;
}

}  // namespace embedlab
