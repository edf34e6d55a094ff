// A per-call cache of piece -> tokens for the pieces that need BPE. Natural text repeats its words
// (Zipf): in man pages, 90% of the pieces that are not a single token are repeats, and BPE on them is
// most of the encoding time. Direct-mapped, fixed size, no allocation after construction; a collision
// just replaces the older entry. Results are identical with or without it.
#ifndef EMBEDLAB_BPE_PIECE_CACHE_H_
#define EMBEDLAB_BPE_PIECE_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace embedlab {

class PieceCache {
 public:
  static constexpr size_t kMaxPieceBytes = 32;
  static constexpr size_t kMaxTokens = 6;

  // Sized for a text of text_bytes: from 256 to 8192 entries of 64 bytes.
  explicit PieceCache(size_t text_bytes);

  // On a hit, appends the piece's ids and (when ends is not null) their ends as base + offset.
  bool Find(std::string_view piece, uint32_t base, std::vector<uint32_t>* ids, std::vector<uint32_t>* ends) const;
  // Remembers the tokens of piece, given as ids and ends relative to the piece's start; pieces longer
  // than kMaxPieceBytes or with more than kMaxTokens tokens are not kept.
  void Store(std::string_view piece, const uint32_t* ids, const uint32_t* relative_ends, size_t count);

 private:
  struct Entry {
    uint64_t key[kMaxPieceBytes / 8];  // the piece, zero-padded
    uint32_t ids[kMaxTokens];
    uint8_t ends[kMaxTokens];
    uint8_t key_length;  // 0: empty
    uint8_t count;
  };

  struct Key {
    uint64_t words[kMaxPieceBytes / 8];
    size_t index;
  };
  Key MakeKey(std::string_view piece) const;

  std::vector<Entry> entries_;
};

}  // namespace embedlab

#endif  // EMBEDLAB_BPE_PIECE_CACHE_H_
