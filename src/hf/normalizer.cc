#include "hf/normalizer.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "hf/json_parts.h"
#include "hf/text_dependencies.h"

namespace embedlab {
namespace {

void AddSteps(const JsonValue& json, const std::string& path, std::vector<NormalizerStep>* steps) {
  const std::string type = RequireType(json, path);
  if (type == "Sequence") {
    const JsonValue& list = RequireMember(json, path, "normalizers", JsonValue::Kind::kArray);
    for (size_t i = 0; i < list.items.size(); ++i) {
      AddSteps(list.items[i], path + ".normalizers[" + std::to_string(i) + "]", steps);
    }
  } else if (type == "NFC") {
    steps->push_back({NormalizerStep::Kind::kNfc, "", ""});
  } else if (type == "Replace") {
    std::string pattern =
        LiteralPattern(RequireMember(json, path, "pattern", JsonValue::Kind::kObject), path + ".pattern");
    if (pattern.empty()) RefuseAt(path + ".pattern", "a Replace with an empty pattern is not supported");
    steps->push_back({NormalizerStep::Kind::kReplace, std::move(pattern),
                      RequireMember(json, path, "content", JsonValue::Kind::kString).string});
  } else if (type == "Prepend") {
    steps->push_back(
        {NormalizerStep::Kind::kPrepend, "", RequireMember(json, path, "prepend", JsonValue::Kind::kString).string});
  } else {
    RefuseAt(path, "the normalizer \"" + type + "\" is not supported (supported: NFC, Replace, Prepend, Sequence)");
  }
}

// One step from (in, in_alignment) to (out, out_alignment); alignments are null when not wanted.
void ApplyStep(const NormalizerStep& step, std::string_view in, const std::vector<uint32_t>* in_alignment,
               bool continues_text, std::string* out, std::vector<uint32_t>* out_alignment) {
  auto source = [&](size_t i) { return in_alignment != nullptr ? (*in_alignment)[i] : static_cast<uint32_t>(i); };
  out->clear();
  if (out_alignment != nullptr) out_alignment->clear();
  switch (step.kind) {
    case NormalizerStep::Kind::kNfc: {
      std::vector<uint32_t> map;
      NormalizeNfc(in, out, out_alignment != nullptr ? &map : nullptr);
      if (out_alignment != nullptr) {
        out_alignment->reserve(map.size());
        for (uint32_t m : map) out_alignment->push_back(source(m));
      }
      return;
    }
    case NormalizerStep::Kind::kPrepend:
      // The Rust crate prepends to non-empty text only; a text that continues one cut before is not a start.
      if (in.empty() || continues_text) break;
      out->append(step.content);
      if (out_alignment != nullptr) out_alignment->assign(step.content.size(), source(0));
      break;
    case NormalizerStep::Kind::kReplace: {
      // Sized once and filled by copies: a text of 100 MB of spaces (Llama 2's " " -> "▁") takes one allocation,
      // not a growing string appended to per match.
      const std::string& pattern = step.pattern;
      const std::string& content = step.content;
      size_t matches = 0;
      if (pattern.size() == 1) {
        matches = static_cast<size_t>(std::count(in.begin(), in.end(), pattern[0]));
      } else {
        for (size_t at = in.find(pattern); at != std::string_view::npos; at = in.find(pattern, at + pattern.size())) {
          ++matches;
        }
      }
      out->resize(in.size() - matches * pattern.size() + matches * content.size());
      char* write = out->data();
      if (out_alignment != nullptr) out_alignment->reserve(out->size() + 1);
      if (pattern.size() == 1 && out_alignment == nullptr) {  // a byte: one pass, no call per match
        for (const char byte : in) {
          if (byte == pattern[0]) {
            write = std::copy(content.begin(), content.end(), write);
          } else {
            *write++ = byte;
          }
        }
        return;
      }
      size_t done = 0;
      for (size_t at = in.find(pattern); at != std::string_view::npos; at = in.find(pattern, done)) {
        write = std::copy(in.data() + done, in.data() + at, write);
        write = std::copy(content.begin(), content.end(), write);
        if (out_alignment != nullptr) {
          for (size_t i = done; i < at; ++i) out_alignment->push_back(source(i));
          out_alignment->insert(out_alignment->end(), content.size(), source(at));
        }
        done = at + pattern.size();
      }
      std::copy(in.data() + done, in.data() + in.size(), write);
      if (out_alignment != nullptr) {
        for (size_t i = done; i < in.size(); ++i) out_alignment->push_back(source(i));
        out_alignment->push_back(source(in.size()));
      }
      return;
    }
  }
  // Prepend (and an empty Prepend input): the rest is the input unchanged.
  out->append(in);
  if (out_alignment != nullptr) {
    for (size_t i = 0; i <= in.size(); ++i) out_alignment->push_back(source(i));
  }
}

}  // namespace

Normalizer Normalizer::FromJson(const JsonValue& json, const std::string& path) {
  std::vector<NormalizerStep> steps;
  if (json.kind != JsonValue::Kind::kNull) AddSteps(json, path, &steps);
  return Normalizer(std::move(steps));
}

void Normalizer::Apply(std::string_view text, std::string* out, std::vector<uint32_t>* alignment,
                       bool continues_text) const {
  if (steps_.empty()) {
    out->assign(text);
    if (alignment != nullptr) {
      alignment->resize(text.size() + 1);
      for (size_t i = 0; i <= text.size(); ++i) (*alignment)[i] = static_cast<uint32_t>(i);
    }
    return;
  }
  // Steps after the first read the previous one's output: buffers kept per thread, not allocated per section.
  thread_local std::string in;
  thread_local std::vector<uint32_t> in_alignment;
  std::string_view current = text;
  for (size_t i = 0; i < steps_.size(); ++i) {
    ApplyStep(steps_[i], current, i > 0 && alignment != nullptr ? &in_alignment : nullptr, continues_text, out,
              alignment);
    if (i + 1 < steps_.size()) {
      std::swap(in, *out);
      if (alignment != nullptr) std::swap(in_alignment, *alignment);
      current = in;
    }
  }
  if (in.capacity() > (size_t{4} << 20)) std::string().swap(in);  // one long text: let it go
  if (in_alignment.capacity() > (size_t{1} << 20)) std::vector<uint32_t>().swap(in_alignment);
}

}  // namespace embedlab
