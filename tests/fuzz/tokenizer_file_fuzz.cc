// The project's tokenizer files (text and binary form) and the bare binary vocabulary. A file that loads
// saves and loads back to the same tokenizer (in both forms), and its tokenizer round-trips text.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "bpe/tokenizer.h"
#include "bpe/tokenizer_file.h"
#include "bpe/vocabulary.h"
#include "fuzz_common.h"

using namespace embedlab;

namespace {

void CheckSameTokenizer(const Tokenizer& a, const Tokenizer& b) {
  FUZZ_CHECK(a.vocab_size() == b.vocab_size());
  FUZZ_CHECK(a.pattern() == b.pattern());
  FUZZ_CHECK(a.encoding_name() == b.encoding_name());
  FUZZ_CHECK(a.special_tokens().size() == b.special_tokens().size());
  FUZZ_CHECK(a.vocabulary().size() == b.vocabulary().size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  AcceptErrors([&] { Vocabulary::FromBinary(input); });
  AcceptErrors([&] {
    const Tokenizer tokenizer = LoadTokenizerFile(input);
    CheckSameTokenizer(tokenizer, LoadTokenizerFile(SaveTokenizerFile(tokenizer)));
    CheckSameTokenizer(tokenizer, LoadTokenizerFile(SaveTokenizerBinary(tokenizer)));
    const std::string_view sample = input.substr(0, 256);
    FUZZ_CHECK(tokenizer.DecodeBytes(tokenizer.EncodeOrdinary(sample)) == sample);
    FUZZ_CHECK(tokenizer.DecodeBytes(tokenizer.Encode(sample, SpecialTokenPolicy::AllowAll())) == sample);
  });
  return 0;
}
