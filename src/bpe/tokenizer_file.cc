#include "bpe/tokenizer_file.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "bpe/tiktoken_file.h"

namespace embedlab {
namespace {

constexpr std::string_view kTextPrefix = "#embedlab-bpe ";
constexpr std::string_view kBinaryPrefix = "#embedlab-bpe-binary ";

std::string HeaderLine(std::string_view prefix, const Tokenizer& tokenizer) {
  nlohmann::json header;
  header["format"] = 1;
  header["name"] = tokenizer.encoding_name();
  header["pattern"] = tokenizer.pattern_name();
  header["special_tokens"] = nlohmann::json::object();
  for (const SpecialToken& t : tokenizer.special_tokens()) header["special_tokens"][t.text] = t.id;
  // Special tokens are text the user chose; invalid UTF-8 is replaced rather than failing the save.
  return std::string(prefix) + header.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

struct Header {
  PreTokenizerPattern pattern;
  std::vector<SpecialToken> special_tokens;
  std::string name = "trained";
};

Header ParseHeader(std::string_view text) {
  const nlohmann::json json = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
  if (json.is_discarded() || !json.is_object()) {
    throw std::invalid_argument("tokenizer file: the header is not a JSON object");
  }
  const auto format = json.find("format");
  if (format == json.end() || !format->is_number_integer() || format->get<int64_t>() != 1) {
    throw std::invalid_argument("tokenizer file: the header's \"format\" must be the number 1");
  }
  if (!json.contains("pattern") || !json["pattern"].is_string()) {
    throw std::invalid_argument("tokenizer file: the header has no \"pattern\" string");
  }
  Header header;
  header.pattern = PatternFromName(json["pattern"].get<std::string>());
  if (json.contains("special_tokens")) {
    const nlohmann::json& map = json["special_tokens"];
    if (!map.is_object()) throw std::invalid_argument("tokenizer file: \"special_tokens\" must be an object");
    for (auto it = map.begin(); it != map.end(); ++it) {
      if (!it.value().is_number_unsigned() || it.value().get<uint64_t>() >= Vocabulary::kNoRank) {
        throw std::invalid_argument("tokenizer file: the id of special token " + it.key() +
                                    " must be an integer in [0, 4294967294]");
      }
      header.special_tokens.push_back({it.key(), it.value().get<uint32_t>()});
    }
  }
  if (json.contains("name") && json["name"].is_string()) header.name = json["name"].get<std::string>();
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
