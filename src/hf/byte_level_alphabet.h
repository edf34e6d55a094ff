// GPT-2's byte -> character mapping (bytes_to_unicode): byte-level vocabularies write each byte as one printable
// character (the space 0x20 as "Ġ" U+0120, the newline as "Ċ" U+010A), so that a token is a string.
#ifndef EMBEDLAB_HF_BYTE_LEVEL_ALPHABET_H_
#define EMBEDLAB_HF_BYTE_LEVEL_ALPHABET_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace embedlab {

// The code point that stands for byte b.
uint32_t ByteLevelCodePoint(uint8_t byte);
// The byte that code point stands for, or -1 when it is not one of the 256 characters.
int ByteLevelByte(uint32_t code_point);
// Appends the byte-level string of raw bytes (each byte as its character, UTF-8 encoded).
void AppendByteLevelString(std::string_view bytes, std::string* out);
// The raw bytes of a byte-level string; false (out unspecified) when a character is not in the alphabet.
bool ByteLevelBytes(std::string_view text, std::string* out);

}  // namespace embedlab

#endif  // EMBEDLAB_HF_BYTE_LEVEL_ALPHABET_H_
