#include <catch2/catch.hpp>
#include <string>

#include "text/unicode_class.h"
#include "text/utf8.h"
#include "text/utf8_stream.h"

using embedlab::AppendUtf8;
using embedlab::CharClass;
using embedlab::ClassOf;
using embedlab::DecodeUtf8At;
using embedlab::IsValidUtf8;
using embedlab::kInvalidByteBase;

TEST_CASE("UTF-8: well-formed sequences decode to their code points", "[tokenizer]") {
  const std::string text = "a\xC3\xA9\xE4\xB8\xAD\xF0\x9F\x98\x80";  // a é 中 😀
  REQUIRE(DecodeUtf8At(text, 0).code_point == 'a');
  REQUIRE(DecodeUtf8At(text, 1).code_point == 0xE9);
  REQUIRE(DecodeUtf8At(text, 1).length == 2);
  REQUIRE(DecodeUtf8At(text, 3).code_point == 0x4E2D);
  REQUIRE(DecodeUtf8At(text, 6).code_point == 0x1F600);
  REQUIRE(DecodeUtf8At(text, 6).length == 4);
  REQUIRE(IsValidUtf8(text));
}

TEST_CASE("UTF-8: each byte of a malformed sequence stands alone", "[tokenizer]") {
  // Overlong, surrogate, above U+10FFFF, truncated, stray continuation, 0xFF.
  for (const std::string bad : {"\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xE4\xB8", "\x80", "\xFF"}) {
    INFO("bytes " << bad.size());
    REQUIRE_FALSE(IsValidUtf8(bad));
    const auto d = DecodeUtf8At(bad, 0);
    REQUIRE(d.length == 1);
    REQUIRE(d.code_point == kInvalidByteBase + static_cast<uint8_t>(bad[0]));
    REQUIRE(ClassOf(d.code_point) == CharClass::kOther);
  }
}

TEST_CASE("UTF-8: AppendUtf8 round-trips scalar values and replaces surrogates", "[tokenizer]") {
  for (uint32_t cp : {0x0u, 0x7Fu, 0x80u, 0x7FFu, 0x800u, 0xFFFFu, 0x10000u, 0x10FFFFu}) {
    std::string s;
    AppendUtf8(cp, &s);
    REQUIRE(DecodeUtf8At(s, 0).code_point == cp);
    REQUIRE(DecodeUtf8At(s, 0).length == s.size());
  }
  std::string lone;
  AppendUtf8(0xD800, &lone);
  REQUIRE(lone == "\xEF\xBF\xBD");
}

TEST_CASE("UTF-8 stream: incomplete characters are held back until complete", "[tokenizer]") {
  embedlab::Utf8Stream stream;
  // 😀 is F0 9F 98 80, split across three pushes.
  REQUIRE(stream.Push("a\xF0") == "a");
  REQUIRE(stream.Push("\x9F\x98") == "");
  REQUIRE(stream.pending_bytes() == 3);
  REQUIRE(stream.Push("\x80"
                      "b") ==
          "\xF0\x9F\x98\x80"
          "b");
  // Bytes that can never be valid pass through: a stray continuation, an overlong lead, a surrogate prefix.
  REQUIRE(stream.Push("\x80") == "\x80");
  REQUIRE(stream.Push("\xC0") == "\xC0");
  REQUIRE(stream.Push("\xED\xA0") == "\xED\xA0");
  // An unfinished sequence comes out at the end.
  REQUIRE(stream.Push("\xE4\xB8") == "");
  REQUIRE(stream.Finish() == "\xE4\xB8");
  REQUIRE(stream.pending_bytes() == 0);
}

TEST_CASE("UTF-8: IsAscii finds one high byte at any position of any length", "[tokenizer]") {
  for (size_t size = 0; size <= 40; ++size) {
    const std::string ascii(size, '\x7f');
    REQUIRE(embedlab::IsAscii(ascii));
    for (size_t at = 0; at < size; ++at) {
      std::string high = ascii;
      high[at] = static_cast<char>(0x80);
      CAPTURE(size, at);
      REQUIRE_FALSE(embedlab::IsAscii(high));
    }
  }
}
