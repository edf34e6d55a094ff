// The project's JSON reader, string quoting and numbers (text/json_value.h) against nlohmann::json, the library
// it replaced, as the reference: the same texts accepted, the same values read, the same text written.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "text/json_value.h"

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
      REQUIRE(embedlab::NumberOf(ours) == reference.get<double>());
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
        "below": -9223372036854775809, "exp": 1E+2, "frac": 0.000, "third": 0.3333333333333333,
        "tiny": 4.9e-324, "under": 1e-400, "huge": -1.7976931348623157e308, "e": 2.5e-3})",
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

TEST_CASE("JSON numbers: written as nlohmann::json::dump writes a double", "[tokenizer]") {
  // Values a checkpoint holds: the same text.
  for (double value : {0.0,
                       -0.0,
                       1.0,
                       24.0,
                       0.5,
                       1.0 / 3.0,
                       8192.0,
                       1e14,
                       1e15,
                       1e16,
                       1.5e20,
                       1e-4,
                       1e-5,
                       0.1,
                       123456.789,
                       2.5e-3,
                       1e300,
                       5e-324,
                       -3.75,
                       4.0e-7,
                       99999999999999.0,
                       123456789012345678.0,
                       std::numeric_limits<double>::max(),
                       std::numeric_limits<double>::min()}) {
    INFO(value);
    REQUIRE(embedlab::FormatJsonNumber(value) == nlohmann::json(value).dump());
  }
  // Doubles of every exponent: each reads back exactly, in as few characters as nlohmann's Grisu2 (which, when
  // two shortest forms read back, may pick the other one), with the same layout.
  uint64_t state = 0x9E3779B97F4A7C15u;  // SplitMix64, fixed seed
  for (int i = 0; i < 20000; ++i) {
    uint64_t z = (state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    z ^= z >> 31;
    double value;
    std::memcpy(&value, &z, sizeof value);
    if (!std::isfinite(value)) continue;
    for (double v : {value, static_cast<double>(static_cast<int64_t>(z % 2000000) - 1000000) / 64.0}) {
      INFO(v);
      const std::string ours = embedlab::FormatJsonNumber(v);
      const std::string reference = nlohmann::json(v).dump();
      REQUIRE(std::strtod(ours.c_str(), nullptr) == v);
      REQUIRE(ours.size() <= reference.size());
      REQUIRE((ours.find('e') == std::string::npos) == (reference.find('e') == std::string::npos));
    }
  }
  REQUIRE(embedlab::FormatJsonNumber(std::numeric_limits<double>::quiet_NaN()) == "null");
  REQUIRE(embedlab::FormatJsonNumber(-std::numeric_limits<double>::infinity()) == "null");
}
