// GloVe's co-occurrence counts (Pennington et al. 2014; cooccur.c of their reference code): every pair of
// tokens at most `window` positions apart adds 1/distance to X[a][b] and to X[b][a] (a symmetric window, so
// X is symmetric and a token next to itself adds 2/distance to X[a][a]). A vocabulary of up to 2048 tokens counts
// into a dense table; a larger one counts the pairs of its 2048 most frequent tokens densely and the rest in a hash.
// At most kMaxCooccurrencePairs distinct pairs.
#ifndef EMBEDLAB_EMBED_COOCCURRENCE_COUNTS_H_
#define EMBEDLAB_EMBED_COOCCURRENCE_COUNTS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace embedlab {

// The nonzero entries of X, sorted by (row, col); values are sums of 1/distance, in double as cooccur.c
// keeps them.
struct Cooccurrences {
  std::vector<uint32_t> rows;
  std::vector<uint32_t> cols;
  std::vector<double> values;
  size_t size() const { return values.size(); }
};

// Distinct (row, col) pairs the table may hold: 2^23, so that its hash (16 bytes a slot, at most half full)
// stays under 256 MiB of the wasm heap.
constexpr int64_t kMaxCooccurrencePairs = int64_t{1} << 23;
// Caps of trainWordVectors' ids.length and window.
constexpr int64_t kMaxWordVectorTokens = int64_t{1} << 26;
constexpr int64_t kMaxCooccurrenceWindow = 1000;

// Counts X over ids (one sequence: the window runs across the whole of it). Throws std::out_of_range naming
// ids.length, window, vocabSize or the first id outside [0, vocabSize), and when the pairs would exceed
// kMaxCooccurrencePairs (saying so, with what to lower).
Cooccurrences CountCooccurrences(const std::vector<int32_t>& ids, int64_t vocab_size, int64_t window);

}  // namespace embedlab

#endif  // EMBEDLAB_EMBED_COOCCURRENCE_COUNTS_H_
