// UTF-8 decoding that never fails: each byte that does not start a well-formed sequence (RFC 3629: no
// overlongs, no surrogates, nothing above U+10FFFF) decodes alone to a stand-in code point above U+10FFFF.
// The pre-tokenizers then treat it as an "other" character, so arbitrary bytes tokenize and round-trip.
#ifndef EMBEDLAB_TEXT_UTF8_H_
#define EMBEDLAB_TEXT_UTF8_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace embedlab {

// Stand-in for invalid byte b: kInvalidByteBase + b.
constexpr uint32_t kInvalidByteBase = 0x110000;

struct DecodedCodePoint {
  uint32_t code_point;
  uint32_t length;  // bytes consumed, 1..4
};

// Decodes the character at text[pos]; requires pos < text.size().
inline DecodedCodePoint DecodeUtf8At(std::string_view text, size_t pos) {
  const auto* p = reinterpret_cast<const uint8_t*>(text.data()) + pos;
  const size_t left = text.size() - pos;
  const uint32_t b0 = p[0];
  if (b0 < 0x80) return {b0, 1};
  const DecodedCodePoint invalid{kInvalidByteBase + b0, 1};
  auto continuation = [&](size_t i) { return i < left && (p[i] & 0xC0) == 0x80; };
  if (b0 < 0xC2) return invalid;  // continuation byte or overlong 2-byte lead
  if (b0 < 0xE0) {
    if (!continuation(1)) return invalid;
    return {((b0 & 0x1F) << 6) | (p[1] & 0x3F), 2};
  }
  if (b0 < 0xF0) {
    if (!continuation(1) || !continuation(2)) return invalid;
    const uint32_t cp = ((b0 & 0x0F) << 12) | ((p[1] & 0x3Fu) << 6) | (p[2] & 0x3F);
    if (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF)) return invalid;
    return {cp, 3};
  }
  if (b0 < 0xF5) {
    if (!continuation(1) || !continuation(2) || !continuation(3)) return invalid;
    const uint32_t cp = ((b0 & 0x07) << 18) | ((p[1] & 0x3Fu) << 12) | ((p[2] & 0x3Fu) << 6) | (p[3] & 0x3F);
    if (cp < 0x10000 || cp > 0x10FFFF) return invalid;
    return {cp, 4};
  }
  return invalid;
}

// True when every byte belongs to a well-formed sequence.
bool IsValidUtf8(std::string_view text);

// True when every byte is below 0x80 (then Latin-1 and UTF-8 decode the bytes to the same string).
bool IsAscii(std::string_view text);

// Appends the UTF-8 encoding of a scalar value (U+D800..U+DFFF and values above U+10FFFF become U+FFFD,
// as a JS string's lone surrogates do when encoded).
void AppendUtf8(uint32_t code_point, std::string* out);

}  // namespace embedlab

#endif  // EMBEDLAB_TEXT_UTF8_H_
