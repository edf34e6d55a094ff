// GloVe / word2vec text vectors: one "word v1 v2 ... vd" per line, separated by spaces or tabs, with an
// optional word2vec header line "count dim" first. Every row has the same dim; every value is a finite
// float. Lines may end in "\r\n"; blank lines are skipped. A word may itself contain spaces (glove.840B
// has a few such lines): once dim is known, the last dim fields of a line are the values and everything
// before them is the word. A first line of exactly two unsigned integers is taken as the header (so a
// headerless file of dim 1 must not start with a numeric word and an integer value).
#ifndef EMBEDLAB_EMBED_GLOVE_FILE_H_
#define EMBEDLAB_EMBED_GLOVE_FILE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace embedlab {

struct GloveLimits {
  int64_t max_dim = 16384;                // kMaxDim
  int64_t max_rows = 4000000;             // glove.840B has 2.2M words
  int64_t max_values = int64_t{1} << 28;  // rows x dim, 1 GiB of float32 (kMaxTensorFloats)
};

struct GloveTable {
  std::vector<std::string> words;  // in file order (duplicates are kept as they are)
  std::vector<float> vectors;      // words.size() x dim, row-major
  int64_t dim = 0;
};

// Throws std::invalid_argument naming the line (1-based) of the first malformed entry: a missing word,
// a value that is not a finite decimal number, a row whose dim differs from the first row's (or the
// header's), a header whose count does not match the rows, an empty file. Throws std::out_of_range
// when dim, the row count or rows x dim exceed the limits (checked before the table grows past them).
GloveTable ParseGloveText(std::string_view contents, const GloveLimits& limits = {});

}  // namespace embedlab

#endif  // EMBEDLAB_EMBED_GLOVE_FILE_H_
