// Vocabulary::ToBinary / FromBinary. Layout:
//   "EMBLVOC1", u32 rank_end (little-endian), u8 length[rank_end] (0 for an unused rank),
//   then the bytes of every token in rank order.
// Smaller than .tiktoken (no base64, no decimal ranks: o200k is 1.6 MB instead of 3.6 MB) and faster to
// load; the hash table is rebuilt on load rather than stored, since storing it would triple the size.
#include <cstring>
#include <stdexcept>

#include "bpe/vocabulary.h"

namespace embedlab {
namespace {

constexpr char kMagic[8] = {'E', 'M', 'B', 'L', 'V', 'O', 'C', '1'};

}  // namespace

std::string Vocabulary::ToBinary() const {
  std::string out(kMagic, sizeof(kMagic));
  const uint32_t ranks = rank_end();
  for (int shift = 0; shift < 32; shift += 8) out += static_cast<char>((ranks >> shift) & 0xFF);
  for (uint32_t rank = 0; rank < ranks; ++rank) {
    out += static_cast<char>(HasRank(rank) ? token_length_[rank] : 0);
  }
  for (uint32_t rank = 0; rank < ranks; ++rank) {
    if (HasRank(rank)) out += Bytes(rank);
  }
  return out;
}

Vocabulary Vocabulary::FromBinary(std::string_view data) {
  if (data.size() < 12 || std::memcmp(data.data(), kMagic, 8) != 0) {
    throw std::invalid_argument("binary vocabulary: not an EMBLVOC1 file");
  }
  uint32_t ranks = 0;
  for (int i = 0; i < 4; ++i) ranks |= static_cast<uint32_t>(static_cast<uint8_t>(data[8 + i])) << (8 * i);
  if (ranks > kMaxRank + 1 || data.size() - 12 < ranks) {
    throw std::invalid_argument("binary vocabulary: the data is truncated");
  }
  const auto* lengths = reinterpret_cast<const uint8_t*>(data.data() + 12);
  size_t tokens = 0, total = 0;
  for (uint32_t rank = 0; rank < ranks; ++rank) {
    tokens += lengths[rank] != 0;
    total += lengths[rank];
  }
  const std::string_view bytes = data.substr(12 + size_t{ranks});
  if (bytes.size() != total) {
    throw std::invalid_argument("binary vocabulary: the token bytes do not match the lengths");
  }
  Vocabulary v;
  v.Reserve(tokens, total);
  v.token_start_.reserve(ranks);
  v.token_length_.reserve(ranks);
  size_t pos = 0;
  for (uint32_t rank = 0; rank < ranks; ++rank) {
    if (lengths[rank] == 0) continue;
    v.AddDeferred(bytes.substr(pos, lengths[rank]), rank);  // validates, as for any other source
    pos += lengths[rank];
  }
  v.FinishDeferred();
  return v;
}

}  // namespace embedlab
