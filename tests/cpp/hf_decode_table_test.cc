// Decoding through the per-id table (src/hf/decode_table.h) against Decoder::Decode over the token strings, the
// step-by-step chain it replaces, on random ids for every decoder chain the table runs (and two it leaves to the
// chain); and the one-pass clean-up against transformers' ten replace-alls in turn on random texts.
#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

#include "hf/decoder.h"
#include "hf_test_files.h"

using hf_test::Parts;

namespace {

// <0xNN> tokens that make valid and invalid runs (é = C3 A9, ▁ = E2 96 81), ▁ words, byte-level characters, a
// special and a non-special added token.
Parts ChainParts(const std::string& decoder) {
  Parts parts;
  parts.vocab = {"<unk>",
                 "<0xC3>",
                 "<0xA9>",
                 "<0xE2>",
                 "<0x96>",
                 "<0x81>",
                 "<0x41>",
                 "<0xFF>",
                 "\xE2\x96\x81",
                 "a",
                 "\xE2\x96\x81"
                 "a",
                 "b",
                 " ",
                 "\xC4\xA0",
                 "\xC4\xA0"
                 "b",
                 "\xC3\xA9",
                 "\xC4\xAE"};
  parts.model_options = "\"unk_token\": \"<unk>\", \"byte_fallback\": true";
  parts.added_tokens =
      "[{\"id\":17,\"content\":\"<s>\",\"single_word\":false,\"lstrip\":false,\"rstrip\":false,\"normalized\":false,"
      "\"special\":true},{\"id\":18,\"content\":\"<x>\",\"single_word\":false,\"lstrip\":false,\"rstrip\":false,"
      "\"normalized\":false,\"special\":false}]";
  parts.decoder = decoder;
  return parts;
}

std::string ReferenceDecode(const embedlab::HfTokenizer& tokenizer, const std::string& decoder_json,
                            const std::vector<uint32_t>& ids, bool skip_special) {
  const std::optional<embedlab::JsonValue> json = embedlab::ParseJson(decoder_json);
  const embedlab::Decoder decoder = embedlab::Decoder::FromJson(*json, "decoder");
  std::vector<std::string> tokens;
  for (uint32_t id : ids) {
    if (skip_special && id == 17) continue;
    tokens.push_back(tokenizer.TokenString(id));
  }
  return decoder.Decode(tokens);
}

}  // namespace

TEST_CASE("hf decode table: every chain decodes as the step-by-step chain does", "[hf]") {
  const std::string replace = R"({"type":"Replace","pattern":{"String":"▁"},"content":" "})";
  const std::vector<std::string> chains = {
      // Llama 2, Gemma 3, Llama 3 (ByteLevel) and variations, then two the table leaves to the chain.
      "{\"type\":\"Sequence\",\"decoders\":[" + replace +
          R"(,{"type":"ByteFallback"},{"type":"Fuse"},{"type":"Strip","content":" ","start":1,"stop":1}]})",
      "{\"type\":\"Sequence\",\"decoders\":[" + replace + R"(,{"type":"ByteFallback"},{"type":"Fuse"}]})",
      R"({"type":"ByteLevel"})",
      "{\"type\":\"Sequence\",\"decoders\":[" + replace + R"(,{"type":"ByteLevel"}]})",
      "{\"type\":\"Sequence\",\"decoders\":[" + replace + R"(,{"type":"ByteFallback"}]})",
      "{\"type\":\"Sequence\",\"decoders\":[" + replace +
          R"(,{"type":"Fuse"},{"type":"Strip","content":"a","start":2,"stop":3}]})",
      replace,
      R"({"type":"Sequence","decoders":[{"type":"ByteFallback"},{"type":"Strip","content":" ","start":1,"stop":0}]})",
      R"({"type":"Metaspace","replacement":"▁","prepend_scheme":"always"})",
  };
  std::mt19937 random(24);
  for (const std::string& chain : chains) {
    const embedlab::HfTokenizer tokenizer = hf_test::Load(ChainParts(chain));
    for (int trial = 0; trial < 3000; ++trial) {
      std::vector<uint32_t> ids(random() % 9);
      for (uint32_t& id : ids) id = random() % 19;
      const bool skip = trial % 2 == 1;
      embedlab::HfDecodeOptions options;
      options.skip_special_tokens = skip;
      INFO(chain << " trial " << trial);
      REQUIRE(hf_test::Decode(tokenizer, ids, options) == ReferenceDecode(tokenizer, chain, ids, skip));
    }
    const std::vector<uint32_t> unknown = {9, 19};
    CHECK_THROWS_WITH(hf_test::Decode(tokenizer, unknown), Catch::Contains("ids[1] = 19"));
  }
}

TEST_CASE("hf clean-up: one pass gives the ten replace-alls in turn", "[hf]") {
  CHECK(embedlab::CleanUpTokenizationSpaces("a , b . I ' m  ' s n ' t don 't") ==
        embedlab::CleanUpTokenizationSpacesInTurn("a , b . I ' m  ' s n ' t don 't"));
  CHECK(embedlab::CleanUpTokenizationSpaces(" n ' t") == "n't");  // " ' " makes " n't"
  CHECK(embedlab::CleanUpTokenizationSpaces(" ' .") == " '.");    // " ." runs first and takes the space
  const std::string alphabet = " .?!,'ntmsverx";
  std::mt19937 random(7);
  for (int trial = 0; trial < 200000; ++trial) {
    std::string text(random() % 12, ' ');
    for (char& c : text) c = alphabet[random() % alphabet.size()];
    INFO('"' << text << '"');
    REQUIRE(embedlab::CleanUpTokenizationSpaces(text) == embedlab::CleanUpTokenizationSpacesInTurn(text));
  }
}
