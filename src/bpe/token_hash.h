// The hash of the vocabulary's table, shared by its lookups and its binary form (which lists tokens in
// hash order, so that loading fills the table front to back). Internal to src/bpe.
#ifndef EMBEDLAB_BPE_TOKEN_HASH_H_
#define EMBEDLAB_BPE_TOKEN_HASH_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace embedlab {

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

inline uint64_t HashOf(const char* data, size_t size) { return HashBytes(LoadPrefix(data, size), data, size); }

}  // namespace embedlab

#endif  // EMBEDLAB_BPE_TOKEN_HASH_H_
