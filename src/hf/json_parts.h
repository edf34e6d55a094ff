// Reading the small parts of a tokenizer.json (normalizer, pre_tokenizer, post_processor, decoder) from their
// JsonValue, with errors that name the JSON path of what is wrong or unsupported.
#ifndef EMBEDLAB_HF_JSON_PARTS_H_
#define EMBEDLAB_HF_JSON_PARTS_H_

#include <string>

#include "text/json_value.h"

namespace embedlab {

// Throws std::invalid_argument "tokenizer.json: <path>: <message>".
[[noreturn]] void RefuseAt(const std::string& path, const std::string& message);
// The "type" string of an object.
std::string RequireType(const JsonValue& json, const std::string& path);
// The member key of kind kind.
const JsonValue& RequireMember(const JsonValue& json, const std::string& path, const std::string& key,
                               JsonValue::Kind kind);
// A boolean member; fallback when absent or null.
bool OptionalBoolean(const JsonValue& json, const std::string& path, const std::string& key, bool fallback);
// A pattern object {"String": s} gives s; {"Regex": r} gives r when r has no regex syntax (a plain literal), and
// otherwise is refused with the regex quoted.
std::string LiteralPattern(const JsonValue& pattern, const std::string& path);

}  // namespace embedlab

#endif  // EMBEDLAB_HF_JSON_PARTS_H_
