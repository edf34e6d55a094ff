// tokenizer.json and the binary form under hostile input: each bad file is a std::invalid_argument naming what and
// where, in bounded time; the binary form round-trips.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "hf_test_files.h"

using embedlab::HfTokenizer;
using hf_test::Parts;

namespace {

std::string LoadError(const std::string& json) {
  try {
    HfTokenizer::FromJson(json, "", "t");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

// The binary form's body (all but the 8-byte checksum) with the checksum it should have: FNV-1a 64, little-endian.
std::string WithChecksum(const std::string& data) {
  const std::string body = data.substr(0, data.size() - 8);
  uint64_t hash = 0xCBF29CE484222325ull;
  for (char c : body) hash = (hash ^ static_cast<uint8_t>(c)) * 0x100000001B3ull;
  std::string out = body;
  for (int i = 0; i < 8; ++i) out += static_cast<char>((hash >> (8 * i)) & 0xFF);
  return out;
}

Parts SmallParts() {
  Parts parts;
  parts.vocab = {"a", "b", "ab", "\xE2\x96\x81"};
  parts.merges = {{"a", "b"}};
  parts.added_tokens = R"([{"id":4,"content":"<s>","special":true,"normalized":false}])";
  parts.normalizer = R"({"type":"Replace","pattern":{"String":" "},"content":"▁"})";
  parts.decoder = R"({"type":"Sequence","decoders":[{"type":"Replace","pattern":{"String":"▁"},"content":" "}]})";
  return parts;
}

}  // namespace

TEST_CASE("hf tokenizer.json with bad ids is refused naming the entry") {
  const std::string good = hf_test::Json(SmallParts());
  auto with = [&](const std::string& from, const std::string& to) {
    std::string json = good;
    json.replace(json.find(from), from.size(), to);
    return LoadError(json);
  };
  CHECK_THAT(with("\"b\":1", "\"b\":-1"), Catch::Contains("model.vocab.b") && Catch::Contains("-1 is out of range"));
  CHECK_THAT(with("\"b\":1", "\"b\":2147483648"), Catch::Contains("out of range"));
  CHECK_THAT(with("\"b\":1", "\"b\":4194304"), Catch::Contains("allowed: 0 to 4194303"));
  CHECK_THAT(with("\"b\":1", "\"b\":0"), Catch::Contains("the id 0 is given to two tokens"));
  CHECK_THAT(with("\"b\":1", "\"a\":1"), Catch::Contains("the token \"a\" appears twice"));
  CHECK_THAT(with("\"BPE\"", "\"Unigram\""), Catch::Contains("\"Unigram\" is not supported"));
  CHECK_THAT(with("\"truncation\":null", "\"truncation\":{}"), Catch::Contains("truncation is not supported"));
  CHECK_THAT(
      with("\"normalizer\":{", "\"normalizer\":" + std::string(10000, '[') + std::string(10000, ']') + ",\"x\":{"),
      Catch::Contains("nesting deeper"));
}

TEST_CASE("hf tokenizer.json cut short anywhere is refused, never a crash") {
  const std::string good = hf_test::Json(SmallParts());
  REQUIRE(LoadError(good).empty());
  for (size_t length = 0; length < good.size(); ++length) {
    INFO(good.substr(0, length));
    CHECK_FALSE(LoadError(good.substr(0, length)).empty());
  }
  CHECK_THAT(LoadError(std::string(100 << 20, ' ')), Catch::Contains("truncated"));
}

TEST_CASE("hf binary form round-trips and refuses truncated or inconsistent data") {
  const HfTokenizer tokenizer = hf_test::Load(SmallParts());
  const std::string binary = tokenizer.ToBinary();
  CHECK(HfTokenizer::IsBinary(binary));
  CHECK_FALSE(HfTokenizer::IsBinary(hf_test::Json(SmallParts())));
  const HfTokenizer copy = HfTokenizer::FromBinary(binary);
  for (const std::string text : {"ab ba<s>a", "", "  b", "<s>"}) {
    CHECK(hf_test::Ids(copy, text) == hf_test::Ids(tokenizer, text));
    const auto ids = hf_test::Ids(copy, text);
    CHECK(hf_test::Decode(copy, ids) == hf_test::Decode(tokenizer, ids));
  }
  CHECK(copy.ToBinary() == binary);
  CHECK(copy.vocab_size() == 5);
  for (size_t length = 0; length < binary.size(); ++length) {
    CHECK_THROWS_AS(HfTokenizer::FromBinary(binary.substr(0, length)), std::invalid_argument);
  }
  CHECK_THROWS_WITH(HfTokenizer::FromBinary(binary + "x"), Catch::Contains("checksum does not match"));
  std::string bad = binary;
  // Magic, name "test", four flags, unk id, token count: then the first token's id (of "a"), which becomes 9, so
  // the merge a+b names an id that is no token. The checksum refuses it; with the checksum made to match, the
  // reader's own checks do.
  bad[8 + (4 + 4) + 4 + 4 + 4] = 9;
  CHECK_THROWS_WITH(HfTokenizer::FromBinary(bad), Catch::Contains("checksum does not match"));
  CHECK_THROWS_WITH(HfTokenizer::FromBinary(WithChecksum(bad)), Catch::Contains("merge 0 is inconsistent"));
  CHECK_THROWS_WITH(
      HfTokenizer::FromBinary(WithChecksum(binary.substr(0, binary.size() - 8) + "x" + std::string(8, '\0'))),
      Catch::Contains("after the end"));
  // Every single byte changed anywhere: refused, never a crash.
  for (size_t at = 0; at < binary.size(); ++at) {
    std::string changed = binary;
    changed[at] = static_cast<char>(changed[at] ^ 0x5A);
    CHECK_THROWS_AS(HfTokenizer::FromBinary(changed), std::invalid_argument);
  }
}
