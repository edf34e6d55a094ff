#include "training/rope_scaling_json.h"

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>

#include "text/json_value.h"

namespace embedlab {
namespace {

double Number(const JsonValue& object, const char* key, double fallback) {
  const JsonValue* value = object.Find(key);
  if (value == nullptr) return fallback;
  if (value->kind != JsonValue::Kind::kNumber) {
    throw std::invalid_argument(std::string("checkpoint metadata \"rope_scaling\": \"") + key + "\" must be a number");
  }
  return NumberOf(*value);
}

}  // namespace

std::string RopeScalingToJson(const RopeScaling& s) {
  // Keys in sorted order, compact, as nlohmann::json wrote them before (checkpoints stay byte-identical).
  std::map<std::string, std::string> object = {{"rope_type", QuoteJson(RopeScalingTypeName(s.type))},
                                               {"factor", FormatJsonNumber(s.factor)}};
  const bool uses_original =
      s.type == RopeScalingType::kDynamic || s.type == RopeScalingType::kYarn || s.type == RopeScalingType::kLlama3;
  if (uses_original) object["original_max_position_embeddings"] = std::to_string(s.original_context_length);
  if (s.type == RopeScalingType::kYarn) {
    object["beta_fast"] = FormatJsonNumber(s.beta_fast);
    object["beta_slow"] = FormatJsonNumber(s.beta_slow);
    if (s.attention_factor != 0.0) object["attention_factor"] = FormatJsonNumber(s.attention_factor);
    object["truncate"] = s.truncate ? "true" : "false";
  }
  if (s.type == RopeScalingType::kLlama3) {
    object["low_freq_factor"] = FormatJsonNumber(s.low_frequency_factor);
    object["high_freq_factor"] = FormatJsonNumber(s.high_frequency_factor);
  }
  std::string out = "{";
  for (const auto& [key, value] : object) out += (out.size() > 1 ? "," : "") + QuoteJson(key) + ":" + value;
  return out + "}";
}

RopeScaling RopeScalingFromJson(const std::string& text) {
  const std::optional<JsonValue> parsed = ParseJson(text);
  if (!parsed || !parsed->IsObject()) {
    throw std::invalid_argument("checkpoint metadata \"rope_scaling\" must be a JSON object, got \"" + text + "\"");
  }
  static const char* const kKeys[] = {"rope_type", "factor",          "original_max_position_embeddings",
                                      "beta_fast", "beta_slow",       "attention_factor",
                                      "truncate",  "low_freq_factor", "high_freq_factor"};
  const JsonValue& object = *parsed;
  for (const auto& [name, value] : object.members) {
    bool known = false;
    for (const char* key : kKeys) known = known || name == key;
    if (!known) throw std::invalid_argument("checkpoint metadata \"rope_scaling\" has an unknown key \"" + name + "\"");
  }
  const JsonValue* type = object.Find("rope_type");
  if (type == nullptr || !type->IsString()) {
    throw std::invalid_argument("checkpoint metadata \"rope_scaling\" needs a string \"rope_type\"");
  }
  RopeScaling s = kRopeScalingDefaults;  // truncate keeps its default when the key is absent
  s.type = ParseRopeScalingType(type->string);
  s.factor = Number(object, "factor", kRopeScalingDefaults.factor);
  const double original = Number(object, "original_max_position_embeddings",
                                 static_cast<double>(kRopeScalingDefaults.original_context_length));
  // Range first: casting an out-of-range double to an integer is undefined.
  if (!(original >= 0.0 && original <= 1e15) || original != static_cast<double>(static_cast<int64_t>(original))) {
    throw std::invalid_argument(
        "checkpoint metadata \"rope_scaling\": \"original_max_position_embeddings\" must be an integer");
  }
  s.original_context_length = static_cast<int64_t>(original);
  s.beta_fast = Number(object, "beta_fast", kRopeScalingDefaults.beta_fast);
  s.beta_slow = Number(object, "beta_slow", kRopeScalingDefaults.beta_slow);
  s.attention_factor = Number(object, "attention_factor", kRopeScalingDefaults.attention_factor);
  if (const JsonValue* truncate = object.Find("truncate")) {
    if (truncate->kind != JsonValue::Kind::kBoolean) {
      throw std::invalid_argument("checkpoint metadata \"rope_scaling\": \"truncate\" must be true or false");
    }
    s.truncate = truncate->boolean;
  }
  s.low_frequency_factor = Number(object, "low_freq_factor", kRopeScalingDefaults.low_frequency_factor);
  s.high_frequency_factor = Number(object, "high_freq_factor", kRopeScalingDefaults.high_frequency_factor);
  ValidateRopeScaling(s);
  return s;
}

}  // namespace embedlab
