// The tokenizer files' JSON reader and string quoting (bpe/json_value.h) against nlohmann::json, the library it
// replaced, as the reference: the same texts accepted, the same values read, the same quoting written.
#include <catch2/catch.hpp>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bpe/json_value.h"

using embedlab::JsonValue;

namespace {

// Compares our tree with nlohmann's for the kinds the tokenizer files use.
void RequireSame(const JsonValue& ours, const nlohmann::json& reference) {
  switch (ours.kind) {
    case JsonValue::Kind::kNull:
      REQUIRE(reference.is_null());
      break;
    case JsonValue::Kind::kBoolean:
      REQUIRE(reference.is_boolean());
      REQUIRE(ours.boolean == reference.get<bool>());
      break;
    case JsonValue::Kind::kNumber:
      REQUIRE(reference.is_number());
      REQUIRE(ours.IsInteger() == reference.is_number_integer());
      REQUIRE(ours.IsUnsigned() == reference.is_number_unsigned());
      if (ours.IsUnsigned()) REQUIRE(ours.uint_value == reference.get<uint64_t>());
      if (ours.IsInteger() && !ours.IsUnsigned()) REQUIRE(ours.int_value == reference.get<int64_t>());
      break;
    case JsonValue::Kind::kString:
      REQUIRE(reference.is_string());
      REQUIRE(ours.string == reference.get<std::string>());
      break;
    case JsonValue::Kind::kArray:
      REQUIRE(reference.is_array());
      REQUIRE(ours.items.size() == reference.size());
      for (size_t i = 0; i < ours.items.size(); ++i) RequireSame(ours.items[i], reference[i]);
      break;
    case JsonValue::Kind::kObject: {
      REQUIRE(reference.is_object());
      REQUIRE(ours.members.size() == reference.size());
      auto it = reference.begin();
      for (const auto& [key, value] : ours.members) {  // both in key order
        REQUIRE(key == it.key());
        RequireSame(value, it.value());
        ++it;
      }
      break;
    }
  }
}

void RequireAgrees(const std::string& text) {
  INFO(text);
  const std::optional<JsonValue> ours = embedlab::ParseJson(text);
  const nlohmann::json reference = nlohmann::json::parse(text, nullptr, false);
  if (ours.has_value() && reference.is_discarded()) {
    // The one documented difference: numbers beyond the double range, which nlohmann::json refuses.
    REQUIRE_THROWS_WITH(nlohmann::json::parse(text), Catch::Contains("number overflow"));
    return;
  }
  REQUIRE(ours.has_value() == !reference.is_discarded());
  if (ours) RequireSame(*ours, reference);
}

const std::vector<std::string> kTexts = {
    R"({"format":1,"name":"mine","pattern":"o200k","special_tokens":{"<|endoftext|>":8000}})",
    R"( { "a" : [ 1 , -2 , 3.5 , 1e3 , -0 , 0 , true , false , null ] , "b" : { } , "c" : [ ] } )",
    R"({"\u0120the": 262, "\u00e9t\u00e9": 5, "\ud83d\ude00": 7, "tab\t": 1, "q\"\\\/\b\f\n\r": 2})",
    R"({"dup": 1, "dup": 2, "a": 3})",
    R"({"big": 18446744073709551615, "bigger": 18446744073709551616, "min": -9223372036854775808,
        "below": -9223372036854775809, "exp": 1E+2, "frac": 0.000})",
    "\"caf\xC3\xA9 \xF0\x9F\x98\x80\"",
    "[[[[[[[[[[1]]]]]]]]]]",
    // Invalid: each must be refused by both.
    "",
    " ",
    "{",
    "}",
    "{\"a\":}",
    "{\"a\" 1}",
    "{\"a\":1,}",
    "[1,]",
    "[01]",
    "[-]",
    "[1.]",
    "[.5]",
    "[1e]",
    "[+1]",
    "{a:1}",
    "{'a':1}",
    "[\"\\x\"]",
    "[\"\\u12\"]",
    "[\"\\ud83d\"]",
    "[\"\\ude00\"]",
    "[\"\\ud83d\\u0041\"]",
    "[\"a\nb\"]",
    "[\"\xC3\"]",
    "[\"\xFF\"]",
    "[\"\xED\xA0\x80\"]",
    "[tru]",
    "[nul]",
    "[1] 2",
    "{\"a\":1}}",
    "\"unterminated",
    "[NaN]",
    "[Infinity]",
    "[0x10]",
};

}  // namespace

TEST_CASE("JSON reader: accepts and reads what nlohmann::json does", "[tokenizer]") {
  for (const std::string& text : kTexts) RequireAgrees(text);
}

TEST_CASE("JSON reader: mutated texts are accepted or refused as nlohmann::json does", "[tokenizer]") {
  // Every one-byte deletion and a few replacements of each text: mostly invalid JSON, some still valid.
  const std::string replacements = "{}[]\",:0-e.\\ u\x80";
  for (const std::string& text : kTexts) {
    for (size_t i = 0; i < text.size(); ++i) {
      RequireAgrees(text.substr(0, i) + text.substr(i + 1));
      for (char c : replacements) RequireAgrees(text.substr(0, i) + c + text.substr(i + 1));
    }
  }
}

TEST_CASE("JSON reader: nesting deeper than 256 levels is refused, not a stack overflow", "[tokenizer]") {
  REQUIRE(embedlab::ParseJson(std::string(256, '[') + std::string(256, ']')).has_value());
  REQUIRE_FALSE(embedlab::ParseJson(std::string(100000, '[') + std::string(100000, ']')).has_value());
}

TEST_CASE("JSON quoting: the same text as nlohmann::json::dump with invalid UTF-8 replaced", "[tokenizer]") {
  std::string every_control;
  for (char c = 1; c < 0x20; ++c) every_control += c;
  for (const std::string& text : std::vector<std::string>{
           "", "<|endoftext|>", "quote\" backslash\\ slash/", every_control, "caf\xC3\xA9 \xF0\x9F\x98\x80",
           "bad \xFF byte", "\x80", "\xC3", "del \x7F", std::string("nul\0in", 6)}) {
    INFO(text);
    REQUIRE(embedlab::QuoteJson(text) ==
            nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  }
}
