#include "bpe/vocabulary.h"

#include <cstring>
#include <stdexcept>

namespace embedlab {
namespace {

// A multiply-xorshift hash over 8-byte words: tokens are short, so the loop runs once or twice.
uint64_t HashBytes(const char* data, size_t size) {
  uint64_t h = 0x9E3779B97F4A7C15ull ^ (size * 0xD6E8FEB86659FD93ull);
  while (size >= 8) {
    uint64_t word;
    std::memcpy(&word, data, 8);
    h = (h ^ word) * 0xFF51AFD7ED558CCDull;
    h ^= h >> 32;
    data += 8;
    size -= 8;
  }
  if (size > 0) {
    uint64_t word = 0;
    for (size_t i = 0; i < size; ++i) word |= static_cast<uint64_t>(static_cast<uint8_t>(data[i])) << (8 * i);
    h = (h ^ word) * 0xC4CEB9FE1A85EC53ull;
  }
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 32;
  return h;
}

std::string Printable(std::string_view bytes) {
  std::string out;
  for (unsigned char c : bytes) {
    if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
    } else {
      static const char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

}  // namespace

void Vocabulary::Reserve(size_t tokens, size_t total_bytes) {
  arena_.reserve(total_bytes);
  size_t capacity = 16;
  while (capacity < 2 * tokens) capacity *= 2;
  if (capacity > slots_.size()) {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(capacity, Slot{0, 0, 0, kNoRank});
    for (const Slot& s : old) {
      if (s.rank != kNoRank) Insert(HashBytes(arena_.data() + s.start, s.length), s.start, s.length, s.rank);
    }
  }
}

void Vocabulary::Grow() { Reserve(slots_.empty() ? 8 : slots_.size(), arena_.size()); }

void Vocabulary::Insert(uint64_t hash, uint32_t start, uint32_t length, uint32_t rank) {
  const size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    if (slots_[i].rank == kNoRank) {
      slots_[i] = Slot{static_cast<uint32_t>(hash >> 32), start, length, rank};
      return;
    }
  }
}

uint32_t Vocabulary::LookUp(const char* data, size_t size) const {
  if (slots_.empty()) return kNoRank;
  const uint64_t hash = HashBytes(data, size);
  const uint32_t tag = static_cast<uint32_t>(hash >> 32);
  const size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    const Slot& s = slots_[i];
    if (s.rank == kNoRank) return kNoRank;
    if (s.hash_tag == tag && s.length == size && std::memcmp(arena_.data() + s.start, data, size) == 0) {
      return s.rank;
    }
  }
}

void Vocabulary::Add(std::string_view bytes, uint32_t rank) {
  if (bytes.empty()) throw std::invalid_argument("vocabulary: a token must have at least one byte");
  if (rank == kNoRank) throw std::out_of_range("vocabulary: rank must be below 4294967295");
  if (Rank(bytes) != kNoRank) {
    throw std::invalid_argument("vocabulary: token '" + Printable(bytes) + "' appears twice (ranks " +
                                std::to_string(Rank(bytes)) + " and " + std::to_string(rank) + ")");
  }
  if (HasRank(rank)) {
    throw std::invalid_argument("vocabulary: rank " + std::to_string(rank) + " is given to two tokens");
  }
  if (arena_.size() + bytes.size() > 0xFFFFFFF0u) throw std::out_of_range("vocabulary: more than 4 GB of tokens");
  if (2 * (token_count_ + 1) > slots_.size()) Grow();
  const auto start = static_cast<uint32_t>(arena_.size());
  arena_.append(bytes.data(), bytes.size());
  Insert(HashBytes(bytes.data(), bytes.size()), start, static_cast<uint32_t>(bytes.size()), rank);
  if (rank >= token_start_.size()) {
    token_start_.resize(rank + 1, kNoRank);
    token_length_.resize(rank + 1, 0);
  }
  token_start_[rank] = start;
  token_length_[rank] = static_cast<uint32_t>(bytes.size());
  if (bytes.size() == 1) byte_rank_[static_cast<uint8_t>(bytes[0])] = rank;
  if (bytes.size() == 2) {
    pair_rank_[(static_cast<uint8_t>(bytes[0]) << 8) | static_cast<uint8_t>(bytes[1])] = rank;
  }
  ++token_count_;
}

}  // namespace embedlab
