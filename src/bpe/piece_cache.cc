#include "bpe/piece_cache.h"

#include <algorithm>
#include <cstring>

#include "bpe/token_hash.h"

namespace embedlab {
namespace {

size_t WordsOf(size_t bytes) { return (bytes + sizeof(uint32_t) - 1) / sizeof(uint32_t); }

}  // namespace

size_t PieceCache::SlotOf(std::string_view piece, uint64_t prefix) const {
  const size_t mask = slots_.size() - 1;
  for (size_t i = HashBytes(prefix, piece.data(), piece.size()) >> shift_;; i = (i + 1) & mask) {
    const Slot& s = slots_[i];
    if (s.count == 0) return i;
    if (s.prefix == prefix && s.length == piece.size() &&
        (piece.size() <= 8 ||
         SameTail(reinterpret_cast<const char*>(arena_.data() + s.offset + s.count), piece.data(), piece.size()))) {
      return i;
    }
  }
}

bool PieceCache::Find(std::string_view piece, std::vector<uint32_t>* ids) const {
  size_t count = 0;
  const uint32_t* words = Lookup(piece, &count);
  if (words == nullptr) return false;
  ids->insert(ids->end(), words, words + count);
  return true;
}

const uint32_t* PieceCache::Lookup(std::string_view piece, size_t* count) const {
  if (pieces_ == 0 || piece.empty() || piece.size() > kMaxPieceBytes) return nullptr;
  const Slot& s = slots_[SlotOf(piece, LoadPrefix(piece.data(), piece.size()))];
  if (s.count == 0) return nullptr;
  *count = s.count;
  return arena_.data() + s.offset;
}

void PieceCache::Store(std::string_view piece, const uint32_t* ids, size_t count) {
  if (piece.empty() || piece.size() > kMaxPieceBytes || count == 0 || count > 2 * piece.size()) return;
  const size_t words = count + WordsOf(piece.size());
  if (pieces_ + 1 > kMaxPieces || arena_.size() + words > kMaxArenaWords) StartOver();
  if (2 * (pieces_ + 1) > slots_.size()) Rehash(std::max(kFirstSlots, 2 * slots_.size()));
  const uint64_t prefix = LoadPrefix(piece.data(), piece.size());
  Slot& slot = slots_[SlotOf(piece, prefix)];
  if (slot.count != 0) return;  // already known
  if (arena_.size() + words > arena_.capacity()) {
    // Grown by hand, so that the capacity never passes kMaxArenaWords (the vector's own growth could).
    arena_.reserve(std::min(kMaxArenaWords, std::max({2 * arena_.capacity(), size_t{4096}, arena_.size() + words})));
  }
  slot = Slot{prefix, static_cast<uint32_t>(arena_.size()), static_cast<uint16_t>(piece.size()),
              static_cast<uint16_t>(count)};
  arena_.insert(arena_.end(), ids, ids + count);
  const size_t key_at = arena_.size();
  arena_.resize(key_at + WordsOf(piece.size()), 0);
  std::memcpy(arena_.data() + key_at, piece.data(), piece.size());
  ++pieces_;
}

void PieceCache::Rehash(size_t slot_count) {
  std::vector<Slot> old(slot_count);
  old.swap(slots_);
  int bits = 0;
  while ((size_t{1} << bits) < slot_count) ++bits;
  shift_ = 64 - bits;
  const size_t mask = slot_count - 1;
  for (const Slot& s : old) {
    if (s.count == 0) continue;
    const auto* key = reinterpret_cast<const char*>(arena_.data() + s.offset + s.count);
    size_t i = HashBytes(s.prefix, key, s.length) >> shift_;
    while (slots_[i].count != 0) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

void PieceCache::StartOver() {
  std::fill(slots_.begin(), slots_.end(), Slot{});
  arena_.clear();
  pieces_ = 0;
}

void PieceCache::Clear() {
  std::vector<Slot>().swap(slots_);
  std::vector<uint32_t>().swap(arena_);
  pieces_ = 0;
  shift_ = 64;
}

}  // namespace embedlab
