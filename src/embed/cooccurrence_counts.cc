#include "embed/cooccurrence_counts.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

#include "errors/argument_checks.h"

namespace embedlab {
namespace {

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

  Cooccurrences SortedEntries() const {
    std::vector<size_t> slots;
    slots.reserve(used_);
    for (size_t slot = 0; slot < keys_.size(); ++slot) {
      if (keys_[slot] != 0) slots.push_back(slot);
    }
    std::sort(slots.begin(), slots.end(), [&](size_t a, size_t b) { return keys_[a] < keys_[b]; });
    Cooccurrences table;
    table.rows.reserve(used_);
    table.cols.reserve(used_);
    table.values.reserve(used_);
    for (size_t slot : slots) {
      table.rows.push_back(static_cast<uint32_t>((keys_[slot] - 1) / vocab_size_));
      table.cols.push_back(static_cast<uint32_t>((keys_[slot] - 1) % vocab_size_));
      table.values.push_back(values_[slot]);
    }
    return table;
  }

 private:
  size_t Slot(uint64_t key) const { return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_); }

  void Resize(size_t capacity) {
    keys_.assign(capacity, 0);
    values_.assign(capacity, 0.0);
    mask_ = capacity - 1;
    shift_ = 64 - __builtin_ctzll(capacity);
  }

  void Grow() {
    if (static_cast<int64_t>(used_) >= kMaxCooccurrencePairs) {
      throw std::out_of_range(
          "the co-occurrence table of ids would hold more than " + std::to_string(kMaxCooccurrencePairs) +
          " distinct (word, context) pairs: use fewer ids, a smaller window or a smaller vocabSize");
    }
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
// vocabulary of a thousand tokens the table stays in cache.
constexpr uint64_t kDenseCells = uint64_t{1} << 22;

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
  PairTable table(vocab);
  ForEachPair(ids, window, [&](uint32_t left, uint32_t right, size_t distance) {
    table.Add(left, right, weights[distance]);
    table.Add(right, left, weights[distance]);
  });
  return table.SortedEntries();
}

}  // namespace embedlab
