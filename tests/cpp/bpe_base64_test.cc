// Base64 as .tiktoken files use it: RFC 4648's test vectors, every byte value, and malformed input.
#include <catch2/catch.hpp>
#include <string>

#include "bpe/base64.h"
#include "random/prng.h"

namespace {

std::string Decoded(std::string_view text) {
  std::string out = "stale";
  REQUIRE(embedlab::DecodeBase64(text, &out));
  return out;
}

}  // namespace

TEST_CASE("Base64: RFC 4648 test vectors both ways", "[tokenizer]") {
  const std::pair<std::string, std::string> vectors[] = {{"", ""},
                                                         {"f", "Zg=="},
                                                         {"fo", "Zm8="},
                                                         {"foo", "Zm9v"},
                                                         {"foob", "Zm9vYg=="},
                                                         {"fooba", "Zm9vYmE="},
                                                         {"foobar", "Zm9vYmFy"}};
  for (const auto& [bytes, text] : vectors) {
    CAPTURE(bytes);
    REQUIRE(embedlab::EncodeBase64(bytes) == text);
    REQUIRE(Decoded(text) == bytes);
  }
  REQUIRE(Decoded("+/8=") == "\xfb\xff");  // the last two letters of the alphabet
}

TEST_CASE("Base64: random bytes of every length up to 64 round-trip", "[tokenizer]") {
  embedlab::Prng prng(9);
  for (size_t size = 0; size <= 64; ++size) {
    std::string bytes(size, '\0');
    for (char& b : bytes) b = static_cast<char>(prng.NextU32() & 0xFF);
    REQUIRE(Decoded(embedlab::EncodeBase64(bytes)) == bytes);
  }
}

TEST_CASE("Base64: malformed input is refused and leaves the output empty", "[tokenizer]") {
  for (const char* bad : {"Zg=", "Zm9", "Z===", "====", "Zm=v", "Zm9v!A==", "Zm9v Yg==", "Zg==Zg==", "\xc3\xa9xx"}) {
    CAPTURE(bad);
    std::string out = "stale";
    REQUIRE_FALSE(embedlab::DecodeBase64(bad, &out));
    REQUIRE(out.empty());
  }
}
