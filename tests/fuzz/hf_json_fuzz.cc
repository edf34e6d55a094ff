// A tokenizer.json (up to the first NUL) and a text after it: a file that loads encodes the text with spans in
// bounds, decodes, and gives the same ids through its binary form; a file that does not load is a documented error.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_common.h"
#include "hf/hf_tokenizer.h"

using namespace embedlab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t nul = input.find('\0');
  const std::string_view json = input.substr(0, nul);
  const std::string_view text = nul == std::string_view::npos ? std::string_view() : input.substr(nul + 1);
  AcceptErrors([&] {
    const HfTokenizer tokenizer = HfTokenizer::FromJson(json, "", "fuzz");
    for (const bool special : {true, false}) {
      const HfEncoding encoding = tokenizer.Encode(text, {special, !special}, true);
      FUZZ_CHECK(encoding.starts.size() == encoding.ids.size() && encoding.ends.size() == encoding.ids.size());
      for (size_t i = 0; i < encoding.ids.size(); ++i) {
        FUZZ_CHECK(encoding.ids[i] < tokenizer.vocab_size());
        FUZZ_CHECK(encoding.starts[i] <= encoding.ends[i] && encoding.ends[i] <= text.size());
        tokenizer.TokenBytes(encoding.ids[i]);
      }
      FUZZ_CHECK(tokenizer.Count(text, {special, !special}) == encoding.ids.size());
      HfDecodeOptions skip;
      skip.skip_special_tokens = true;
      tokenizer.Decode(encoding.ids.data(), encoding.ids.size(), {});
      tokenizer.Decode(encoding.ids.data(), encoding.ids.size(), skip);
      const HfTokenizer copy = HfTokenizer::FromBinary(tokenizer.ToBinary());
      FUZZ_CHECK(copy.Encode(text, {special, !special}, false).ids == encoding.ids);
    }
  });
  return 0;
}
