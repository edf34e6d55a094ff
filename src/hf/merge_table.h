// The merges of a BPE model: the pair of token ids (left, right) -> (rank, id of left+right). Rank is the merge's
// position in model.merges; a pair listed twice keeps its last rank, as the Rust crate's map and Tokenizers.js'
// Map both do.
#ifndef EMBEDLAB_HF_MERGE_TABLE_H_
#define EMBEDLAB_HF_MERGE_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace embedlab {

class MergeTable {
 public:
  static constexpr uint32_t kNoRank = 0xFFFFFFFFu;
  static constexpr uint32_t kMaxMerges = uint32_t{1} << 23;
  struct Merge {
    uint32_t rank;
    uint32_t result;
  };
  struct Entry {
    uint32_t left;
    uint32_t right;
    uint32_t result;
    uint32_t rank;
  };

  void Reserve(size_t merges);
  // Adds the merge with the next rank (model.merges' order).
  void Add(uint32_t left, uint32_t right, uint32_t result);
  // Adds a merge with its rank (the binary form, which lists merges by rank); false when the pair is already there.
  bool AddRanked(uint32_t left, uint32_t right, uint32_t result, uint32_t rank);
  void set_ranks(size_t ranks) { ranks_ = ranks; }
  // The merge of the pair, or rank kNoRank.
  Merge Find(uint32_t left, uint32_t right) const {
    if (slots_.empty()) return {kNoRank, 0};
    const uint64_t key = Key(left, right);
    const size_t mask = slots_.size() - 1;
    for (size_t slot = (key * 0x9E3779B97F4A7C15ull) >> shift_;; slot = (slot + 1) & mask) {
      const Slot& s = slots_[slot];
      if (s.key == key) return {s.rank, s.result};
      if (s.key == kEmpty) return {kNoRank, 0};
    }
  }
  // Merges listed (ranks given out); pairs listed twice count twice.
  size_t size() const { return ranks_; }
  void Prefetch(uint32_t left, uint32_t right) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[(Key(left, right) * 0x9E3779B97F4A7C15ull) >> shift_]);
  }
  // Distinct pairs.
  size_t pairs() const { return used_; }
  // Every pair with its merge, in table order.
  template <typename Fn>
  void ForEach(const Fn& fn) const {
    for (const Slot& s : slots_) {
      if (s.key != kEmpty)
        fn(Entry{static_cast<uint32_t>(s.key >> 32), static_cast<uint32_t>(s.key), s.result, s.rank});
    }
  }

 private:
  static constexpr uint64_t kEmpty = ~uint64_t{0};
  struct Slot {
    uint64_t key;
    uint32_t rank;
    uint32_t result;
  };
  static uint64_t Key(uint32_t left, uint32_t right) { return uint64_t{left} << 32 | right; }
  void Rehash(size_t slot_count);
  // Returns false (and keeps the old merge unless replace) when the pair is there already.
  bool Insert(uint64_t key, uint32_t rank, uint32_t result, bool replace);

  size_t ranks_ = 0;
  std::vector<Slot> slots_;  // power of two, at most half full
  size_t used_ = 0;
  int shift_ = 64;
};

}  // namespace embedlab

#endif  // EMBEDLAB_HF_MERGE_TABLE_H_
