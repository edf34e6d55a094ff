#include "bpe/tokenizer_file.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "bpe/tiktoken_file.h"

namespace embedlab {
namespace {

constexpr std::string_view kHeaderPrefix = "#embedlab-bpe ";

}  // namespace

std::string SaveTokenizerFile(const Tokenizer& tokenizer) {
  nlohmann::json header;
  header["format"] = 1;
  header["name"] = tokenizer.encoding_name();
  header["pattern"] = tokenizer.pattern_name();
  header["special_tokens"] = nlohmann::json::object();
  for (const SpecialToken& t : tokenizer.special_tokens()) header["special_tokens"][t.text] = t.id;
  // Special tokens are text the user chose; invalid UTF-8 is replaced rather than failing the save.
  std::string out = std::string(kHeaderPrefix) + header.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  out += '\n';
  out += FormatTiktokenFile(tokenizer.vocabulary());
  return out;
}

Tokenizer LoadTokenizerFile(std::string_view contents) {
  if (contents.substr(0, kHeaderPrefix.size()) != kHeaderPrefix) {
    throw std::invalid_argument(
        "tokenizer file: the first line must start with '#embedlab-bpe ' (for a plain .tiktoken file, load "
        "it with an encoding name)");
  }
  const size_t eol = std::min(contents.find('\n'), contents.size());
  const std::string_view header_text = contents.substr(kHeaderPrefix.size(), eol - kHeaderPrefix.size());
  nlohmann::json header = nlohmann::json::parse(header_text.begin(), header_text.end(), nullptr, false);
  if (header.is_discarded() || !header.is_object()) {
    throw std::invalid_argument("tokenizer file: the header is not a JSON object");
  }
  if (header.value("format", 0) != 1) throw std::invalid_argument("tokenizer file: unsupported format (want 1)");
  if (!header.contains("pattern") || !header["pattern"].is_string()) {
    throw std::invalid_argument("tokenizer file: the header has no \"pattern\" string");
  }
  const PreTokenizerPattern pattern = PatternFromName(header["pattern"].get<std::string>());
  std::vector<SpecialToken> specials;
  if (header.contains("special_tokens")) {
    const nlohmann::json& map = header["special_tokens"];
    if (!map.is_object()) throw std::invalid_argument("tokenizer file: \"special_tokens\" must be an object");
    for (auto it = map.begin(); it != map.end(); ++it) {
      if (!it.value().is_number_unsigned() || it.value().get<uint64_t>() >= Vocabulary::kNoRank) {
        throw std::invalid_argument("tokenizer file: the id of special token " + it.key() +
                                    " must be an integer in [0, 4294967294]");
      }
      specials.push_back({it.key(), it.value().get<uint32_t>()});
    }
  }
  std::string name = "trained";
  if (header.contains("name") && header["name"].is_string()) name = header["name"].get<std::string>();
  return Tokenizer(ParseTiktokenFile(contents.substr(std::min(eol + 1, contents.size()))), pattern,
                   std::move(specials), std::move(name));
}

}  // namespace embedlab
