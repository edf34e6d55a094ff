#include "hf/post_processor.h"

#include "hf/json_parts.h"

namespace embedlab {
namespace {

void AddTemplate(const JsonValue& json, const std::string& path, PostProcessor* out, bool* have_template) {
  if (*have_template) RefuseAt(path, "more than one TemplateProcessing is not supported");
  *have_template = true;
  const JsonValue& special = RequireMember(json, path, "special_tokens", JsonValue::Kind::kObject);
  const JsonValue& single = RequireMember(json, path, "single", JsonValue::Kind::kArray);
  bool have_sequence = false;
  for (size_t i = 0; i < single.items.size(); ++i) {
    const std::string item_path = path + ".single[" + std::to_string(i) + "]";
    const JsonValue& item = single.items[i];
    if (const JsonValue* sequence = item.Find("Sequence")) {
      const JsonValue* id = sequence->Find("id");
      if (id == nullptr || !id->IsString() || id->string != "A") {
        RefuseAt(item_path, "the single template may only hold Sequence A");
      }
      if (have_sequence) RefuseAt(item_path, "Sequence A appears twice in the single template");
      have_sequence = true;
    } else if (const JsonValue* token = item.Find("SpecialToken")) {
      const JsonValue* id = token->Find("id");
      if (id == nullptr || !id->IsString()) RefuseAt(item_path + ".SpecialToken", "expected an \"id\" string");
      const JsonValue* entry = special.Find(id->string);
      if (entry == nullptr) RefuseAt(path + ".special_tokens", "the special token \"" + id->string + "\" is missing");
      const JsonValue& ids = RequireMember(*entry, path + ".special_tokens", "ids", JsonValue::Kind::kArray);
      for (const JsonValue& value : ids.items) {
        if (!value.IsUnsigned() || value.uint_value >= (uint64_t{1} << 31)) {
          RefuseAt(path + ".special_tokens", "the ids of \"" + id->string + "\" must be integers below 2^31");
        }
        (have_sequence ? out->suffix : out->prefix).push_back(static_cast<uint32_t>(value.uint_value));
      }
    } else {
      RefuseAt(item_path, "expected {\"SpecialToken\": …} or {\"Sequence\": …}");
    }
  }
  if (!have_sequence) RefuseAt(path + ".single", "the template has no Sequence A");
}

void AddProcessor(const JsonValue& json, const std::string& path, PostProcessor* out, bool* have_template) {
  const std::string type = RequireType(json, path);
  if (type == "Sequence") {
    const JsonValue& list = RequireMember(json, path, "processors", JsonValue::Kind::kArray);
    for (size_t i = 0; i < list.items.size(); ++i) {
      AddProcessor(list.items[i], path + ".processors[" + std::to_string(i) + "]", out, have_template);
    }
  } else if (type == "TemplateProcessing") {
    AddTemplate(json, path, out, have_template);
  } else if (type != "ByteLevel") {  // ByteLevel only trims offsets, which these spans do not use
    RefuseAt(path, "the post-processor \"" + type +
                       "\" is not supported (supported: TemplateProcessing, "
                       "ByteLevel, Sequence)");
  }
}

}  // namespace

PostProcessor PostProcessor::FromJson(const JsonValue& json, const std::string& path) {
  PostProcessor out;
  bool have_template = false;
  if (json.kind != JsonValue::Kind::kNull) AddProcessor(json, path, &out, &have_template);
  return out;
}

}  // namespace embedlab
