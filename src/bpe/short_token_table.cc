#include "bpe/short_token_table.h"

namespace embedlab {

ShortTokenTable::ShortTokenTable(const Vocabulary& vocabulary) : size_(vocabulary.rank_end()) {
  std::shared_ptr<Entry[]> entries(new Entry[size_]);
  for (uint32_t rank = 0; rank < size_; ++rank) {
    const size_t length = vocabulary.Length(rank);
    if (length != 0 && length <= kMaxBytes) {
      vocabulary.CopyBytes(rank, entries[rank].bytes);  // writes at most 16 bytes for these lengths
      entries[rank].bytes[kMaxBytes] = static_cast<char>(length);
    } else {
      entries[rank].bytes[kMaxBytes] = 0;
    }
  }
  entries_ = std::move(entries);
}

}  // namespace embedlab
