// The pull JSON reader: values read in order, strings decoded, and each malformed or hostile document refused with
// its JSON path and position (checked against the documents written here by hand).
#include <catch2/catch.hpp>
#include <string>

#include "hf/json_cursor.h"

using embedlab::JsonCursor;

namespace {

// The message of the error that reading the whole document (skipping every value) raises, or "".
std::string SkipError(const std::string& text) {
  try {
    JsonCursor cursor(text, "doc");
    cursor.SkipValue();
    cursor.ExpectEnd();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("hf JsonCursor reads members, items, strings and integers in order") {
  JsonCursor cursor(R"({"a": [1, -2, "x\u00e9\ud83d\ude00\n"], "b": {"c": true, "d": null}, "e": 1.5e3})", "doc");
  std::string_view key;
  cursor.BeginObject();
  REQUIRE(cursor.NextMember(&key));
  CHECK(key == "a");
  cursor.BeginArray();
  REQUIRE(cursor.NextItem());
  CHECK(cursor.ReadInteger(0, 10) == 1);
  REQUIRE(cursor.NextItem());
  CHECK(cursor.ReadInteger(-5, 10) == -2);
  REQUIRE(cursor.NextItem());
  CHECK(cursor.ReadString() == "x\xC3\xA9\xF0\x9F\x98\x80\n");
  CHECK_FALSE(cursor.NextItem());
  REQUIRE(cursor.NextMember(&key));
  CHECK(key == "b");
  CHECK(cursor.SkipValue() == R"({"c": true, "d": null})");
  REQUIRE(cursor.NextMember(&key));
  CHECK(cursor.Peek() == JsonCursor::Kind::kNumber);
  CHECK(cursor.SkipValue() == "1.5e3");
  CHECK_FALSE(cursor.NextMember(&key));
  cursor.ExpectEnd();
}

TEST_CASE("hf JsonCursor errors name the JSON path and the line and column") {
  JsonCursor cursor("{\"model\": {\"merges\": [\"a b\",\n 7]}}", "tokenizer.json");
  std::string_view key;
  cursor.BeginObject();
  cursor.NextMember(&key);
  cursor.BeginObject();
  cursor.NextMember(&key);
  cursor.BeginArray();
  cursor.NextItem();
  cursor.ReadString();
  cursor.NextItem();
  try {
    cursor.ReadString();
    FAIL("no error");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()) == "tokenizer.json: model.merges[1]: expected a string (line 2, column 2)");
  }
}

TEST_CASE("hf JsonCursor refuses malformed and hostile documents") {
  CHECK_THAT(SkipError("{\"a\": [1, 2"), Catch::Contains("truncated"));
  CHECK_THAT(SkipError("{\"a\": \"abc"), Catch::Contains("ends inside a string"));
  CHECK_THAT(SkipError(std::string(10000, '[') + std::string(10000, ']')), Catch::Contains("nesting deeper than 64"));
  CHECK_THAT(SkipError("[\"\xC3\x28\"]"), Catch::Contains("invalid UTF-8"));
  CHECK_THAT(SkipError("[\"\\ud800\"]"), Catch::Contains("lone high surrogate"));
  CHECK_THAT(SkipError("[\"\\udc00\"]"), Catch::Contains("lone low surrogate"));
  CHECK_THAT(SkipError("[\"a\tb\"]"), Catch::Contains("control character"));
  CHECK_THAT(SkipError("[01]"), Catch::Contains("',' or ']'"));
  CHECK_THAT(SkipError("[1.]"), Catch::Contains("malformed number"));
  CHECK_THAT(SkipError("{\"a\" 1}"), Catch::Contains("expected ':'"));
  CHECK_THAT(SkipError("[1] x"), Catch::Contains("after the end"));
  CHECK_THAT(SkipError(std::string(1 << 20, ' ')), Catch::Contains("truncated"));
  CHECK(SkipError("  [1, {\"a\": [true, false, null, \"\\\"\\/\"]}]  ").empty());
}

TEST_CASE("hf JsonCursor integers outside the asked range are refused with the range") {
  for (const char* text : {"-1", "2147483648", "99999999999999999999999", "1e3", "2.0"}) {
    JsonCursor cursor(text, "doc");
    CHECK_THROWS_WITH(cursor.ReadInteger(0, 2147483647), Catch::Contains("allowed: 0 to 2147483647"));
  }
}
