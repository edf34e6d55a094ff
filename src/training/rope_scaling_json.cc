#include "training/rope_scaling_json.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace embedlab {
namespace {

using nlohmann::json;

double Number(const json& object, const char* key, double fallback) {
  if (!object.contains(key)) return fallback;
  const json& value = object.at(key);
  if (!value.is_number()) {
    throw std::invalid_argument(std::string("checkpoint metadata \"rope_scaling\": \"") + key + "\" must be a number");
  }
  return value.get<double>();
}

}  // namespace

std::string RopeScalingToJson(const RopeScaling& s) {
  json object = {{"rope_type", RopeScalingTypeName(s.type)}, {"factor", s.factor}};
  const bool uses_original =
      s.type == RopeScalingType::kDynamic || s.type == RopeScalingType::kYarn || s.type == RopeScalingType::kLlama3;
  if (uses_original) object["original_max_position_embeddings"] = s.original_context_length;
  if (s.type == RopeScalingType::kYarn) {
    object["beta_fast"] = s.beta_fast;
    object["beta_slow"] = s.beta_slow;
    if (s.attention_factor != 0.0) object["attention_factor"] = s.attention_factor;
    object["truncate"] = s.truncate;
  }
  if (s.type == RopeScalingType::kLlama3) {
    object["low_freq_factor"] = s.low_frequency_factor;
    object["high_freq_factor"] = s.high_frequency_factor;
  }
  return object.dump();
}

RopeScaling RopeScalingFromJson(const std::string& text) {
  const json object = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!object.is_object()) {
    throw std::invalid_argument("checkpoint metadata \"rope_scaling\" must be a JSON object, got \"" + text + "\"");
  }
  static const char* const kKeys[] = {"rope_type", "factor",          "original_max_position_embeddings",
                                      "beta_fast", "beta_slow",       "attention_factor",
                                      "truncate",  "low_freq_factor", "high_freq_factor"};
  for (const auto& item : object.items()) {
    bool known = false;
    for (const char* key : kKeys) known = known || item.key() == key;
    if (!known)
      throw std::invalid_argument("checkpoint metadata \"rope_scaling\" has an unknown key \"" + item.key() + "\"");
  }
  if (!object.contains("rope_type") || !object.at("rope_type").is_string()) {
    throw std::invalid_argument("checkpoint metadata \"rope_scaling\" needs a string \"rope_type\"");
  }
  RopeScaling s;
  s.type = ParseRopeScalingType(object.at("rope_type").get<std::string>());
  s.factor = Number(object, "factor", 1.0);
  const double original = Number(object, "original_max_position_embeddings", 0.0);
  // Range first: casting an out-of-range double to an integer is undefined.
  if (!(original >= 0.0 && original <= 1e15) || original != static_cast<double>(static_cast<int64_t>(original))) {
    throw std::invalid_argument(
        "checkpoint metadata \"rope_scaling\": original_max_position_embeddings must be an integer");
  }
  s.original_context_length = static_cast<int64_t>(original);
  s.beta_fast = Number(object, "beta_fast", 32.0);
  s.beta_slow = Number(object, "beta_slow", 1.0);
  s.attention_factor = Number(object, "attention_factor", 0.0);
  if (object.contains("truncate")) {
    if (!object.at("truncate").is_boolean()) {
      throw std::invalid_argument("checkpoint metadata \"rope_scaling\": \"truncate\" must be true or false");
    }
    s.truncate = object.at("truncate").get<bool>();
  }
  s.low_frequency_factor = Number(object, "low_freq_factor", 1.0);
  s.high_frequency_factor = Number(object, "high_freq_factor", 4.0);
  ValidateRopeScaling(s);
  return s;
}

}  // namespace embedlab
