#include "bpe/tokenizer_file.h"

#include <map>
#include <optional>
#include <stdexcept>
#include <string>

#include "bpe/tiktoken_file.h"
#include "text/json_value.h"

namespace embedlab {
namespace {

constexpr std::string_view kTextPrefix = "#embedlab-bpe ";
constexpr std::string_view kBinaryPrefix = "#embedlab-bpe-binary ";

std::string HeaderLine(std::string_view prefix, const Tokenizer& tokenizer) {
  // Keys in sorted order, compact, as nlohmann::json wrote them before. Special tokens are text the user chose;
  // invalid UTF-8 is replaced rather than failing the save.
  std::map<std::string, uint32_t> special_tokens;
  for (const SpecialToken& t : tokenizer.special_tokens()) special_tokens[t.text] = t.id;
  std::string line(prefix);
  line += "{\"format\":1,\"name\":" + QuoteJson(tokenizer.encoding_name()) +
          ",\"pattern\":" + QuoteJson(tokenizer.pattern_name()) + ",\"special_tokens\":{";
  bool first = true;
  for (const auto& [text, id] : special_tokens) {
    line += (first ? "" : ",") + QuoteJson(text) + ":" + std::to_string(id);
    first = false;
  }
  return line + "}}\n";
}

struct Header {
  PreTokenizerPattern pattern;
  std::vector<SpecialToken> special_tokens;
  std::string name = "trained";
};

Header ParseHeader(std::string_view text) {
  const std::optional<JsonValue> json = ParseJson(text);
  if (!json || !json->IsObject()) {
    throw std::invalid_argument("tokenizer file: the header is not a JSON object");
  }
  const JsonValue* format = json->Find("format");
  if (format == nullptr || !format->IsInteger() || format->negative || format->uint_value != 1) {
    throw std::invalid_argument("tokenizer file: the header's \"format\" must be the number 1");
  }
  const JsonValue* pattern = json->Find("pattern");
  if (pattern == nullptr || !pattern->IsString()) {
    throw std::invalid_argument("tokenizer file: the header has no \"pattern\" string");
  }
  Header header;
  header.pattern = PatternFromName(pattern->string);
  if (const JsonValue* map = json->Find("special_tokens")) {
    if (!map->IsObject()) throw std::invalid_argument("tokenizer file: \"special_tokens\" must be an object");
    for (const auto& [text, id] : map->members) {
      if (!id.IsUnsigned() || id.uint_value >= Vocabulary::kNoRank) {
        throw std::invalid_argument("tokenizer file: the id of special token " + text +
                                    " must be an integer in [0, 4294967294]");
      }
      header.special_tokens.push_back({text, static_cast<uint32_t>(id.uint_value)});
    }
  }
  if (const JsonValue* name = json->Find("name"); name != nullptr && name->IsString()) header.name = name->string;
  return header;
}

}  // namespace

std::string SaveTokenizerFile(const Tokenizer& tokenizer) {
  return HeaderLine(kTextPrefix, tokenizer) + FormatTiktokenFile(tokenizer.vocabulary());
}

std::string SaveTokenizerBinary(const Tokenizer& tokenizer) {
  return HeaderLine(kBinaryPrefix, tokenizer) + tokenizer.vocabulary().ToBinary();
}

Tokenizer LoadTokenizerFile(std::string_view contents) {
  const bool binary = contents.substr(0, kBinaryPrefix.size()) == kBinaryPrefix;
  const std::string_view prefix = binary ? kBinaryPrefix : kTextPrefix;
  if (contents.substr(0, prefix.size()) != prefix) {
    throw std::invalid_argument(
        "tokenizer file: the first line must start with '#embedlab-bpe ' (for a plain .tiktoken file, load "
        "it with an encoding name)");
  }
  const size_t eol = std::min(contents.find('\n'), contents.size());
  Header header = ParseHeader(contents.substr(prefix.size(), eol - prefix.size()));
  const std::string_view body = contents.substr(std::min(eol + 1, contents.size()));
  return Tokenizer(binary ? Vocabulary::FromBinary(body) : ParseTiktokenFile(body), header.pattern,
                   std::move(header.special_tokens), std::move(header.name));
}

}  // namespace embedlab
