// Vocabulary::ToBinary / FromBinary. Layout of EMBLVOC2 (integers little-endian):
//   "EMBLVOC2", u32 rank_end, u32 token_count, u32 (rank << 8 | length)[token_count],
//   then the bytes of those tokens, concatenated in the same order.
// Tokens are listed in order of their hash, so the loader fills the hash table front to back, one slot
// after another, instead of scattering 200k writes over 8 MB; a file in any other order still loads, by
// ordinary inserts. No base64 or decimal parsing: o200k is 2.2 MB instead of 3.6 MB as .tiktoken.
// EMBLVOC1 (u32 rank_end, u8 length[rank_end], bytes in rank order) still loads.
#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "bpe/token_hash.h"
#include "bpe/vocabulary.h"

namespace embedlab {
namespace {

constexpr char kMagicV1[8] = {'E', 'M', 'B', 'L', 'V', 'O', 'C', '1'};
constexpr char kMagicV2[8] = {'E', 'M', 'B', 'L', 'V', 'O', 'C', '2'};

void AppendU32(std::string* out, uint32_t value) {
  for (int shift = 0; shift < 32; shift += 8) *out += static_cast<char>((value >> shift) & 0xFF);
}

uint32_t ReadU32(const char* at) {
  uint32_t value = 0;
  for (int i = 0; i < 4; ++i) value |= static_cast<uint32_t>(static_cast<uint8_t>(at[i])) << (8 * i);
  return value;
}

[[noreturn]] void ThrowTruncated() { throw std::invalid_argument("binary vocabulary: the data is truncated"); }

// rank_end is one past the highest rank, as every other form of a vocabulary has it: unused ranks at the end
// would make the vocabulary larger than its own .tiktoken or tokenizer file says.
void CheckRankEnd(uint32_t rank_end, bool last_rank_used) {
  if (rank_end > 0 && !last_rank_used) {
    throw std::invalid_argument("binary vocabulary: \"rank_end\" " + std::to_string(rank_end) +
                                " is not one past the highest rank");
  }
}

}  // namespace

std::string Vocabulary::ToBinary() const {
  std::vector<std::pair<uint64_t, uint32_t>> by_hash;  // (hash, rank)
  by_hash.reserve(token_count_);
  for (uint32_t rank = 0; rank < rank_end(); ++rank) {
    if (!HasRank(rank)) continue;
    const std::string_view bytes = Bytes(rank);
    by_hash.emplace_back(HashOf(bytes.data(), bytes.size()), rank);
  }
  std::sort(by_hash.begin(), by_hash.end());
  std::string out(kMagicV2, sizeof(kMagicV2));
  AppendU32(&out, rank_end());
  AppendU32(&out, static_cast<uint32_t>(by_hash.size()));
  for (const auto& [hash, rank] : by_hash) AppendU32(&out, rank << 8 | spans_[rank].length);
  for (const auto& [hash, rank] : by_hash) out += Bytes(rank);
  return out;
}

Vocabulary Vocabulary::FromBinary(std::string_view data) {
  if (data.size() >= 12 && std::memcmp(data.data(), kMagicV1, 8) == 0) return FromBinaryV1(data);
  // A prefix of a header (the empty file included) is a truncated file, not a file of another kind.
  if (data.size() < 16 && std::string_view(kMagicV2, 8).substr(0, data.size()) == data.substr(0, 8)) {
    ThrowTruncated();
  }
  if (data.size() < 16 || std::memcmp(data.data(), kMagicV2, 8) != 0) {
    throw std::invalid_argument("binary vocabulary: not an EMBLVOC2 (or EMBLVOC1) file");
  }
  const uint32_t ranks = ReadU32(data.data() + 8);
  const uint32_t tokens = ReadU32(data.data() + 12);
  if (ranks > kMaxRank + 1) throw std::invalid_argument("binary vocabulary: \"rank_end\" is above 2^24");
  if (tokens > ranks) throw std::invalid_argument("binary vocabulary: more tokens than ranks");
  if ((data.size() - 16) / 4 < tokens) ThrowTruncated();
  const char* records = data.data() + 16;
  size_t total = 0;
  for (uint32_t k = 0; k < tokens; ++k) {
    const uint32_t record = ReadU32(records + 4 * size_t{k});
    const uint32_t rank = record >> 8;
    if ((record & 0xFF) == 0) throw std::invalid_argument("binary vocabulary: a token has no bytes");
    if (rank >= ranks) {
      throw std::invalid_argument("binary vocabulary: rank " + std::to_string(rank) + " is not below \"rank_end\" " +
                                  std::to_string(ranks));
    }
    total += record & 0xFF;
  }
  const std::string_view bytes = data.substr(16 + 4 * size_t{tokens});
  if (bytes.size() != total) {
    throw std::invalid_argument("binary vocabulary: the token bytes do not match the lengths");
  }

  Vocabulary v;
  v.arena_.assign(bytes.data(), bytes.size());
  v.spans_.assign(ranks, Span{0, 0});
  v.Reserve(tokens, total);
  HashOrderFill fill;
  uint32_t start = 0;
  for (uint32_t k = 0; k < tokens; ++k) {
    const uint32_t record = ReadU32(records + 4 * size_t{k});
    const uint32_t rank = record >> 8, length = record & 0xFF;
    if (v.spans_[rank].length != 0) {
      throw std::invalid_argument("binary vocabulary: rank " + std::to_string(rank) + " is given to two tokens");
    }
    v.spans_[rank] = Span{start, length};
    ++v.token_count_;
    const char* token = v.arena_.data() + start;
    const uint64_t prefix = LoadPrefix(token, length);
    const uint32_t existing = v.IndexNext(&fill, HashBytes(prefix, token, length), prefix, start, length, rank);
    if (existing != kNoRank) v.ThrowDuplicate(rank, existing);
    start += length;
  }
  CheckRankEnd(ranks, ranks > 0 && v.HasRank(ranks - 1));
  return v;
}

Vocabulary Vocabulary::FromBinaryV1(std::string_view data) {
  const uint32_t ranks = ReadU32(data.data() + 8);
  if (ranks > kMaxRank + 1 || data.size() - 12 < ranks) ThrowTruncated();
  const auto* lengths = reinterpret_cast<const uint8_t*>(data.data() + 12);
  CheckRankEnd(ranks, ranks > 0 && lengths[ranks - 1] != 0);
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
  v.spans_.reserve(ranks);
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
