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

void StripStep(const DecoderStep& step, std::vector<std::string>* tokens) {
  for (std::string& token : *tokens) {
    std::vector<size_t> starts;  // character starts
    for (size_t pos = 0; pos < token.size(); pos += DecodeUtf8At(token, pos).length) starts.push_back(pos);
    starts.push_back(token.size());
    const size_t chars = starts.size() - 1;
    auto is_content = [&](size_t c) { return token.compare(starts[c], starts[c + 1] - starts[c], step.content) == 0; };
    size_t start_cut = 0;
    while (start_cut < step.start && start_cut < chars && is_content(start_cut)) ++start_cut;
    size_t stop_cut = chars;
    while (chars - stop_cut < step.stop && stop_cut > start_cut && is_content(stop_cut - 1)) --stop_cut;
    token = token.substr(starts[start_cut], starts[stop_cut] - starts[start_cut]);
  }
}

}  // namespace

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

std::string CleanUpTokenizationSpaces(std::string text) {
  static const std::pair<const char*, const char*> kRules[] = {
      {" .", "."},     {" ?", "?"},   {" !", "!"},   {" ,", ","},     {" ' ", "'"},
      {" n't", "n't"}, {" 'm", "'m"}, {" 's", "'s"}, {" 've", "'ve"}, {" 're", "'re"}};
  for (const auto& [from, to] : kRules) {
    if (text.find(from) != std::string::npos) text = ReplaceAll(text, from, to);
  }
  return text;
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
