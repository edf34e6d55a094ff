#include "bpe/piece_cache.h"

#include <cstring>

namespace embedlab {

PieceCache::PieceCache(size_t text_bytes) {
  size_t entries = 256;
  while (entries < 8192 && entries * 32 < text_bytes) entries *= 2;
  entries_.assign(entries, Entry{});
}

PieceCache::Key PieceCache::MakeKey(std::string_view piece) const {
  Key key{};
  std::memcpy(key.words, piece.data(), piece.size());
  uint64_t h = piece.size() * 0x9E3779B97F4A7C15ull;
  for (uint64_t word : key.words) h = (h ^ word) * 0xFF51AFD7ED558CCDull;
  h ^= h >> 32;
  key.index = static_cast<size_t>(h) & (entries_.size() - 1);
  return key;
}

bool PieceCache::Find(std::string_view piece, uint32_t base, std::vector<uint32_t>* ids,
                      std::vector<uint32_t>* ends) const {
  if (piece.size() > kMaxPieceBytes) return false;
  const Key key = MakeKey(piece);
  const Entry& e = entries_[key.index];
  if (e.key_length != piece.size() || std::memcmp(e.key, key.words, sizeof(key.words)) != 0) return false;
  ids->insert(ids->end(), e.ids, e.ids + e.count);
  if (ends != nullptr) {
    for (size_t i = 0; i < e.count; ++i) ends->push_back(base + e.ends[i]);
  }
  return true;
}

void PieceCache::Store(std::string_view piece, const uint32_t* ids, const uint32_t* relative_ends, size_t count) {
  if (piece.empty() || piece.size() > kMaxPieceBytes || count > kMaxTokens) return;
  const Key key = MakeKey(piece);
  Entry& e = entries_[key.index];
  std::memcpy(e.key, key.words, sizeof(key.words));
  for (size_t i = 0; i < count; ++i) {
    e.ids[i] = ids[i];
    e.ends[i] = static_cast<uint8_t>(relative_ends[i]);
  }
  e.key_length = static_cast<uint8_t>(piece.size());
  e.count = static_cast<uint8_t>(count);
}

}  // namespace embedlab
