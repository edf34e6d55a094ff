// .tiktoken text and npm tiktoken's bpe_ranks string: malformed input gives a documented error; a parsed
// vocabulary formats and parses back to the same tokens, and survives the binary form.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "bpe/tiktoken_file.h"
#include "bpe/vocabulary.h"
#include "fuzz_common.h"

using namespace embedlab;

namespace {

void CheckSame(const Vocabulary& a, const Vocabulary& b) {
  FUZZ_CHECK(a.size() == b.size());
  FUZZ_CHECK(a.rank_end() == b.rank_end());
  for (uint32_t rank = 0; rank < a.rank_end(); ++rank) {
    FUZZ_CHECK(a.HasRank(rank) == b.HasRank(rank));
    if (!a.HasRank(rank)) continue;
    FUZZ_CHECK(a.Bytes(rank) == b.Bytes(rank));
    FUZZ_CHECK(b.Rank(a.Bytes(rank)) == rank);
  }
}

void CheckVocabulary(const Vocabulary& vocabulary) {
  CheckSame(vocabulary, ParseTiktokenFile(FormatTiktokenFile(vocabulary)));
  CheckSame(vocabulary, Vocabulary::FromBinary(vocabulary.ToBinary()));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] & 1) {
    AcceptErrors([&] { CheckVocabulary(ParseTiktokenNpmRanks(text)); });
  } else {
    AcceptErrors([&] { CheckVocabulary(ParseTiktokenFile(text)); });
  }
  return 0;
}
