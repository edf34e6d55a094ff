#include "bpe/gpt2_vocabulary_file.h"

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "text/json_value.h"
#include "text/line_reader.h"
#include "text/utf8.h"

namespace embedlab {
namespace {

bool PrintsAsItself(int b) { return b > 32 && !(b >= 127 && b <= 160) && b != 173; }

// Code point (< 512) -> byte, or -1.
std::vector<int> ByteOfCharacter() {
  std::vector<int> byte_of(512, -1);
  int n = 0;
  for (int b = 0; b < 256; ++b) byte_of[PrintsAsItself(b) ? b : 256 + n++] = b;
  return byte_of;
}

std::string Unspell(std::string_view spelled, const std::vector<int>& byte_of) {
  std::string bytes;
  for (size_t pos = 0; pos < spelled.size();) {
    const DecodedCodePoint d = DecodeUtf8At(spelled, pos);
    if (d.code_point >= byte_of.size() || byte_of[d.code_point] < 0) {
      throw std::invalid_argument("GPT-2 vocabulary: '" + std::string(spelled) +
                                  "' holds a character that spells no byte");
    }
    bytes += static_cast<char>(byte_of[d.code_point]);
    pos += d.length;
  }
  return bytes;
}

}  // namespace

Vocabulary ParseGpt2Vocabulary(std::string_view encoder_json, std::string_view vocab_bpe) {
  const std::optional<JsonValue> encoder = ParseJson(encoder_json);
  if (!encoder || !encoder->IsObject()) {
    throw std::invalid_argument("GPT-2 vocabulary: encoder.json is not a JSON object");
  }
  const std::vector<int> byte_of = ByteOfCharacter();
  Vocabulary vocabulary;
  vocabulary.Reserve(encoder->members.size(), encoder_json.size());
  for (const auto& [spelled, id] : encoder->members) {
    if (spelled == "<|endoftext|>" || spelled == "<|startoftext|>") continue;
    if (!id.IsUnsigned()) {
      throw std::invalid_argument("GPT-2 vocabulary: the id of '" + spelled + "' is not a non-negative integer");
    }
    if (id.uint_value > Vocabulary::kMaxRank) {
      throw std::invalid_argument("GPT-2 vocabulary: the id of '" + spelled + "' is above 16777215");
    }
    vocabulary.Add(Unspell(spelled, byte_of), static_cast<uint32_t>(id.uint_value));
  }
  uint32_t rank = 256;
  LineReader lines_of(vocab_bpe);
  std::string_view line;
  while (lines_of.Next(&line)) {
    const size_t line_number = lines_of.number();
    // Only the first line is a header ("#version: 0.2"), as tiktoken reads the file: later lines may be
    // merges that start with '#' ("# #" makes "##").
    if (line.empty() || (line_number == 1 && line[0] == '#')) continue;
    const size_t space = line.find(' ');
    if (space == std::string_view::npos) {
      throw std::invalid_argument("GPT-2 vocabulary: line " + std::to_string(line_number) +
                                  " of vocab.bpe is not '<first> <second>'");
    }
    const std::string merged = Unspell(line.substr(0, space), byte_of) + Unspell(line.substr(space + 1), byte_of);
    if (vocabulary.Rank(merged) != rank) {
      throw std::invalid_argument("GPT-2 vocabulary: merge on line " + std::to_string(line_number) +
                                  " of vocab.bpe does not give the token of rank " + std::to_string(rank) +
                                  " in encoder.json");
    }
    ++rank;
  }
  return vocabulary;
}

}  // namespace embedlab
