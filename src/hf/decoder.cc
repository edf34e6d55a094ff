#include "hf/decoder.h"

#include <utility>

#include "hf/byte_level_alphabet.h"
#include "hf/json_parts.h"
#include "text/utf8.h"

namespace embedlab {
namespace {

constexpr char kReplacementCharacter[] = "\xEF\xBF\xBD";

void AddSteps(const JsonValue& json, const std::string& path, std::vector<DecoderStep>* steps) {
  const std::string type = RequireType(json, path);
  DecoderStep step{};
  if (type == "Sequence") {
    const JsonValue& list = RequireMember(json, path, "decoders", JsonValue::Kind::kArray);
    for (size_t i = 0; i < list.items.size(); ++i) {
      AddSteps(list.items[i], path + ".decoders[" + std::to_string(i) + "]", steps);
    }
    return;
  } else if (type == "ByteLevel") {
    step.kind = DecoderStep::Kind::kByteLevel;
  } else if (type == "Replace") {
    step.kind = DecoderStep::Kind::kReplace;
    step.pattern = LiteralPattern(RequireMember(json, path, "pattern", JsonValue::Kind::kObject), path + ".pattern");
    if (step.pattern.empty()) RefuseAt(path + ".pattern", "a Replace with an empty pattern is not supported");
    step.content = RequireMember(json, path, "content", JsonValue::Kind::kString).string;
  } else if (type == "Metaspace") {
    step.kind = DecoderStep::Kind::kMetaspace;
    step.content = RequireMember(json, path, "replacement", JsonValue::Kind::kString).string;
    if (step.content.empty() || DecodeUtf8At(step.content, 0).length != step.content.size()) {
      RefuseAt(path + ".replacement", "expected one character");
    }
    const JsonValue* scheme = json.Find("prepend_scheme");
    step.prepended = scheme != nullptr && scheme->IsString() ? scheme->string != "never"
                                                             : OptionalBoolean(json, path, "add_prefix_space", true);
  } else if (type == "ByteFallback") {
    step.kind = DecoderStep::Kind::kByteFallback;
  } else if (type == "Fuse") {
    step.kind = DecoderStep::Kind::kFuse;
  } else if (type == "Strip") {
    step.kind = DecoderStep::Kind::kStrip;
    step.content = RequireMember(json, path, "content", JsonValue::Kind::kString).string;
    if (step.content.empty() || DecodeUtf8At(step.content, 0).length != step.content.size()) {
      RefuseAt(path + ".content", "expected one character");
    }
    for (const char* key : {"start", "stop"}) {
      const JsonValue& count = RequireMember(json, path, key, JsonValue::Kind::kNumber);
      if (!count.IsUnsigned() || count.uint_value > 1000000) RefuseAt(path + "." + key, "expected a count up to 10^6");
      (std::string(key) == "start" ? step.start : step.stop) = static_cast<uint32_t>(count.uint_value);
    }
  } else {
    RefuseAt(path, "the decoder \"" + type +
                       "\" is not supported (supported: ByteLevel, Replace, ByteFallback, "
                       "Fuse, Strip, Sequence)");
  }
  steps->push_back(std::move(step));
}

void ByteFallbackStep(std::vector<std::string>* tokens) {
  std::vector<std::string> out;
  std::string bytes;
  auto flush = [&] {
    if (bytes.empty()) return;
    if (IsValidUtf8(bytes)) {
      out.push_back(bytes);
    } else {
      // The Rust crate writes one U+FFFD per byte (Tokenizers.js' TextDecoder one per invalid sequence).
      for (size_t i = 0; i < bytes.size(); ++i) out.emplace_back(kReplacementCharacter);
    }
    bytes.clear();
  };
  for (std::string& token : *tokens) {
    const int byte = FallbackByte(token);
    if (byte >= 0) {
      bytes += static_cast<char>(byte);
    } else {
      flush();
      out.push_back(std::move(token));
    }
  }
  flush();
  tokens->swap(out);
}

// The Rust crate's Strip: at most `start` copies of the character from the start and `stop` from the end, found
// at the two ends only (the character is whole, so a match of its bytes at the end is that character).
void StripStep(const DecoderStep& step, std::vector<std::string>* tokens) {
  const std::string_view content = step.content;
  for (std::string& token : *tokens) {
    const std::string_view text = token;
    size_t begin = 0;
    for (uint32_t k = 0; k < step.start && text.substr(begin, content.size()) == content; ++k) begin += content.size();
    size_t end = text.size();
    for (uint32_t k = 0;
         k < step.stop && end >= begin + content.size() && text.substr(end - content.size(), content.size()) == content;
         ++k) {
      end -= content.size();
    }
    if (begin > 0 || end < text.size()) token = token.substr(begin, end - begin);
  }
}

}  // namespace

std::string ReplaceAll(std::string_view text, std::string_view pattern, std::string_view content) {
  std::string out;
  size_t done = 0;
  for (size_t at = text.find(pattern); at != std::string_view::npos; at = text.find(pattern, done)) {
    out.append(text.substr(done, at - done)).append(content);
    done = at + pattern.size();
  }
  return out.append(text.substr(done));
}

// The byte of a "<0xNN>" token as Rust's u8::from_str_radix reads NN (which takes "+F" too), or -1.
int FallbackByte(std::string_view token) {
  if (token.size() != 6 || token.substr(0, 3) != "<0x" || token[5] != '>') return -1;
  auto hex = [](char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  if (token[3] == '+') return hex(token[4]);
  const int high = hex(token[3]);
  const int low = hex(token[4]);
  return high < 0 || low < 0 ? -1 : high * 16 + low;
}

// A token's bytes under the ByteLevel decoder: its characters mapped back, or its own UTF-8 when one is not in
// the alphabet (the Rust crate; Tokenizers.js would write a 0 byte for it).
void AppendByteLevelBytes(std::string_view token, std::string* out) {
  std::string bytes;
  if (ByteLevelBytes(token, &bytes)) {
    out->append(bytes);
  } else {
    out->append(token);
  }
}

Decoder Decoder::FromJson(const JsonValue& json, const std::string& path) {
  std::vector<DecoderStep> steps;
  if (json.kind != JsonValue::Kind::kNull) AddSteps(json, path, &steps);
  return Decoder(std::move(steps));
}

std::string Decoder::Decode(std::vector<std::string> tokens) const {
  if (steps_.empty()) {
    std::string out;
    for (size_t i = 0; i < tokens.size(); ++i) out.append(i > 0 ? " " : "").append(tokens[i]);
    return out;
  }
  for (const DecoderStep& step : steps_) {
    switch (step.kind) {
      case DecoderStep::Kind::kByteLevel: {
        std::string bytes;
        for (const std::string& token : tokens) AppendByteLevelBytes(token, &bytes);
        tokens.assign(1, LossyUtf8(bytes));
        break;
      }
      case DecoderStep::Kind::kReplace:
        for (std::string& token : tokens) token = ReplaceAll(token, step.pattern, step.content);
        break;
      case DecoderStep::Kind::kByteFallback:
        ByteFallbackStep(&tokens);
        break;
      case DecoderStep::Kind::kFuse: {
        std::string joined;
        for (const std::string& token : tokens) joined += token;
        tokens.assign(1, std::move(joined));
        break;
      }
      case DecoderStep::Kind::kStrip:
        StripStep(step, &tokens);
        break;
      case DecoderStep::Kind::kMetaspace:
        // The Rust crate: the replacement becomes a space, except in the first token, which drops every one of
        // them unless prepend_scheme is "never" (Tokenizers.js drops only a leading space of the first token).
        for (size_t i = 0; i < tokens.size(); ++i) {
          tokens[i] = ReplaceAll(tokens[i], step.content, i == 0 && step.prepended ? "" : " ");
        }
        break;
    }
  }
  std::string out;
  for (const std::string& token : tokens) out += token;
  return out;
}

std::string Decoder::TokenBytes(std::string_view token) const {
  std::string text(token);
  for (const DecoderStep& step : steps_) {
    if (step.kind == DecoderStep::Kind::kByteLevel) {
      std::string bytes;
      AppendByteLevelBytes(text, &bytes);
      text = std::move(bytes);
    } else if (step.kind == DecoderStep::Kind::kReplace) {
      text = ReplaceAll(text, step.pattern, step.content);
    } else if (step.kind == DecoderStep::Kind::kMetaspace) {
      text = ReplaceAll(text, step.content, " ");
    } else if (step.kind == DecoderStep::Kind::kByteFallback) {
      const int byte = FallbackByte(text);
      if (byte >= 0) text = std::string(1, static_cast<char>(byte));
    }
  }
  return text;
}

namespace {

constexpr std::pair<std::string_view, std::string_view> kCleanUpRules[] = {
    {" .", "."},     {" ?", "?"},   {" !", "!"},   {" ,", ","},     {" ' ", "'"},
    {" n't", "n't"}, {" 'm", "'m"}, {" 's", "'s"}, {" 've", "'ve"}, {" 're", "'re"}};

}  // namespace

std::string CleanUpTokenizationSpacesInTurn(std::string text) {
  for (const auto& [from, to] : kCleanUpRules) {
    if (text.find(from) != std::string::npos) text = ReplaceAll(text, from, to);
  }
  return text;
}

// Every rule drops the space it starts with, and at most one rule matches at a position, so one pass left to right
// gives what the rules in turn give, except where " ' " -> "'" makes or hides another rule's match: after a space
// or an "n" (" n ' t" -> " n't" -> "n't"), or before one of " ." " ?" " !" " ," (which run first and take its last
// space). There the rules run in turn.
std::string CleanUpTokenizationSpaces(std::string text) {
  size_t at = text.find(' ');
  if (at == std::string::npos) return text;
  std::string out;
  size_t done = 0;
  for (; at != std::string::npos; at = text.find(' ', at)) {
    const char next = at + 1 < text.size() ? text[at + 1] : '\0';
    if (next != '.' && next != '?' && next != '!' && next != ',' && next != '\'' && next != 'n') {
      ++at;  // most spaces start no rule: their next character is not one a rule has there
      continue;
    }
    const std::string_view rest = std::string_view(text).substr(at);
    const std::pair<std::string_view, std::string_view>* rule = nullptr;
    for (const auto& candidate : kCleanUpRules) {
      if (rest.substr(0, candidate.first.size()) == candidate.first) {
        rule = &candidate;
        break;
      }
    }
    if (rule == nullptr) {
      ++at;
      continue;
    }
    if (rule->first == " ' ") {
      const char before = at > 0 ? text[at - 1] : '\0';
      const char after = rest.size() > 3 ? rest[3] : '\0';
      if (before == ' ' || before == 'n' || after == '.' || after == '?' || after == '!' || after == ',') {
        return CleanUpTokenizationSpacesInTurn(std::move(text));
      }
    }
    out.append(text, done, at - done).append(rule->second);
    at += rule->first.size();
    done = at;
  }
  if (done == 0) return text;
  out.append(text, done, std::string::npos);
  return out;
}

std::string LossyUtf8(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  const size_t n = bytes.size();
  for (size_t i = 0; i < n;) {
    const DecodedCodePoint d = DecodeUtf8At(bytes, i);
    if (d.code_point < kInvalidByteBase) {
      out.append(bytes.substr(i, d.length));
      i += d.length;
      continue;
    }
    // A maximal subpart: a lead byte and the continuation bytes that may still follow it (Unicode 3.9, U+FFFD
    // substitution of maximal subparts), at least one byte.
    const uint8_t lead = p[i];
    size_t length = 1;
    size_t need = lead >= 0xF0 && lead <= 0xF4   ? 3
                  : lead >= 0xE0 && lead <= 0xEF ? 2
                  : lead >= 0xC2 && lead <= 0xDF ? 1
                                                 : 0;
    for (size_t k = 1; k <= need && i + k < n; ++k) {
      const uint8_t c = p[i + k];
      uint8_t low = 0x80, high = 0xBF;
      if (k == 1 && lead == 0xE0) low = 0xA0;
      if (k == 1 && lead == 0xED) high = 0x9F;
      if (k == 1 && lead == 0xF0) low = 0x90;
      if (k == 1 && lead == 0xF4) high = 0x8F;
      if (c < low || c > high) break;
      length = k + 1;
    }
    out += kReplacementCharacter;
    i += length;
  }
  return out;
}

}  // namespace embedlab
