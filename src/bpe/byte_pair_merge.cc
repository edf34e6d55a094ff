#include "bpe/byte_pair_merge.h"

#include <algorithm>
#include <functional>
#include <queue>

namespace embedlab {
namespace {

constexpr uint32_t kNoRank = Vocabulary::kNoRank;

// A part's rank is known from the merge that made it (or the byte it is), so emitting looks nothing up.
void EmitPart(uint32_t rank, uint32_t base, uint32_t end, std::vector<uint32_t>* ids, std::vector<uint32_t>* ends) {
  ids->push_back(rank);
  if (ends != nullptr) ends->push_back(base + end);
}

}  // namespace

// tiktoken's loop: parts live in a small array; each merge rescans it for the lowest rank. O(n^2), but
// n <= kShortPieceLength and everything stays in cache, which beats a heap on ordinary words.
void BytePairEncodeShort(const Vocabulary& vocabulary, std::string_view piece, uint32_t base,
                         std::vector<uint32_t>* ids, std::vector<uint32_t>* ends) {
  const auto n = static_cast<uint32_t>(piece.size());
  if (n > kShortPieceLength) return BytePairEncodeLong(vocabulary, piece, base, ids, ends);
  // starts[i] is where part i begins; ranks[i] is the rank of parts i and i+1 merged; parts[i] is the
  // rank of part i itself.
  uint32_t starts[kShortPieceLength + 1];
  uint32_t ranks[kShortPieceLength + 1];
  uint32_t parts[kShortPieceLength + 1];
  uint32_t count = n + 1;  // part boundaries, including the end
  for (uint32_t i = 0; i < count; ++i) {
    starts[i] = i;
    ranks[i] = (i + 1 < n) ? vocabulary.Rank(piece.data() + i, 2) : kNoRank;
    parts[i] = (i < n) ? vocabulary.Rank(piece.data() + i, 1) : kNoRank;
  }
  auto merged_rank = [&](uint32_t i) {
    return (i + 3 < count) ? vocabulary.Rank(piece.data() + starts[i], starts[i + 3] - starts[i]) : kNoRank;
  };
  for (;;) {
    uint32_t best = 0;
    for (uint32_t i = 1; i + 1 < count; ++i) {
      if (ranks[i] < ranks[best]) best = i;
    }
    if (ranks[best] == kNoRank) break;
    parts[best] = ranks[best];
    if (best > 0) ranks[best - 1] = merged_rank(best - 1);
    ranks[best] = merged_rank(best);
    std::copy(starts + best + 2, starts + count, starts + best + 1);
    std::copy(ranks + best + 2, ranks + count, ranks + best + 1);
    std::copy(parts + best + 2, parts + count, parts + best + 1);
    --count;
  }
  for (uint32_t i = 0; i + 1 < count; ++i) EmitPart(parts[i], base, starts[i + 1], ids, ends);
}

// Parts form a linked list over byte offsets; a min-heap holds (rank, start) of candidate merges, so the
// lowest rank pops first and, among equal ranks, the leftmost. Entries made stale by a neighbouring merge
// are skipped when popped (their rank no longer matches the part's current pair). O(n log n).
void BytePairEncodeLong(const Vocabulary& vocabulary, std::string_view piece, uint32_t base, std::vector<uint32_t>* ids,
                        std::vector<uint32_t>* ends) {
  const auto n = static_cast<uint32_t>(piece.size());
  std::vector<uint32_t> next(n + 1);
  std::vector<uint32_t> prev(n + 1);
  std::vector<uint32_t> pair_rank(n + 1, kNoRank);
  std::vector<uint32_t> part_rank(n);  // of the part starting there
  for (uint32_t i = 0; i < n; ++i) part_rank[i] = vocabulary.Rank(piece.data() + i, 1);
  std::vector<uint64_t> heap_storage;
  heap_storage.reserve(n);
  std::priority_queue<uint64_t, std::vector<uint64_t>, std::greater<uint64_t>> heap(std::greater<uint64_t>(),
                                                                                    std::move(heap_storage));
  for (uint32_t i = 0; i <= n; ++i) {
    next[i] = i + 1;
    prev[i] = i - 1;
  }
  auto update = [&](uint32_t start) {
    const uint32_t middle = next[start];
    uint32_t rank = kNoRank;
    if (middle < n) rank = vocabulary.Rank(piece.data() + start, next[middle] - start);
    pair_rank[start] = rank;
    if (rank != kNoRank) heap.push((static_cast<uint64_t>(rank) << 32) | start);
  };
  for (uint32_t i = 0; i + 1 < n; ++i) update(i);
  while (!heap.empty()) {
    const uint64_t key = heap.top();
    heap.pop();
    const auto start = static_cast<uint32_t>(key);
    if (pair_rank[start] != static_cast<uint32_t>(key >> 32)) continue;  // stale
    const uint32_t middle = next[start];
    const uint32_t end = next[middle];
    next[start] = end;
    prev[end] = start;
    part_rank[start] = pair_rank[start];
    pair_rank[middle] = kNoRank;  // no longer a part
    update(start);
    if (start > 0) update(prev[start]);
  }
  for (uint32_t start = 0; start < n; start = next[start]) {
    EmitPart(part_rank[start], base, next[start], ids, ends);
  }
}

void BytePairEncode(const Vocabulary& vocabulary, std::string_view piece, uint32_t base, std::vector<uint32_t>* ids,
                    std::vector<uint32_t>* ends) {
  if (piece.size() <= kShortPieceLength) {
    BytePairEncodeShort(vocabulary, piece, base, ids, ends);
  } else {
    BytePairEncodeLong(vocabulary, piece, base, ids, ends);
  }
}

}  // namespace embedlab
