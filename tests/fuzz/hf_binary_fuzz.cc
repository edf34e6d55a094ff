// The binary form of an HF tokenizer: one byte n, n bytes of text, then the data. Data that loads encodes the text
// and writes a binary form that loads back to the same ids; other data is a documented error. The data's last 8
// bytes are replaced by the checksum the rest should have (FNV-1a 64, hf_binary.cc), so mutations reach the
// reader's structural checks instead of all stopping at the checksum.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_common.h"
#include "hf/hf_tokenizer.h"

using namespace embedlab;

namespace {

std::string WithChecksum(std::string_view data) {
  if (data.size() < 8) return std::string(data);
  std::string out(data.substr(0, data.size() - 8));
  uint64_t hash = 0xCBF29CE484222325ull;
  for (char c : out) hash = (hash ^ static_cast<uint8_t>(c)) * 0x100000001B3ull;
  for (int i = 0; i < 8; ++i) out += static_cast<char>((hash >> (8 * i)) & 0xFF);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t length = std::min<size_t>(data[0], size - 1);
  const std::string_view text = input.substr(1, length);
  const std::string binary = WithChecksum(input.substr(1 + length));
  AcceptErrors([&] {
    const HfTokenizer tokenizer = HfTokenizer::FromBinary(binary);
    const HfEncoding encoding = tokenizer.Encode(text, {}, true);
    for (size_t i = 0; i < encoding.ids.size(); ++i) {
      FUZZ_CHECK(encoding.ids[i] < tokenizer.vocab_size());
      FUZZ_CHECK(encoding.starts[i] <= encoding.ends[i] && encoding.ends[i] <= text.size());
    }
    tokenizer.Decode(encoding.ids.data(), encoding.ids.size(), {});
    const std::string again = tokenizer.ToBinary();
    const HfTokenizer copy = HfTokenizer::FromBinary(again);
    FUZZ_CHECK(copy.Encode(text, {}, false).ids == encoding.ids);
  });
  return 0;
}
