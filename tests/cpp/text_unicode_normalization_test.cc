// NFC on cases worked out from UAX #15 and the Unicode data; the comparison with node's normalize on every code
// point and random strings is tests/node/unicode_nfc.test.mjs.
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

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
  REQUIRE(std::string(embedlab::NormalizationUnicodeVersion()) == "15.0.0");
}
