// GPT-2's encoder.json + vocab.bpe. The input holds both, split at the first NUL byte (no NUL: encoder.json
// only, with no merges to check).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "bpe/gpt2_vocabulary_file.h"
#include "bpe/tiktoken_file.h"
#include "fuzz_common.h"

using namespace embedlab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t split = input.find('\0');
  const std::string_view encoder_json = input.substr(0, split);
  const std::string_view vocab_bpe = split == std::string_view::npos ? std::string_view() : input.substr(split + 1);
  AcceptErrors([&] {
    const Vocabulary vocabulary = ParseGpt2Vocabulary(encoder_json, vocab_bpe);
    const Vocabulary again = ParseTiktokenFile(FormatTiktokenFile(vocabulary));
    FUZZ_CHECK(again.size() == vocabulary.size());
    for (uint32_t rank = 0; rank < vocabulary.rank_end(); ++rank) {
      if (vocabulary.HasRank(rank)) FUZZ_CHECK(again.Rank(vocabulary.Bytes(rank)) == rank);
    }
  });
  return 0;
}
