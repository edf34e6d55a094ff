// Spot checks of the generated table against Unicode 16.0 (UnicodeData.txt, PropList.txt); the table as a
// whole is checked against its generator by `node scripts/generate-unicode-table.mjs --check`.
#include <catch2/catch.hpp>

#include "text/piece_scanning.h"
#include "text/unicode_class.h"

using embedlab::CharClass;
using embedlab::ClassOf;

TEST_CASE("Unicode classes: spot checks against Unicode 16.0", "[tokenizer]") {
  REQUIRE(ClassOf(' ') == CharClass::kWhiteSpace);
  REQUIRE(ClassOf(0x85) == CharClass::kWhiteSpace);    // NEL is White_Space (JS \s says no)
  REQUIRE(ClassOf(0xFEFF) == CharClass::kOther);       // BOM is not (JS \s says yes)
  REQUIRE(ClassOf(0x1C) == CharClass::kOther);         // file separator: not White_Space
  REQUIRE(ClassOf(0x180E) == CharClass::kOther);       // Mongolian vowel separator left Zs in 6.3
  REQUIRE(ClassOf(0x3000) == CharClass::kWhiteSpace);  // ideographic space
  REQUIRE(ClassOf(0x2029) == CharClass::kWhiteSpace);
  REQUIRE(ClassOf('A') == CharClass::kUppercaseLetter);
  REQUIRE(ClassOf('z') == CharClass::kLowercaseLetter);
  REQUIRE(ClassOf(0x01C5) == CharClass::kTitlecaseLetter);   // ǅ
  REQUIRE(ClassOf(0x02B0) == CharClass::kModifierLetter);    // ʰ
  REQUIRE(ClassOf(0x4E2D) == CharClass::kOtherLetter);       // 中
  REQUIRE(ClassOf(0x0301) == CharClass::kMark);              // combining acute (Mn)
  REQUIRE(ClassOf(0x0903) == CharClass::kMark);              // Devanagari visarga (Mc)
  REQUIRE(ClassOf(0x20DD) == CharClass::kMark);              // enclosing circle (Me)
  REQUIRE(ClassOf(0x00BD) == CharClass::kNumber);            // ½ (No)
  REQUIRE(ClassOf(0x216B) == CharClass::kNumber);            // Ⅻ (Nl)
  REQUIRE(ClassOf(0x0663) == CharClass::kNumber);            // Arabic-Indic three (Nd)
  REQUIRE(ClassOf(0x1F600) == CharClass::kSymbol);           // 😀 (So)
  REQUIRE(ClassOf(0x10FFFF) == CharClass::kOther);           // noncharacter
  REQUIRE(ClassOf(0x1E030) == CharClass::kModifierLetter);   // Cyrillic modifier letter, new in 15.0
  REQUIRE(ClassOf(0x10D50) == CharClass::kUppercaseLetter);  // Garay capital letter A, new in 16.0
  REQUIRE(ClassOf(0x10D70) == CharClass::kLowercaseLetter);  // Garay small letter A, new in 16.0
}

TEST_CASE("Unicode classes: the ASCII fast path agrees with the table", "[tokenizer]") {
  for (uint32_t c = 0; c < 128; ++c) {
    INFO("code point " << c);
    REQUIRE(embedlab::scanning::kAsciiFlags[c] == embedlab::FlagsOf(c));
  }
}
