// The merge loop of a BPE model over one word: repeatedly merge the adjacent pair of symbols whose merge has the
// lowest rank, the leftmost on a tie (the Rust crate's Word::merge_all; Tokenizers.js' queue orders the same way),
// until no adjacent pair has a merge.
#ifndef EMBEDLAB_HF_BPE_WORD_H_
#define EMBEDLAB_HF_BPE_WORD_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "hf/merge_table.h"

namespace embedlab {

struct BpeSymbol {
  uint32_t id;
  uint32_t start;  // byte span in the text the word came from
  uint32_t end;
};

// Words up to this many symbols use a rescan per merge (fastest for words); longer ones a heap over a linked
// list: O(n log n), so a 1 MB word with no pre-tokenizer split is fine.
constexpr size_t kShortWordSymbols = 32;

void MergeWord(const MergeTable& merges, std::vector<BpeSymbol>* symbols);

// Exposed for tests: both give the same result on every word.
void MergeWordShort(const MergeTable& merges, std::vector<BpeSymbol>* symbols);
void MergeWordLong(const MergeTable& merges, std::vector<BpeSymbol>* symbols);

}  // namespace embedlab

#endif  // EMBEDLAB_HF_BPE_WORD_H_
