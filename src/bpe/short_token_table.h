// The bytes of every short token inline, 16 bytes per rank: up to 15 token bytes, then the length. Decoding
// a token is then one 16-byte load and one 16-byte store, instead of a span lookup followed by a load from
// the arena (two dependent loads from two arrays). Tokens longer than 15 bytes are rare (0.3% of o200k's
// ranks) and are left to the vocabulary.
#ifndef EMBEDLAB_BPE_SHORT_TOKEN_TABLE_H_
#define EMBEDLAB_BPE_SHORT_TOKEN_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

#include "bpe/vocabulary.h"

namespace embedlab {

class ShortTokenTable {
 public:
  static constexpr size_t kMaxBytes = 15;
  static constexpr size_t kCopyOverrun = 16;

  explicit ShortTokenTable(const Vocabulary& vocabulary);

  // Writes the token's bytes at `out` (and up to kCopyOverrun bytes past them) and returns their count;
  // 0, writing nothing, for a rank that is unused, longer than kMaxBytes, or beyond the vocabulary.
  size_t Copy(uint32_t rank, char* out) const noexcept {
    if (rank >= size_) return 0;
    const Entry& entry = entries_[rank];
    const size_t length = static_cast<uint8_t>(entry.bytes[kMaxBytes]);
    if (length != 0) std::memcpy(out, entry.bytes, 16);
    return length;
  }

 private:
  struct Entry {
    char bytes[16];  // bytes[15]: the length, or 0
  };
  // Not a std::vector: the constructor writes every entry once, so zero-filling megabytes first would
  // only add to start-up time.
  std::shared_ptr<const Entry[]> entries_;  // shared: copies of a Tokenizer share the immutable table
  size_t size_ = 0;
};

}  // namespace embedlab

#endif  // EMBEDLAB_BPE_SHORT_TOKEN_TABLE_H_
