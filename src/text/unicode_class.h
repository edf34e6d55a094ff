// Character classes of Unicode 16.0 as the pre-tokenizer patterns see them (\s, \p{L} split into its five
// categories, \p{M}, \p{N}, \p{P}, \p{S}). The table is generated: see scripts/generate-unicode-table.mjs.
#ifndef EMBEDLAB_TEXT_UNICODE_CLASS_H_
#define EMBEDLAB_TEXT_UNICODE_CLASS_H_

#include <cstdint>

namespace embedlab {

// Values are fixed by the generated table. The classes are disjoint: White_Space holds only separators and
// controls, never a letter, mark or number.
enum class CharClass : uint8_t {
  kOther = 0,       // Everything else (Cc, Cf, Zs outside White_Space, unassigned, invalid UTF-8 bytes...).
  kWhiteSpace = 1,  // The White_Space property: includes U+0085, excludes U+FEFF.
  kNumber = 2,      // Nd, Nl, No.
  kMark = 3,        // Mn, Mc, Me.
  kUppercaseLetter = 4,
  kLowercaseLetter = 5,
  kTitlecaseLetter = 6,
  kModifierLetter = 7,
  kOtherLetter = 8,
  kPunctuation = 9,  // Pc, Pd, Ps, Pe, Pi, Pf, Po.
  kSymbol = 10,      // Sm, Sc, Sk, So.
};

// Flags that the scanners test; one lookup answers every class question about a character.
enum CharFlag : uint8_t {
  kFlagLetter = 1,     // \p{L}
  kFlagNumber = 2,     // \p{N}
  kFlagSpace = 4,      // \s
  kFlagUpperish = 8,   // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}] of the o200k pattern
  kFlagLowerish = 16,  // [\p{Ll}\p{Lm}\p{Lo}\p{M}] of the o200k pattern
  kFlagMark = 32,      // \p{M}
  kFlagPunctuation = 64,
  kFlagSymbol = 128,
};

constexpr int kUnicodeBlockShift = 7;
extern const uint16_t kUnicodeBlockIndex[];
extern const uint8_t kUnicodeBlockClasses[];
extern const uint8_t kCharClassFlags[11];

// Code points above U+10FFFF (the decoder's stand-ins for invalid bytes) are kOther.
inline CharClass ClassOf(uint32_t code_point) {
  if (code_point > 0x10FFFF) return CharClass::kOther;
  const uint32_t block = kUnicodeBlockIndex[code_point >> kUnicodeBlockShift];
  const uint32_t offset = code_point & ((1u << kUnicodeBlockShift) - 1);
  return static_cast<CharClass>(kUnicodeBlockClasses[(block << kUnicodeBlockShift) | offset]);
}

inline uint8_t FlagsOf(uint32_t code_point) { return kCharClassFlags[static_cast<int>(ClassOf(code_point))]; }

}  // namespace embedlab

#endif  // EMBEDLAB_TEXT_UNICODE_CLASS_H_
