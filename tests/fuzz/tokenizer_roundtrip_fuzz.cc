// bytes -> ids -> bytes for every OpenAI vocabulary (r50k, p50k, cl100k, o200k), with spans that tile the
// input and name each token's bytes, and the same with special tokens allowed.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "bpe/tokenizer.h"
#include "fuzz_common.h"

using namespace embedlab;

namespace {

std::vector<std::unique_ptr<Tokenizer>>& Tokenizers() {
  static std::vector<std::unique_ptr<Tokenizer>> tokenizers = [] {
    std::vector<std::unique_ptr<Tokenizer>> all;
    for (const char* name : {"r50k_base", "p50k_base", "cl100k_base", "o200k_base"}) {
      const std::string file = ReadWholeFile(VocabularyDir() + "/" + name + ".tiktoken");
      all.push_back(std::make_unique<Tokenizer>(Tokenizer::FromTiktoken(file, name)));
    }
    return all;
  }();
  return tokenizers;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  Tokenizers();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const Tokenizer& tokenizer = *Tokenizers()[data[0] % Tokenizers().size()];
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);

  const std::vector<uint32_t> ids = tokenizer.EncodeOrdinary(text);
  FUZZ_CHECK(ids.size() <= text.size());
  FUZZ_CHECK(tokenizer.DecodeBytes(ids) == text);

  const EncodedTokens spans = tokenizer.EncodeWithSpans(text, SpecialTokenPolicy::AllAsText());
  FUZZ_CHECK(spans.ids == ids);
  FUZZ_CHECK(spans.starts.size() == ids.size() && spans.ends.size() == ids.size());
  size_t position = 0;
  for (size_t i = 0; i < ids.size(); ++i) {
    FUZZ_CHECK(spans.starts[i] == position);
    FUZZ_CHECK(spans.ends[i] > spans.starts[i]);
    FUZZ_CHECK(tokenizer.TokenBytes(ids[i]) == text.substr(spans.starts[i], spans.ends[i] - spans.starts[i]));
    position = spans.ends[i];
  }
  FUZZ_CHECK(position == text.size());

  // Special tokens allowed: still a round trip (a special id decodes to its text).
  const std::vector<uint32_t> with_specials = tokenizer.Encode(text, SpecialTokenPolicy::AllowAll());
  FUZZ_CHECK(tokenizer.DecodeBytes(with_specials) == text);
  // The default policy either agrees with encode-ordinary or refuses a special token with a message.
  AcceptErrors([&] {
    const std::vector<uint32_t> plain = tokenizer.Encode(text);
    FUZZ_CHECK(plain == ids);
  });
  // Out-of-range ids are refused, never read.
  const uint32_t bad = static_cast<uint32_t>(tokenizer.vocab_size()) + data[0];
  FUZZ_CHECK(!AcceptErrors([&] { tokenizer.DecodeBytes(std::vector<uint32_t>{bad}); }));
  return 0;
}
