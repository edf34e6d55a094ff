#include "hf/merge_table.h"

namespace embedlab {

void MergeTable::Reserve(size_t merges) {
  entries_.reserve(merges);
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
    if (s.key != kEmpty) Insert(s.key, s.rank, s.result);
  }
}

void MergeTable::Insert(uint64_t key, uint32_t rank, uint32_t result) {
  const size_t mask = slots_.size() - 1;
  for (size_t slot = (key * 0x9E3779B97F4A7C15ull) >> shift_;; slot = (slot + 1) & mask) {
    Slot& s = slots_[slot];
    if (s.key == key) {  // listed again: the last rank counts
      s.rank = rank;
      s.result = result;
      return;
    }
    if (s.key == kEmpty) {
      s = {key, rank, result};
      ++used_;
      return;
    }
  }
}

void MergeTable::Add(uint32_t left, uint32_t right, uint32_t result) {
  if (slots_.empty() || 2 * (used_ + 1) > slots_.size()) Rehash(slots_.empty() ? 1024 : 2 * slots_.size());
  const auto rank = static_cast<uint32_t>(entries_.size());
  entries_.push_back({left, right, result});
  Insert(Key(left, right), rank, result);
}

}  // namespace embedlab
