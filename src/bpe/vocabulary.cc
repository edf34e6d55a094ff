#include "bpe/vocabulary.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace embedlab {
namespace {

// The first min(8, size) bytes as a little-endian word. Fixed-size loads only: a variable-size memcpy is a
// library call in wasm.
inline uint64_t LoadPrefix(const char* data, size_t size) {
  const auto* p = reinterpret_cast<const uint8_t*>(data);
  if (size >= 8) {
    uint64_t word;
    std::memcpy(&word, p, 8);
    return word;
  }
  if (size >= 4) {
    uint32_t low, high;
    std::memcpy(&low, p, 4);
    std::memcpy(&high, p + size - 4, 4);  // overlaps low by 8 - size bytes, which hold the same values
    return low | (static_cast<uint64_t>(high) << (8 * (size - 4)));
  }
  uint64_t word = p[0];
  if (size >= 2) word |= static_cast<uint64_t>(p[1]) << 8;
  if (size == 3) word |= static_cast<uint64_t>(p[2]) << 16;
  return word;
}

// Bytes [8, size) of two strings of the same size > 8, with fixed-size loads (the last word overlaps the
// one before it): memcmp is a library call in wasm.
inline bool SameTail(const char* a, const char* b, size_t size) {
  uint64_t x, y;
  for (size_t i = 8; i + 8 < size; i += 8) {
    std::memcpy(&x, a + i, 8);
    std::memcpy(&y, b + i, 8);
    if (x != y) return false;
  }
  std::memcpy(&x, a + size - 8, 8);
  std::memcpy(&y, b + size - 8, 8);
  return x == y;
}

// Multiply-xorshift over the prefix and, for long tokens, the remaining 8-byte words. The table indexes by
// the top bits, which a multiplication mixes from every input bit (its low bits see only low input bits).
inline uint64_t HashBytes(uint64_t prefix, const char* data, size_t size) {
  uint64_t h = (prefix ^ (size * 0x9E3779B97F4A7C15ull)) * 0xFF51AFD7ED558CCDull;
  for (size_t i = 8; i < size; i += 8) {
    uint64_t word;
    if (i + 8 <= size) {
      std::memcpy(&word, data + i, 8);
    } else {
      word = LoadPrefix(data + i, size - i);
    }
    h = (h ^ (h >> 32) ^ word) * 0xC4CEB9FE1A85EC53ull;
  }
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
    slots_.assign(capacity, Slot{0, 0, 0});
    hash_shift_ = 64;
    for (size_t c = capacity; c > 1; c /= 2) --hash_shift_;
    for (const Slot& s : old) {
      if (s.rank_length != 0) Insert(s.start, s.rank_length & 0xFF, s.rank_length >> 8);  // never a duplicate
    }
  }
}

void Vocabulary::Grow() { Reserve(slots_.empty() ? 8 : slots_.size(), arena_.size()); }

uint32_t Vocabulary::Insert(uint32_t start, uint32_t length, uint32_t rank) {
  const char* data = arena_.data() + start;
  return InsertHashed(HashBytes(LoadPrefix(data, length), data, length), start, length, rank);
}

uint32_t Vocabulary::InsertHashed(uint64_t hash, uint32_t start, uint32_t length, uint32_t rank) {
  const char* data = arena_.data() + start;
  const uint64_t prefix = LoadPrefix(data, length);
  const size_t mask = slots_.size() - 1;
  for (size_t i = hash >> hash_shift_;; i = (i + 1) & mask) {
    Slot& s = slots_[i];
    if (s.rank_length == 0) {
      s = Slot{prefix, start, (rank << 8) | length};
      return kNoRank;
    }
    if (s.prefix == prefix && (s.rank_length & 0xFF) == length &&
        std::memcmp(arena_.data() + s.start, data, length) == 0) {
      return s.rank_length >> 8;
    }
  }
}

uint32_t Vocabulary::LookUp(const char* data, size_t size) const noexcept {
  if (slots_.empty() || size > kMaxTokenBytes || size == 0) return kNoRank;
  const uint64_t prefix = LoadPrefix(data, size);
  const size_t mask = slots_.size() - 1;
  for (size_t i = HashBytes(prefix, data, size) >> hash_shift_;; i = (i + 1) & mask) {
    const Slot& s = slots_[i];
    if (s.rank_length == 0) return kNoRank;
    if (s.prefix == prefix && (s.rank_length & 0xFF) == size &&
        (size <= 8 || SameTail(arena_.data() + s.start, data, size))) {
      return s.rank_length >> 8;
    }
  }
}

uint32_t Vocabulary::Store(std::string_view bytes, uint32_t rank) {
  if (bytes.empty()) throw std::invalid_argument("vocabulary: a token must have at least one byte");
  if (rank > kMaxRank) {
    throw std::out_of_range("vocabulary: rank " + std::to_string(rank) + " is not in [0, " +
                            std::to_string(kMaxRank) + "]");
  }
  if (bytes.size() > kMaxTokenBytes) {
    throw std::out_of_range("vocabulary: token of " + std::to_string(bytes.size()) +
                            " bytes is longer than the limit of " + std::to_string(kMaxTokenBytes));
  }
  if (HasRank(rank)) {
    throw std::invalid_argument("vocabulary: rank " + std::to_string(rank) + " is given to two tokens");
  }
  if (arena_.size() + bytes.size() > 0xFFFFFFF0u) {
    throw std::out_of_range("vocabulary: more than 4 GB of tokens");
  }
  const auto start = static_cast<uint32_t>(arena_.size());
  arena_.append(bytes.data(), bytes.size());
  if (rank >= token_start_.size()) {
    token_start_.resize(rank + 1, kNoRank);
    token_length_.resize(rank + 1, 0);
  }
  token_start_[rank] = start;
  token_length_[rank] = static_cast<uint32_t>(bytes.size());
  ++token_count_;
  return start;
}

void Vocabulary::ThrowDuplicate(uint32_t rank, uint32_t existing) const {
  throw std::invalid_argument("vocabulary: token '" + Printable(Bytes(rank)) + "' appears twice (ranks " +
                              std::to_string(existing) + " and " + std::to_string(rank) + ")");
}

void Vocabulary::Add(std::string_view bytes, uint32_t rank) {
  if (2 * (token_count_ + 1) > slots_.size()) Grow();
  const size_t rank_end_before = token_start_.size();
  const uint32_t start = Store(bytes, rank);
  // One probe sequence both finds a duplicate and inserts.
  const uint32_t existing = Insert(start, static_cast<uint32_t>(bytes.size()), rank);
  if (existing != kNoRank) {
    const std::string message = "vocabulary: token '" + Printable(bytes) + "' appears twice (ranks " +
                                std::to_string(existing) + " and " + std::to_string(rank) + ")";
    // Undo Store, so that the vocabulary stays as it was.
    arena_.resize(start);
    token_start_[rank] = kNoRank;
    token_length_[rank] = 0;
    token_start_.resize(rank_end_before);
    token_length_.resize(rank_end_before);
    --token_count_;
    throw std::invalid_argument(message);
  }
  if (bytes.size() == 1) byte_rank_[static_cast<uint8_t>(bytes[0])] = rank;
  if (bytes.size() == 2) {
    pair_rank_[(static_cast<uint8_t>(bytes[0]) << 8) | static_cast<uint8_t>(bytes[1])] = rank;
  }
}

void Vocabulary::AddDeferred(std::string_view bytes, uint32_t rank) {
  Store(bytes, rank);
  deferred_.push_back(rank);
}

void Vocabulary::FinishDeferred() {
  Reserve(token_count_, arena_.size());
  // Counting sort of the deferred tokens by the top bits of their slot index.
  const int bucket_bits = std::min(16, 64 - hash_shift_);
  const int bucket_shift = 64 - bucket_bits;
  std::vector<uint64_t> hashes(deferred_.size());
  std::vector<uint32_t> bucket_start((size_t{1} << bucket_bits) + 1, 0);
  for (size_t i = 0; i < deferred_.size(); ++i) {
    const char* data = arena_.data() + token_start_[deferred_[i]];
    const uint32_t length = token_length_[deferred_[i]];
    hashes[i] = HashBytes(LoadPrefix(data, length), data, length);
    ++bucket_start[(hashes[i] >> bucket_shift) + 1];
  }
  for (size_t b = 1; b < bucket_start.size(); ++b) bucket_start[b] += bucket_start[b - 1];
  std::vector<uint32_t> order(deferred_.size());
  for (size_t i = 0; i < deferred_.size(); ++i) {
    order[bucket_start[hashes[i] >> bucket_shift]++] = static_cast<uint32_t>(i);
  }
  for (const uint32_t i : order) {
    const uint32_t rank = deferred_[i];
    const uint32_t length = token_length_[rank];
    const uint32_t existing = InsertHashed(hashes[i], token_start_[rank], length, rank);
    if (existing != kNoRank) ThrowDuplicate(rank, existing);
    const char* bytes = arena_.data() + token_start_[rank];
    if (length == 1) byte_rank_[static_cast<uint8_t>(bytes[0])] = rank;
    if (length == 2)
      pair_rank_[(static_cast<uint8_t>(bytes[0]) << 8) | static_cast<uint8_t>(bytes[1])] = rank;
  }
  deferred_.clear();
  deferred_.shrink_to_fit();
}

}  // namespace embedlab
