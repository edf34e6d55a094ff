#include "embed/cooccurrence_counts.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

#include "errors/argument_checks.h"

namespace embedlab {
namespace {

// One nonzero X: key = row * vocabSize + col, so sorting by key sorts by (row, col).
struct Entry {
  uint64_t key;
  double value;
};

[[noreturn]] void RefuseTooManyPairs() {
  throw std::out_of_range("the co-occurrence table of ids would hold more than " +
                          std::to_string(kMaxCooccurrencePairs) +
                          " distinct (word, context) pairs: use fewer ids, a smaller window or a smaller vocabSize");
}

Cooccurrences SortedByRowAndCol(std::vector<Entry>& entries, uint64_t vocab_size) {
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.key < b.key; });
  Cooccurrences table;
  table.rows.reserve(entries.size());
  table.cols.reserve(entries.size());
  table.values.reserve(entries.size());
  for (const Entry& entry : entries) {
    table.rows.push_back(static_cast<uint32_t>(entry.key / vocab_size));
    table.cols.push_back(static_cast<uint32_t>(entry.key % vocab_size));
    table.values.push_back(entry.value);
  }
  return table;
}

// Open addressing with linear probing over keys row * vocab_size + col + 1 (0 marks an empty slot), doubled
// whenever it is half full, so a probe ends after about two slots on average.
class PairTable {
 public:
  explicit PairTable(uint64_t vocab_size) : vocab_size_(vocab_size) { Resize(1 << 12); }

  void Add(uint32_t row, uint32_t col, double value) {
    const uint64_t key = row * vocab_size_ + col + 1;
    size_t slot = Slot(key);
    while (keys_[slot] != key) {
      if (keys_[slot] == 0) {
        if (2 * (used_ + 1) > keys_.size()) {
          Grow();
          Add(row, col, value);
          return;
        }
        keys_[slot] = key;
        ++used_;
        break;
      }
      slot = (slot + 1) & mask_;
    }
    values_[slot] += value;
  }

  void AppendEntries(std::vector<Entry>* entries) const {
    for (size_t slot = 0; slot < keys_.size(); ++slot) {
      if (keys_[slot] != 0) entries->push_back({keys_[slot] - 1, values_[slot]});
    }
  }
  size_t size() const { return used_; }

 private:
  size_t Slot(uint64_t key) const { return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_); }

  void Resize(size_t capacity) {
    keys_.assign(capacity, 0);
    values_.assign(capacity, 0.0);
    mask_ = capacity - 1;
    shift_ = 64 - __builtin_ctzll(capacity);
  }

  void Grow() {
    if (static_cast<int64_t>(used_) >= kMaxCooccurrencePairs) RefuseTooManyPairs();
    std::vector<uint64_t> keys = std::move(keys_);
    std::vector<double> values = std::move(values_);
    Resize(keys.size() * 2);
    for (size_t old = 0; old < keys.size(); ++old) {
      if (keys[old] == 0) continue;
      size_t slot = Slot(keys[old]);
      while (keys_[slot] != 0) slot = (slot + 1) & mask_;
      keys_[slot] = keys[old];
      values_[slot] = values[old];
    }
  }

  uint64_t vocab_size_;
  std::vector<uint64_t> keys_;
  std::vector<double> values_;
  size_t used_ = 0, mask_ = 0;
  int shift_ = 0;
};

// A small vocabulary counts into a dense vocabSize² table (at most 32 MiB of doubles): no hashing, and for a
// vocabulary of a thousand tokens the table stays in cache. A larger one counts the pairs of its kDenseRanks most
// frequent tokens in such a table over their frequency ranks (by Zipf's law most updates fall there, as cooccur.c
// keeps its frequent pairs in an array) and the rest in the hash.
constexpr uint64_t kDenseRanks = 2048;
constexpr uint64_t kDenseCells = kDenseRanks * kDenseRanks;

// visit(left, right, distance) for every pair of positions at most `window` apart, left before right.
template <typename Visit>
void ForEachPair(const std::vector<int32_t>& ids, int64_t window, Visit visit) {
  const size_t reach = static_cast<size_t>(window);
  for (size_t j = 1; j < ids.size(); ++j) {
    const uint32_t right = static_cast<uint32_t>(ids[j]);
    for (size_t k = j > reach ? j - reach : 0; k < j; ++k) visit(static_cast<uint32_t>(ids[k]), right, j - k);
  }
}

}  // namespace

Cooccurrences CountCooccurrences(const std::vector<int32_t>& ids, int64_t vocab_size, int64_t window) {
  RequireInRange("vocabSize", vocab_size, 1, kMaxVocabSize);
  RequireInRange("window", window, 1, kMaxCooccurrenceWindow);
  RequireInRange("ids.length", static_cast<int64_t>(ids.size()), 0, kMaxWordVectorTokens);
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < 0 || ids[i] >= vocab_size) {
      throw std::out_of_range("ids[" + std::to_string(i) + "] must be a token id in [0, " +
                              std::to_string(vocab_size - 1) + "] (vocabSize " + std::to_string(vocab_size) +
                              "), got " + std::to_string(ids[i]));
    }
  }
  // 1/distance once, in double, as cooccur.c adds it.
  std::vector<double> weights(static_cast<size_t>(window) + 1);
  for (size_t distance = 1; distance < weights.size(); ++distance) weights[distance] = 1.0 / distance;
  const uint64_t vocab = static_cast<uint64_t>(vocab_size);
  if (vocab * vocab <= kDenseCells) {
    std::vector<double> dense(vocab * vocab, 0.0);
    ForEachPair(ids, window, [&](uint32_t left, uint32_t right, size_t distance) {
      dense[left * vocab + right] += weights[distance];
      dense[right * vocab + left] += weights[distance];
    });
    Cooccurrences table;
    for (uint64_t cell = 0; cell < dense.size(); ++cell) {
      if (dense[cell] == 0.0) continue;
      table.rows.push_back(static_cast<uint32_t>(cell / vocab));
      table.cols.push_back(static_cast<uint32_t>(cell % vocab));
      table.values.push_back(dense[cell]);
    }
    return table;
  }
  // Ranks by frequency, ties by id; tokens past the dense ranks get the rank kDenseRanks.
  std::vector<uint64_t> frequency(vocab, 0);
  for (int32_t id : ids) ++frequency[static_cast<size_t>(id)];
  std::vector<uint32_t> by_rank(vocab);
  std::iota(by_rank.begin(), by_rank.end(), 0u);
  std::partial_sort(by_rank.begin(), by_rank.begin() + kDenseRanks, by_rank.end(), [&](uint32_t a, uint32_t b) {
    return frequency[a] != frequency[b] ? frequency[a] > frequency[b] : a < b;
  });
  std::vector<uint32_t> rank(vocab, kDenseRanks);
  for (uint32_t r = 0; r < kDenseRanks; ++r) rank[by_rank[r]] = r;
  std::vector<double> dense(kDenseCells, 0.0);
  PairTable table(vocab);
  ForEachPair(ids, window, [&](uint32_t left, uint32_t right, size_t distance) {
    const uint64_t a = rank[left], b = rank[right];
    if (a < kDenseRanks && b < kDenseRanks) {
      dense[a * kDenseRanks + b] += weights[distance];
      dense[b * kDenseRanks + a] += weights[distance];
    } else {
      table.Add(left, right, weights[distance]);
      table.Add(right, left, weights[distance]);
    }
  });
  std::vector<Entry> entries;
  entries.reserve(table.size());
  table.AppendEntries(&entries);
  for (uint64_t cell = 0; cell < kDenseCells; ++cell) {
    if (dense[cell] == 0.0) continue;
    if (static_cast<int64_t>(entries.size()) >= kMaxCooccurrencePairs) RefuseTooManyPairs();
    entries.push_back({by_rank[cell / kDenseRanks] * vocab + by_rank[cell % kDenseRanks], dense[cell]});
  }
  return SortedByRowAndCol(entries, vocab);
}

}  // namespace embedlab
