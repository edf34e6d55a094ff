// Rank-based byte-pair merging of one piece, as tiktoken's _byte_pair_merge does it: repeatedly merge the
// adjacent pair of parts whose concatenation has the lowest rank, the leftmost pair on a tie, until no
// adjacent pair is a token.
#ifndef EMBEDLAB_BPE_BYTE_PAIR_MERGE_H_
#define EMBEDLAB_BPE_BYTE_PAIR_MERGE_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "bpe/vocabulary.h"

namespace embedlab {

// Appends the ids of piece's tokens to *ids and, when ends is not null, the end of each token as a byte
// offset (base + offset within the piece). Every single byte of piece must be a token.
void BytePairEncode(const Vocabulary& vocabulary, std::string_view piece, uint32_t base, std::vector<uint32_t>* ids,
                    std::vector<uint32_t>* ends);

// The pieces up to this length use the simple quadratic scan (fastest for short words); longer pieces use
// a heap over a linked list of parts: O(n log n).
constexpr size_t kShortPieceLength = 48;

// Exposed for tests: both must give the same tokens on every input.
void BytePairEncodeShort(const Vocabulary& vocabulary, std::string_view piece, uint32_t base,
                         std::vector<uint32_t>* ids, std::vector<uint32_t>* ends);
void BytePairEncodeLong(const Vocabulary& vocabulary, std::string_view piece, uint32_t base, std::vector<uint32_t>* ids,
                        std::vector<uint32_t>* ends);

}  // namespace embedlab

#endif  // EMBEDLAB_BPE_BYTE_PAIR_MERGE_H_
