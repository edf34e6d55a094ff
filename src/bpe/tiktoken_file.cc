#include "bpe/tiktoken_file.h"

#include <algorithm>
#include <stdexcept>

#include "bpe/base64.h"
#include "text/line_reader.h"

namespace embedlab {
namespace {

[[noreturn]] void Malformed(size_t line_number, const std::string& why) {
  throw std::invalid_argument("vocabulary: line " + std::to_string(line_number) + " of the tiktoken data " + why);
}

}  // namespace

Vocabulary ParseTiktokenFile(std::string_view contents) {
  Vocabulary vocabulary;
  // One token per line: reserving exactly avoids rehashing 200k tokens and oversizing the table.
  const auto lines = static_cast<size_t>(std::count(contents.begin(), contents.end(), '\n')) + 1;
  vocabulary.Reserve(lines, contents.size() * 3 / 4);
  std::string bytes;
  LineReader lines_of(contents);
  std::string_view line;
  while (lines_of.Next(&line)) {
    const size_t line_number = lines_of.number();
    if (line.empty()) continue;
    const size_t space = line.find(' ');
    if (space == std::string_view::npos) Malformed(line_number, "has no space");
    if (!DecodeBase64(line.substr(0, space), &bytes)) Malformed(line_number, "has invalid base64");
    const std::string_view digits = line.substr(space + 1);
    if (digits.empty() || digits.size() > 9) Malformed(line_number, "has no valid rank");
    uint64_t rank = 0;
    for (char c : digits) {
      if (c < '0' || c > '9') Malformed(line_number, "has a rank that is not a decimal number");
      rank = rank * 10 + static_cast<uint64_t>(c - '0');
    }
    if (rank > Vocabulary::kMaxRank) Malformed(line_number, "has a rank above 16777215");
    try {
      vocabulary.AddDeferred(bytes, static_cast<uint32_t>(rank));
    } catch (const std::exception& e) {
      Malformed(line_number, std::string("is rejected: ") + e.what());
    }
  }
  vocabulary.FinishDeferred();
  return vocabulary;
}

Vocabulary ParseTiktokenNpmRanks(std::string_view bpe_ranks) {
  Vocabulary vocabulary;
  const auto spaces = static_cast<size_t>(std::count(bpe_ranks.begin(), bpe_ranks.end(), ' '));
  vocabulary.Reserve(spaces, bpe_ranks.size() * 3 / 4);
  std::string bytes;
  LineReader lines_of(bpe_ranks);
  std::string_view line;
  while (lines_of.Next(&line)) {
    const size_t line_number = lines_of.number();
    if (line.empty()) continue;
    auto next_field = [&line]() {
      const size_t space = std::min(line.find(' '), line.size());
      const std::string_view field = line.substr(0, space);
      line.remove_prefix(std::min(space + 1, line.size()));
      return field;
    };
    next_field();  // a label that tiktoken ignores
    const std::string_view first = next_field();
    uint64_t rank = 0;
    if (first.empty() || first.size() > 9) Malformed(line_number, "has no valid first rank");
    for (char c : first) {
      if (c < '0' || c > '9') Malformed(line_number, "has a first rank that is not a decimal number");
      rank = rank * 10 + static_cast<uint64_t>(c - '0');
    }
    while (!line.empty()) {
      if (!DecodeBase64(next_field(), &bytes)) Malformed(line_number, "has invalid base64");
      if (rank > Vocabulary::kMaxRank) Malformed(line_number, "has a rank above 16777215");
      try {
        vocabulary.AddDeferred(bytes, static_cast<uint32_t>(rank++));
      } catch (const std::exception& e) {
        Malformed(line_number, std::string("is rejected: ") + e.what());
      }
    }
  }
  vocabulary.FinishDeferred();
  return vocabulary;
}

std::string FormatTiktokenFile(const Vocabulary& vocabulary) {
  std::string out;
  for (uint32_t rank = 0; rank < vocabulary.rank_end(); ++rank) {
    if (!vocabulary.HasRank(rank)) continue;
    out += EncodeBase64(vocabulary.Bytes(rank));
    out += ' ';
    out += std::to_string(rank);
    out += '\n';
  }
  return out;
}

}  // namespace embedlab
