#include "hf/bpe_word.h"

#include <algorithm>
#include <functional>
#include <queue>

namespace embedlab {

constexpr uint32_t kNoRank = MergeTable::kNoRank;

// Symbols stay in one small array; each merge rescans the pair ranks for the lowest. O(n^2) for n <= 32.
void MergeWordShort(const MergeTable& merges, std::vector<BpeSymbol>* symbols) {
  std::vector<BpeSymbol>& s = *symbols;
  size_t n = s.size();
  if (n < 2) return;
  if (n > kShortWordSymbols) return MergeWordLong(merges, symbols);
  MergeTable::Merge pair[kShortWordSymbols];  // pair[i]: the merge of s[i] and s[i+1]
  for (size_t i = 0; i + 1 < n; ++i) pair[i] = merges.Find(s[i].id, s[i + 1].id);
  for (;;) {
    size_t best = 0;
    for (size_t i = 1; i + 1 < n; ++i) {
      if (pair[i].rank < pair[best].rank) best = i;
    }
    if (pair[best].rank == kNoRank) break;
    s[best].id = pair[best].result;
    s[best].end = s[best + 1].end;
    for (size_t i = best + 1; i + 1 < n; ++i) s[i] = s[i + 1];
    for (size_t i = best + 1; i + 2 < n; ++i) pair[i] = pair[i + 1];
    --n;
    if (best > 0) pair[best - 1] = merges.Find(s[best - 1].id, s[best].id);
    if (best + 1 < n) pair[best] = merges.Find(s[best].id, s[best + 1].id);
    if (n < 2) break;
  }
  s.resize(n);
}

// A min-heap of (rank, position) over a linked list of symbols; an entry whose pair has changed since it was
// pushed (its left symbol merged away or grew, or its right neighbour changed) is skipped when popped.
void MergeWordLong(const MergeTable& merges, std::vector<BpeSymbol>* symbols) {
  std::vector<BpeSymbol>& s = *symbols;
  const auto n = static_cast<uint32_t>(s.size());
  if (n < 2) return;
  constexpr uint32_t kNone = 0xFFFFFFFFu;
  std::vector<uint32_t> next(n), prev(n);
  std::vector<bool> removed(n, false);
  for (uint32_t i = 0; i < n; ++i) {
    next[i] = i + 1 < n ? i + 1 : kNone;
    prev[i] = i > 0 ? i - 1 : kNone;
  }
  std::vector<uint64_t> storage;
  storage.reserve(n);
  std::priority_queue<uint64_t, std::vector<uint64_t>, std::greater<uint64_t>> heap(std::greater<uint64_t>(),
                                                                                    std::move(storage));
  auto push = [&](uint32_t pos) {
    const MergeTable::Merge m = merges.Find(s[pos].id, s[next[pos]].id);
    if (m.rank != kNoRank) heap.push(uint64_t{m.rank} << 32 | pos);
  };
  for (uint32_t i = 0; i + 1 < n; ++i) push(i);
  while (!heap.empty()) {
    const uint64_t top = heap.top();
    heap.pop();
    const auto pos = static_cast<uint32_t>(top);
    const auto rank = static_cast<uint32_t>(top >> 32);
    if (removed[pos] || next[pos] == kNone) continue;
    const uint32_t right = next[pos];
    // A rank names one pair: the entry is current exactly when the pair here still has that rank.
    const MergeTable::Merge m = merges.Find(s[pos].id, s[right].id);
    if (m.rank != rank) continue;
    s[pos].id = m.result;
    s[pos].end = s[right].end;
    removed[right] = true;
    next[pos] = next[right];
    if (next[pos] != kNone) prev[next[pos]] = pos;
    if (prev[pos] != kNone) push(prev[pos]);
    if (next[pos] != kNone) push(pos);
  }
  uint32_t out = 0;
  for (uint32_t i = 0; i != kNone; i = next[i]) s[out++] = s[i];
  s.resize(out);
}

void MergeWord(const MergeTable& merges, std::vector<BpeSymbol>* symbols) {
  if (symbols->size() <= kShortWordSymbols) {
    MergeWordShort(merges, symbols);
  } else {
    MergeWordLong(merges, symbols);
  }
}

}  // namespace embedlab
