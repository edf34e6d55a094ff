// The small part of JSON (RFC 8259) the project reads and writes (tokenizer files, safetensors headers, the
// checkpoint's rope_scaling): a strict reader into a plain tree, and string quoting. It replaces nlohmann::json,
// whose template code was a third of the tokenizer-only wasm module and about 110 kB of the full one.
#ifndef EMBEDLAB_TEXT_JSON_VALUE_H_
#define EMBEDLAB_TEXT_JSON_VALUE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace embedlab {

struct JsonValue {
  enum class Kind { kNull, kBoolean, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  bool boolean = false;
  // Numbers: `integer` when the literal has no fraction or exponent and fits int64 or uint64; then
  // `negative` tells which of int_value / uint_value holds it. Other numbers keep their literal in `string`
  // for the caller to convert (NumberOf): converting here would put text/decimal.cc in the tokenizer module.
  bool integer = false;
  bool negative = false;
  int64_t int_value = 0;
  uint64_t uint_value = 0;
  std::string string;
  std::vector<JsonValue> items;
  // Members by key, in key order; a repeated key keeps its last value (as nlohmann::json's default did).
  std::map<std::string, JsonValue> members;

  bool IsObject() const { return kind == Kind::kObject; }
  bool IsString() const { return kind == Kind::kString; }
  // An integer literal without a minus sign (the ids of vocabularies and special tokens; "-0" is not one).
  bool IsUnsigned() const { return kind == Kind::kNumber && integer && !negative; }
  bool IsInteger() const { return kind == Kind::kNumber && integer; }
  // The member `key` of an object, or nullptr.
  const JsonValue* Find(const std::string& key) const;
};

// The value of a whole JSON text (surrounding whitespace allowed), or nullopt when it is not valid JSON:
// invalid UTF-8 in strings, lone surrogate escapes, or nesting deeper than 256 levels are refused too. Unlike
// nlohmann::json, a number beyond the double range (1e999) is accepted: no value is read from it.
std::optional<JsonValue> ParseJson(std::string_view text);

// `text` as a JSON string literal with its quotes: '"', '\\' and control characters escaped, other characters
// as they are, and each byte that is not part of well-formed UTF-8 replaced by U+FFFD.
std::string QuoteJson(std::string_view text);

// The value of a number (kind kNumber): exact for integers, the correctly rounded value of the literal otherwise
// (ParseDecimal; inf beyond the double range). Defined in json_number.cc, apart, so that only the callers link it.
double NumberOf(const JsonValue& number);

// `value` as nlohmann::json::dump wrote a double: the shortest digits that read back to the same double, with
// ".0" added to integral values ("8.0"); not finite -> "null".
std::string FormatJsonNumber(double value);

}  // namespace embedlab

#endif  // EMBEDLAB_TEXT_JSON_VALUE_H_
