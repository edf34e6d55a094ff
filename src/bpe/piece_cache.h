// A cache of piece -> token ids for the pieces that BPE splits into several tokens, kept for as long as the
// tokenizer lives. Natural text repeats its words (Zipf), and BPE on a piece costs ~20x its pre-tokenization
// and lookup (each merge looks up a pair in the multi-MB vocabulary table), so once a text's words have been
// seen, encoding is pre-tokenization plus lookups. Results are identical with or without it.
//
// Bounded: at most kMaxPieces pieces of at most kMaxPieceBytes bytes, in at most kMaxBytes of memory (slot
// table plus arena). When either bound would be passed, it starts over empty (in the memory it holds), so a
// stream of ever-new pieces costs one BPE each, as without a cache. Clear() frees the memory.
// Not thread-safe: the tokenizer serialises access (see Tokenizer::EncodeInto).
#ifndef EMBEDLAB_BPE_PIECE_CACHE_H_
#define EMBEDLAB_BPE_PIECE_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace embedlab {

class PieceCache {
 public:
  static constexpr size_t kMaxPieces = 65536;
  static constexpr size_t kMaxPieceBytes = 255;
  static constexpr size_t kMaxBytes = size_t{4} << 20;

  // On a hit, appends the piece's ids to *ids and returns true.
  bool Find(std::string_view piece, std::vector<uint32_t>* ids) const;
  // On a hit, the piece's words in the cache (valid until the next Store or Clear) and *count; else nullptr.
  const uint32_t* Lookup(std::string_view piece, size_t* count) const;
  // Remembers the ids of piece (0 < count <= 2 * piece's length: a caller may keep other words beside the ids);
  // pieces longer than kMaxPieceBytes are not kept.
  void Store(std::string_view piece, const uint32_t* ids, size_t count);
  // Forgets every piece and frees the memory.
  void Clear();

  size_t pieces() const { return pieces_; }
  // Memory held (allocated, not just used), at most kMaxBytes.
  size_t bytes() const { return slots_.capacity() * sizeof(Slot) + arena_.capacity() * sizeof(uint32_t); }

 private:
  struct Slot {
    uint64_t prefix;  // the piece's first min(8, length) bytes, zero-padded
    uint32_t offset;  // in arena_: count ids, then the piece's bytes padded to a word
    uint16_t length;  // of the piece
    uint16_t count;   // of ids; 0 marks an empty slot
  };
  // The slot table is at most half full: 2 * kMaxPieces slots; the arena takes the rest of kMaxBytes.
  static constexpr size_t kMaxSlots = 2 * kMaxPieces;
  static constexpr size_t kMaxArenaWords = (kMaxBytes - kMaxSlots * sizeof(Slot)) / sizeof(uint32_t);
  static constexpr size_t kFirstSlots = 1024;

  size_t SlotOf(std::string_view piece, uint64_t prefix) const;  // its slot, or the empty slot it would take
  void Rehash(size_t slot_count);
  void StartOver();  // empty, keeping the memory

  std::vector<Slot> slots_;  // power-of-two size, linear probing
  std::vector<uint32_t> arena_;
  size_t pieces_ = 0;
  int shift_ = 64;  // 64 - log2(slots_.size()): the slot index is the hash's top bits
};

}  // namespace embedlab

#endif  // EMBEDLAB_BPE_PIECE_CACHE_H_
