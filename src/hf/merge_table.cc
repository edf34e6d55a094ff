#include "hf/merge_table.h"

namespace embedlab {

void MergeTable::Reserve(size_t merges) {
  size_t slots = 1024;
  while (slots < 2 * merges) slots *= 2;
  if (slots > slots_.size()) Rehash(slots);
}

void MergeTable::Rehash(size_t slot_count) {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(slot_count, Slot{kEmpty, 0, 0});
  shift_ = 64;
  for (size_t n = slot_count; n > 1; n >>= 1) --shift_;
  used_ = 0;
  for (const Slot& s : old) {
    if (s.key != kEmpty) Insert(s.key, s.rank, s.result, false);
  }
}

bool MergeTable::Insert(uint64_t key, uint32_t rank, uint32_t result, bool replace) {
  const size_t mask = slots_.size() - 1;
  for (size_t slot = (key * 0x9E3779B97F4A7C15ull) >> shift_;; slot = (slot + 1) & mask) {
    Slot& s = slots_[slot];
    if (s.key == key) {
      if (replace) {
        s.rank = rank;
        s.result = result;
      }
      return false;
    }
    if (s.key == kEmpty) {
      s = {key, rank, result};
      ++used_;
      return true;
    }
  }
}

void MergeTable::Add(uint32_t left, uint32_t right, uint32_t result) {
  if (slots_.empty() || 2 * (used_ + 1) > slots_.size()) Rehash(slots_.empty() ? 1024 : 2 * slots_.size());
  Insert(Key(left, right), static_cast<uint32_t>(ranks_++), result, true);  // listed again: the last rank counts
}

bool MergeTable::AddRanked(uint32_t left, uint32_t right, uint32_t result, uint32_t rank) {
  if (slots_.empty() || 2 * (used_ + 1) > slots_.size()) Rehash(slots_.empty() ? 1024 : 2 * slots_.size());
  return Insert(Key(left, right), rank, result, false);
}

}  // namespace embedlab
