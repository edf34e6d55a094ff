#include "bpe/vocabulary.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "bpe/token_hash.h"

namespace embedlab {
namespace {

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
    tags_.assign(capacity, 0);
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
  return InsertHashed(HashOf(data, length), start, length, rank);
}

uint32_t Vocabulary::InsertHashed(uint64_t hash, uint32_t start, uint32_t length, uint32_t rank) noexcept {
  const char* data = arena_.data() + start;
  const uint64_t prefix = LoadPrefix(data, length);
  const size_t mask = slots_.size() - 1;
  for (size_t i = hash >> hash_shift_;; i = (i + 1) & mask) {
    Slot& s = slots_[i];
    if (s.rank_length == 0) {
      s = Slot{prefix, start, (rank << 8) | length};
      tags_[i] = TagOf(hash);
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
  const uint64_t hash = HashBytes(prefix, data, size);
  const uint8_t tag = TagOf(hash);
  for (size_t i = hash >> hash_shift_;; i = (i + 1) & mask) {
    const uint8_t t = tags_[i];
    if (t == 0) return kNoRank;
    if (t != tag) continue;
    const Slot& s = slots_[i];
    if (s.prefix == prefix && (s.rank_length & 0xFF) == size &&
        (size <= 8 || SameTail(arena_.data() + s.start, data, size))) {
      return s.rank_length >> 8;
    }
  }
}

uint32_t Vocabulary::Store(std::string_view bytes, uint32_t rank) {
  if (bytes.empty()) throw std::invalid_argument("vocabulary: a token must have at least one byte");
  if (rank > kMaxRank) {
    throw std::out_of_range("vocabulary: rank " + std::to_string(rank) + " is not in [0, " + std::to_string(kMaxRank) +
                            "]");
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
  if (rank >= spans_.size()) spans_.resize(rank + 1, Span{0, 0});
  spans_[rank] = Span{start, static_cast<uint32_t>(bytes.size())};
  ++token_count_;
  return start;
}

void Vocabulary::ThrowDuplicate(uint32_t rank, uint32_t existing) const {
  throw std::invalid_argument("vocabulary: token '" + Printable(Bytes(rank)) + "' appears twice (ranks " +
                              std::to_string(existing) + " and " + std::to_string(rank) + ")");
}

void Vocabulary::Add(std::string_view bytes, uint32_t rank) {
  if (2 * (token_count_ + 1) > slots_.size()) Grow();
  const size_t rank_end_before = spans_.size();
  const uint32_t start = Store(bytes, rank);
  // One probe sequence both finds a duplicate and inserts.
  const uint32_t existing = Insert(start, static_cast<uint32_t>(bytes.size()), rank);
  if (existing != kNoRank) {
    const std::string message = "vocabulary: token '" + Printable(bytes) + "' appears twice (ranks " +
                                std::to_string(existing) + " and " + std::to_string(rank) + ")";
    // Undo Store, so that the vocabulary stays as it was.
    arena_.resize(start);
    spans_[rank] = Span{0, 0};
    spans_.resize(rank_end_before);
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
  // Sort by hash, so that IndexNext fills the table front to back: a counting sort on the top 16 bits,
  // then a sort within each bucket (a few tokens each).
  const int bucket_bits = std::min(16, 64 - hash_shift_);
  const int bucket_shift = 64 - bucket_bits;
  std::vector<uint64_t> hashes(deferred_.size());
  std::vector<uint32_t> bucket_start((size_t{1} << bucket_bits) + 1, 0);
  for (size_t i = 0; i < deferred_.size(); ++i) {
    const auto [start, length] = spans_[deferred_[i]];
    hashes[i] = HashOf(arena_.data() + start, length);
    ++bucket_start[(hashes[i] >> bucket_shift) + 1];
  }
  for (size_t b = 1; b < bucket_start.size(); ++b) bucket_start[b] += bucket_start[b - 1];
  std::vector<std::pair<uint64_t, uint32_t>> order(deferred_.size());  // (hash, rank)
  for (size_t i = 0; i < deferred_.size(); ++i) {
    order[bucket_start[hashes[i] >> bucket_shift]++] = {hashes[i], deferred_[i]};
  }
  // The scatter left bucket_start[b] at the end of bucket b, which is where bucket b + 1 starts.
  for (size_t b = 0; b + 1 < bucket_start.size(); ++b) {
    std::sort(order.begin() + (b == 0 ? 0 : bucket_start[b - 1]), order.begin() + bucket_start[b]);
  }
  HashOrderFill fill;
  for (const auto& [hash, rank] : order) {
    const auto [start, length] = spans_[rank];
    const uint64_t prefix = LoadPrefix(arena_.data() + start, length);
    const uint32_t existing = IndexNext(&fill, hash, prefix, start, length, rank);
    if (existing != kNoRank) ThrowDuplicate(rank, existing);
  }
  deferred_.clear();
  deferred_.shrink_to_fit();
}

}  // namespace embedlab
