#include "hf/json_parts.h"

#include <stdexcept>

namespace embedlab {
namespace {

const char* KindName(JsonValue::Kind kind) {
  switch (kind) {
    case JsonValue::Kind::kNull:
      return "null";
    case JsonValue::Kind::kBoolean:
      return "a boolean";
    case JsonValue::Kind::kNumber:
      return "a number";
    case JsonValue::Kind::kString:
      return "a string";
    case JsonValue::Kind::kArray:
      return "an array";
    case JsonValue::Kind::kObject:
      return "an object";
  }
  return "a value";
}

}  // namespace

void RefuseAt(const std::string& path, const std::string& message) {
  throw std::invalid_argument("tokenizer.json: " + path + ": " + message);
}

std::string RequireType(const JsonValue& json, const std::string& path) {
  if (!json.IsObject()) RefuseAt(path, std::string("expected an object, found ") + KindName(json.kind));
  return RequireMember(json, path, "type", JsonValue::Kind::kString).string;
}

const JsonValue& RequireMember(const JsonValue& json, const std::string& path, const std::string& key,
                               JsonValue::Kind kind) {
  const JsonValue* member = json.Find(key);
  if (member == nullptr) RefuseAt(path, "the member \"" + key + "\" is missing");
  if (member->kind != kind) {
    RefuseAt(path + "." + key, std::string("expected ") + KindName(kind) + ", found " + KindName(member->kind));
  }
  return *member;
}

bool OptionalBoolean(const JsonValue& json, const std::string& path, const std::string& key, bool fallback) {
  const JsonValue* member = json.Find(key);
  if (member == nullptr || member->kind == JsonValue::Kind::kNull) return fallback;
  if (member->kind != JsonValue::Kind::kBoolean) {
    RefuseAt(path + "." + key, std::string("expected a boolean, found ") + KindName(member->kind));
  }
  return member->boolean;
}

std::string LiteralPattern(const JsonValue& pattern, const std::string& path) {
  if (const JsonValue* literal = pattern.Find("String")) {
    if (!literal->IsString()) RefuseAt(path + ".String", "expected a string");
    return literal->string;
  }
  if (const JsonValue* regex = pattern.Find("Regex")) {
    if (!regex->IsString()) RefuseAt(path + ".Regex", "expected a string");
    if (regex->string.find_first_of("\\.^$|?*+()[]{}") == std::string::npos) return regex->string;
    RefuseAt(path + ".Regex", "the regex " + QuoteJson(regex->string) + " is not supported here (only a literal)");
  }
  RefuseAt(path, "expected {\"String\": …} or {\"Regex\": …}");
}

}  // namespace embedlab
